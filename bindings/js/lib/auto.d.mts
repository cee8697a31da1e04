export * from './chunkhash.mjs';
