// The TypeScript declarations: tsc (strict) checks tests/types/usage.mts
// against lib/chunkhash.d.mts and usage.cts against dist/chunkhash.d.ts,
// both resolved through package.json's exports, including uses that must
// be rejected (`@ts-expect-error` fails if they are accepted).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('the declarations type-check the documented uses', () => {
  const result = spawnSync(process.execPath, [tsc, '-p', join(here, 'types', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
