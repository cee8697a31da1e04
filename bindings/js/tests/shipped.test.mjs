// scripts/shipped.mjs, which strips the comments of what the package runs
// (its output is checked by entries.test.mjs): without TypeScript it says
// what to run.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { repo } from './helpers.mjs';

test('without TypeScript, stripping comments says to run npm ci', async () => {
  // A copy of the script where no node_modules is found: `import('typescript')`
  // resolves from the importing file's folder up (ES modules ignore NODE_PATH).
  const dir = mkdtempSync(join(tmpdir(), 'chunkhash-shipped-'));
  try {
    const copy = join(dir, 'shipped.mjs');
    copyFileSync(join(repo, 'bindings', 'js', 'scripts', 'shipped.mjs'), copy);
    const { stripComments } = await import(pathToFileURL(copy).href);
    await assert.rejects(stripComments('// a comment\n', 'a.mjs'), {
      message: /^chunkhash js build: TypeScript is missing \(`npm ci` in bindings\/js; `make js` runs it\): Cannot find package 'typescript'/,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
