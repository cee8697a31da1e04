// The top-level-await entry: `import { hash } from 'chunkhash/auto'` needs no
// `init()` call (the detected build is loaded before the importer runs).
import { init } from './chunkhash.mjs';

await init();

export * from './chunkhash.mjs';
