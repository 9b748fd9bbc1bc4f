// The npm package: `npm pack` makes a tarball that, installed offline from the file into an empty folder, gives a blog
// page its figures (Chromium renders one with the engine's numbers), resolves its exports and carries its types, and
// whose version is the engine's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { serve } from '../../scripts/serve.mjs';
import { nodeEngine } from '../js/node-engine.mjs';
import { startSite } from './harness.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const engine = await nodeEngine();
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

let work;
let site;
let packed;
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'parascope-package-'));
  const [info] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT));
  packed = { ...info, path: join(work, info.filename) };
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'a-blog', private: true, type: 'module' }));
  npm(['install', '--offline', '--ignore-scripts', '--no-package-lock', packed.path], work);
  site = await startSite();
});
after(async () => {
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('the tarball holds the site, the engine, the types and the changelog, and no tests', () => {
  const files = packed.files.map((f) => f.path);
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'dist/main.js', 'dist/lib/engine.js', 'dist/wasm/parascope.wasm',
    'dist/wasm/parascope.mjs', 'dist/wasm/parascope-planner.wasm', 'dist/wasm/parascope-planner.mjs', 'dist/css/embed.css', 'dist/embed.html', 'dist/types/index.d.ts', 'dist/types/engine.d.ts',
    'dist/types/elements.d.ts', 'dist/types/html-custom-data.json']) {
    assert.ok(files.includes(f), `${f} is packed`);
  }
  assert.deepEqual(files.filter((f) => /^(tests|engine|wasm|scripts|web|build)\//.test(f) || f.startsWith('dist/tests/')), []);
});

test('npm publish --dry-run takes the package: public, named, licensed, the same files as the tarball', async () => {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(manifest.private, undefined, 'a private package cannot be published');
  assert.equal(manifest.name, 'parascope');
  assert.equal(manifest.license, 'MIT');
  const report = JSON.parse(npm(['publish', '--dry-run', '--json'], ROOT));
  const info = report.parascope ?? report; // npm 11 keys the report by the package's name
  assert.equal(info.name, 'parascope');
  assert.deepEqual(info.files.map((f) => f.path).sort(), packed.files.map((f) => f.path).sort());
});

test('the installed package resolves its exports and its version is the engine\'s', async () => {
  const resolved = JSON.parse(execFileSync('node', ['--input-type=module', '-e', `console.log(JSON.stringify([
    import.meta.resolve('parascope'), import.meta.resolve('parascope/engine'), import.meta.resolve('parascope/embed.css')]))`],
  { cwd: work, encoding: 'utf8' }));
  // node resolves the `node` condition (no DOM: the wasm read from disk); browsers and bundlers the default entries.
  assert.ok(resolved[0].endsWith('/node_modules/parascope/dist/node.js'), resolved[0]);
  assert.ok(resolved[1].endsWith('/node_modules/parascope/dist/node.js'));
  assert.ok(resolved[2].endsWith('/node_modules/parascope/dist/css/embed.css'));
  const installed = JSON.parse(await readFile(join(work, 'node_modules/parascope/package.json'), 'utf8'));
  assert.equal(installed.types, './dist/types/index.d.ts');
  assert.equal(engine.call({ op: 'version' }).version, installed.version);
  const changelog = await readFile(join(work, 'node_modules/parascope/CHANGELOG.md'), 'utf8');
  assert.match(changelog, new RegExp(`^## ${installed.version.replace(/\./g, '\\.')}\\b`, 'm'));
});

test('a blog page in the empty folder renders a figure from the installed package', async () => {
  await writeFile(join(work, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>A blog post</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="node_modules/parascope/dist/css/embed.css">
<script type="module" src="node_modules/parascope/dist/main.js"></script></head>
<body><p>Some prose.</p><parascope-bubble stages="8" microbatches="32" schedule="1f1b"></parascope-bubble></body></html>`);
  const { server, url } = await serve({ root: work, port: 0 });
  const context = await site.browser.newContext({ viewport: { width: 900, height: 900 } });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('parascope-bubble')?.hasAttribute('data-ready'));
    const shown = Number(await page.locator('parascope-bubble [data-out="efficiency"]').getAttribute('data-value'));
    const expected = engine.call({ op: 'pipeline', schedule: '1f1b', stages: 8, microbatches: 32, include_ops: false });
    assert.equal(shown, expected.efficiency);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
