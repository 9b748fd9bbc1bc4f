// The production build (scripts/bundle.mjs) on a small site: every page's module script becomes one hashed bundle,
// every file a page or a bundled source loads gets a hashed name, and new pages need no edit of the bundler.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { HASHED_NAME, bundle } from '../../scripts/bundle.mjs';
import { cacheControl } from '../../scripts/serve.mjs';

let site;
const page = (script) => `<!doctype html>\n<head>\n  <link rel="stylesheet" href="css/page.css">\n  <script type="module" src="${script}"></script>\n</head>\n<body><a href="guide.html">guide</a></body>\n`;

before(async () => {
  site = await mkdtemp(join(tmpdir(), 'parascope-bundle-'));
  await mkdir(join(site, 'lib'));
  await mkdir(join(site, 'css'));
  await mkdir(join(site, 'wasm'));
  await writeFile(join(site, 'css', 'page.css'), 'body{margin:0}');
  await writeFile(join(site, 'css', 'widget.css'), '/* the widget */\n.w {\n  color: red;\n}\n');
  await writeFile(join(site, 'wasm', 'engine.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  await writeFile(join(site, 'lib', 'sheet.js'), "export const sheet = new URL('../css/widget.css', import.meta.url).href;\n");
  await writeFile(join(site, 'lib', 'engine.js'), "export const wasm = new URL('../wasm/engine.wasm', import.meta.url).href;\n");
  await writeFile(join(site, 'main.js'), "import { sheet } from './lib/sheet.js';\nimport { wasm } from './lib/engine.js';\nglobalThis.loaded = [sheet, wasm];\n");
  await writeFile(join(site, 'embed.js'), "import { sheet } from './lib/sheet.js';\nglobalThis.embedded = sheet;\n");
  await writeFile(join(site, 'index.html'), page('main.js'));
  await writeFile(join(site, 'embed.html'), page('embed.js')); // a page added later: found with no edit
  await writeFile(join(site, 'guide.html'), '<!doctype html>\n<p>no script</p>\n');
  await bundle(site);
});

after(async () => rm(site, { recursive: true, force: true }));

test('each page loads one hashed bundle of its own script, and hashed copies of what it links', async () => {
  const bundles = (await readdir(join(site, 'js'))).sort();
  assert.equal(bundles.length, 2);
  for (const name of bundles) assert.match(name, HASHED_NAME);
  const index = await readFile(join(site, 'index.html'), 'utf8');
  const embed = await readFile(join(site, 'embed.html'), 'utf8');
  const main = index.match(/src="(js\/main-[A-Z2-7]{8}\.js)"/)[1];
  assert.match(embed, /src="js\/embed-[A-Z2-7]{8}\.js"/);
  assert.match(index, /href="css\/page-[A-Z2-7]{8}\.css"/);
  assert.match(index, /href="guide\.html"/, 'links between pages keep their names');
  const text = await readFile(join(site, main), 'utf8');
  assert.match(text, /"\.\.\/css\/widget-[A-Z2-7]{8}\.css"/);
  assert.match(text, /"\.\.\/wasm\/engine-[A-Z2-7]{8}\.wasm"/);
  assert.doesNotMatch(text, /import\s/, 'one module: nothing left to import');
  for (const name of bundles) assert.equal(cacheControl(`js/${name}`), 'public, max-age=31536000, immutable');
});

test('a page preloads the wasm and stylesheets its bundle loads, so they download while the page parses', async () => {
  const index = await readFile(join(site, 'index.html'), 'utf8');
  assert.match(index, /<link rel="preload" href="wasm\/engine-[A-Z2-7]{8}\.wasm" as="fetch" type="application\/wasm" crossorigin>/);
  assert.match(index, /<link rel="preload" href="css\/widget-[A-Z2-7]{8}\.css" as="style">/);
  assert.ok(index.indexOf('rel="preload"') < index.indexOf('<script'), 'before the script');
  const embed = await readFile(join(site, 'embed.html'), 'utf8');
  assert.doesNotMatch(embed, /\.wasm/, 'the embed bundle does not load the engine');
  assert.equal(await readFile(join(site, 'guide.html'), 'utf8'), '<!doctype html>\n<p>no script</p>\n');
});

test('a hashed name changes with the content and the original names stay for what cannot know the hash', async () => {
  const css = (await readdir(join(site, 'css'))).sort();
  assert.deepEqual(css.filter((n) => !HASHED_NAME.test(n)), ['page.css', 'widget.css']);
  const main = await readFile(join(site, 'main.js'), 'utf8');
  assert.match(main, /^\/\/ .*\nexport \* from '\.\/js\/main-[A-Z2-7]{8}\.js';\n$/);
});

test('stylesheets ship minified under their hashed names; the original names keep the source', async () => {
  const css = await readdir(join(site, 'css'));
  const hashed = css.find((n) => /^widget-[A-Z2-7]{8}\.css$/.test(n));
  assert.equal(await readFile(join(site, 'css', hashed), 'utf8'), '.w{color:red}\n');
  assert.equal(await readFile(join(site, 'css', 'widget.css'), 'utf8'), '/* the widget */\n.w {\n  color: red;\n}\n');
});
