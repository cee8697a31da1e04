// One smoke test in a real browser: Debian's Chromium (/usr/bin/chromium,
// installed by `make test-js`), driven by playwright-core, loads
// tests/browser/index.html from a local HTTP server; the page imports the
// package as a native ES module and checks the project's vectors through
// both builds. CHUNKHASH_JS_PACKAGE serves another copy of the package.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { blake3Vectors, golden, repo } from './helpers.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// The package the page runs: this folder's, or an installed copy of the
// packed tarball (`make test-dist` names its node_modules/chunkhash).
const served = process.env.CHUNKHASH_JS_PACKAGE || packageDir;
const CHROMIUM = process.env.CHUNKHASH_CHROMIUM || '/usr/bin/chromium';
// What the page may load: the package and the vectors.
const ROOTS = { lib: join(served, 'lib'), dist: join(served, 'dist'), tests: join(packageDir, 'tests'), vectors: join(repo, 'vectors') };
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json' };

function serve() {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://localhost').pathname));
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const [, top, ...rest] = path.split('/');
    const file = ROOTS[top] && join(ROOTS[top], ...rest);
    if (!file || !file.startsWith(ROOTS[top]) || !existsSync(file) || !TYPES[extname(file)]) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('the package runs in headless Chromium, both builds, on the vectors', async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test-js\` installs Debian's chromium (apt-get install chromium)`);
  const server = await serve();
  // Headless, in a fresh temporary profile (playwright's default), with the
  // flags a machine without network beyond the package registries needs.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.after(async () => {
    await browser.close();
    server.close();
  });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/index.html`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60000 });
  const result = await page.evaluate(() => window.result);
  t.diagnostic(`Chromium ${browser.version()}, the package in ${served}: ${JSON.stringify(result.builds)}`);
  assert.deepEqual(errors, []);
  assert.equal(result.error, undefined);
  assert.deepEqual(result.failures, []);
  assert.equal(result.simdSupported, true);
  assert.deepEqual(result.builds.map((b) => [b.build, b.backend]), [['simd128', 'wasm32simd'], ['scalar', 'portable']]);
  // Every golden digest, three modes and a batch row per official case, two more.
  const expected = golden().digests.length + 4 * blake3Vectors().cases.length + 2;
  for (const b of result.builds) assert.equal(b.checked, expected, `${b.build}: ${b.checked} checks`);
});
