// The production build (scripts/bundle.mjs) on a small site: a page that shows its widgets gets one hashed bundle per
// module script; a page that picks its widget at run time (the embed) gets a small loader and one file per figure
// (its element, its engine's glue and the shared code it needs); every file a page or a bundled source loads gets a
// hashed name, pages preload what they run at once, and new pages need no edit of the bundler.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { HASHED_NAME, LEAVE_IMPORT, bundle } from '../../scripts/bundle.mjs';
import { cacheControl } from '../../scripts/serve.mjs';

let site;
const page = (script) =>
  `<!doctype html>\n<head>\n  <link rel="stylesheet" href="css/page.css">\n  <script type="module" src="${script}"></script>\n</head>\n<body><a href="guide.html">guide</a></body>\n`;

before(async () => {
  site = await mkdtemp(join(tmpdir(), 'parascope-bundle-'));
  await mkdir(join(site, 'lib'));
  await mkdir(join(site, 'css'));
  await mkdir(join(site, 'wasm'));
  await writeFile(join(site, 'css', 'page.css'), 'body{margin:0}');
  // .w: a class both figures write; .none: one no figure's code names (the embed's files leave it out)
  await writeFile(
    join(site, 'css', 'widget.css'),
    '/* the widget */\n.w {\n  color: red;\n}\n.none {\n  color: gray;\n}\n',
  );
  await writeFile(join(site, 'wasm', 'engine.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  await mkdir(join(site, 'widgets'));
  await writeFile(join(site, 'css', 'a.css'), '.a{color:blue}');
  // Each widget's own rules, linked after widget.css (lib/widget.js): the figures' list (widgets/index.js) names them.
  await writeFile(join(site, 'css', 'widget-a.css'), '.wa { color: green; }\n');
  await writeFile(join(site, 'css', 'widget-b.css'), '.wb { color: olive; }\n');
  await writeFile(
    join(site, 'widgets', 'index.js'),
    "export const FIGURES = [{ name: 'a', engine: 'engine' }, { name: 'b', engine: 'engine' }];\n" +
      'export const filesOf = ({ name }) => ({ module: `./${name}/element.js`, stylesheet: `../css/widget-${name}.css` });\n',
  );
  await writeFile(join(site, 'wasm', 'engine.mjs'), "export default () => 'the engine glue';\n");
  await writeFile(join(site, 'wasm', 'whole.mjs'), "export default () => 'the whole engine';\n");
  await writeFile(
    join(site, 'lib', 'sheet.js'),
    'export const sheetOf = (x) => x;\nconst sheet = sheetOf;\n' +
      "export const common = sheet(new URL('../css/widget.css', import.meta.url));\n",
  );
  await writeFile(
    join(site, 'lib', 'engine.js'),
    "export const wasm = new URL('../wasm/engine.wasm', import.meta.url).href;\n" +
      "export const glue = () => import('../wasm/whole.mjs');\n", // another engine, loaded when asked
  );
  await writeFile(
    join(site, 'lib', 'widgets.js'),
    "export const WIDGETS = { 'parascope-a': () => import('../widgets/a/element.js'),\n" +
      "  'parascope-b': () => import('../widgets/b/element.js') };\n",
  );
  await mkdir(join(site, 'widgets', 'a'));
  await mkdir(join(site, 'widgets', 'b'));
  await writeFile(
    join(site, 'widgets', 'a', 'element.js'),
    "import { common, sheetOf as sheet } from '../../lib/sheet.js';\nimport { wasm, glue } from '../../lib/engine.js';\n" +
      "globalThis.a = [common, 'w', wasm, glue, 'a-only-code', new URL('../../css/a.css', import.meta.url).href,\n" +
      "  sheet(new URL('../../css/widget-a.css', import.meta.url)),\n" +
      "  () => import(new URL('../../lib/on-demand.js', import.meta.url).href)];\n",
  );
  // A module loaded only when asked (like the export code), with a module of its own.
  await writeFile(
    join(site, 'lib', 'on-demand.js'),
    "import { part } from './on-demand-part.js';\nexport const later = ['on-demand-code', part];\n",
  );
  await writeFile(join(site, 'lib', 'on-demand-part.js'), "export const part = 'on-demand-part-code';\n");
  await writeFile(
    join(site, 'widgets', 'b', 'element.js'),
    "import { common, sheetOf as sheet } from '../../lib/sheet.js';\nimport { wasm } from '../../lib/engine.js';\n" +
      "globalThis.b = [common, 'w', wasm, 'b-only-code', sheet(new URL('../../css/widget-b.css', import.meta.url))];\n",
  );
  // The embed: its loader (embed.js) reads the map (lib/embed-files.js, the built site's own written by the bundler)
  // and calls the figure's showEmbed (lib/embed-figure.js), given the engine's glue.
  await writeFile(
    join(site, 'lib', 'embed-files.js'),
    "import { WIDGETS } from './widgets.js';\nexport const EMBED_FILES = { sources: WIDGETS };\n",
  );
  await writeFile(
    join(site, 'lib', 'embed-figure.js'),
    "import { common } from './sheet.js';\n" +
      'export const showEmbed = (name, wasm, compiling, glue) => [common, name, wasm, glue];\n',
  );
  await writeFile(
    join(site, 'main.js'),
    "import { common } from './lib/sheet.js';\nimport { wasm } from './lib/engine.js';\n" +
      "import { WIDGETS } from './lib/widgets.js';\nglobalThis.loaded = [common, wasm, WIDGETS];\n",
  );
  await writeFile(
    join(site, 'embed.js'),
    "import { EMBED_FILES } from './lib/embed-files.js';\nglobalThis.embedded = ['loader-code', EMBED_FILES];\n",
  );
  await writeFile(
    join(site, 'index.html'),
    page('main.js').replace(
      '<body>',
      '<body><parascope-a></parascope-a><pre><code><parascope-b></parascope-b></code></pre>',
    ),
  );
  await writeFile(join(site, 'embed.html'), page('embed.js')); // a page added later: found with no edit
  await writeFile(join(site, 'guide.html'), '<!doctype html>\n<p>no script</p>\n');
  // Notes in a page's source, a classic script (the file:// watch) and one shown to readers as text (embed-size.js).
  const notes = {
    'notes.html':
      '<!doctype html>\n<!-- a note for\n  the source -->\n<script src="watch.js" defer></script>\n' +
      '<script src="snippet.js" data-keep-source></script>\n<pre><code>a <!-- shown --> b</code></pre>\n',
    'watch.js': '// the watch\n(function () {\n  var answer = 42;\n  globalThis.watched = answer;\n})();\n',
    'snippet.js': '// copy me\nvar kept = 1;\n',
  };
  for (const [name, content] of Object.entries(notes)) await writeFile(join(site, name), content);
  // Like the embed, but running its widget's own engine (embed.html: lib/widget-engines.js picks and starts it).
  await writeFile(join(site, 'alone.html'), page('embed.js').replace('<head>', '<html data-engine="widget">\n<head>'));
  await bundle(site);
});

after(async () => rm(site, { recursive: true, force: true }));

const js = async () => (await readdir(join(site, 'js'))).sort();
const text = async (name) => readFile(join(site, 'js', name), 'utf8');
const chunkOf = async (prefix) => (await js()).find((n) => n.startsWith(`${prefix}-`) && HASHED_NAME.test(n));

test('a page showing its widgets loads one bundle; the embed a loader and one file per figure', async () => {
  const files = await js();
  for (const name of files) {
    assert.match(name, HASHED_NAME);
    assert.equal(cacheControl(`js/${name}`), 'public, max-age=31536000, immutable');
  }
  const index = await readFile(join(site, 'index.html'), 'utf8');
  const embed = await readFile(join(site, 'embed.html'), 'utf8');
  const main = index.match(/src="js\/(main-[A-Z2-7]{8}\.js)"/)[1];
  const loader = embed.match(/src="js\/(embed-[A-Z2-7]{8}\.js)"/)[1];
  assert.match(index, /href="css\/page-[A-Z2-7]{8}\.css"/);
  assert.match(index, /href="guide\.html"/, 'links between pages keep their names');
  // The article-like page: one module with both widgets inside, nothing left to import.
  const mainText = await text(main);
  assert.match(mainText, /a-only-code/);
  assert.match(mainText, /b-only-code/);
  assert.doesNotMatch(
    mainText.replace(/import\((\/\*[^*]*\*\/\s*)*new URL\(/g, ''),
    /import\s*[{"'(]|from\s*"/,
    'one module: nothing left to import',
  );
  assert.match(mainText, /\.w\{color:red\}/, "the widgets' sheet is text in the code");
  assert.match(mainText, /"\.\.\/wasm\/engine-[A-Z2-7]{8}\.wasm"/);
  // The embed: a file per figure, each whole (nothing imported statically) and with no code of the other.
  const a = await chunkOf('embed-a');
  const b = await chunkOf('embed-b');
  assert.ok(a && b, `a file per figure: ${files.join(', ')}`);
  assert.deepEqual(
    files.filter((n) => n.startsWith('chunk-')),
    [],
    'no shared chunk',
  );
  for (const [name, own, other] of [
    [a, /a-only-code/, /b-only-code/],
    [b, /b-only-code/, /a-only-code/],
  ]) {
    const code = await text(name);
    assert.match(code, own);
    assert.doesNotMatch(code, other, `${name} holds no code of the other figure`);
    assert.match(code, /the engine glue/, 'its engine glue inside');
    assert.doesNotMatch(code, /import\s*[{"]|from\s*"/, 'nothing imported statically');
    assert.match(code, /export\s*\{[^}]*showEmbed/, 'what the loader calls');
    assert.equal((code.match(/\.w\{color:red\}/g) ?? []).length, 1, 'the shared code once');
  }
  // new URL(…, import.meta.url) points at the hashed copies, relative to js/, in each figure's file.
  assert.match(await text(a), /"\.\.\/css\/a-[A-Z2-7]{8}\.css"/);
  // The loader: the map the bundler wrote (each figure's file and its engine's wasm, hashed), no figure's code.
  const loaderText = await text(loader);
  assert.match(loaderText, /loader-code/);
  for (const figure of [a, b]) assert.ok(loaderText.includes(`"${figure}"`), `the loader names ${figure}`);
  assert.match(loaderText, /"\.\.\/wasm\/engine-[A-Z2-7]{8}\.wasm"/);
  assert.doesNotMatch(loaderText, /[ab]-only-code|the engine glue|color:red/, 'no code of a figure');
  assert.doesNotMatch(loaderText, /import\s*[{"]|from\s*"/, 'one file');
});

test('a module loaded by import(new URL(…)) is one file of its own, fetched on demand even from the one-bundle page', async () => {
  const files = await js();
  const lazy = files.filter((n) => n.startsWith('on-demand-'));
  assert.equal(lazy.length, 1, `one file: ${files.join(', ')}`);
  assert.match(lazy[0], HASHED_NAME);
  const lazyText = await text(lazy[0]);
  assert.match(lazyText, /on-demand-code/);
  assert.match(lazyText, /on-demand-part-code/, 'with what it imports inside');
  assert.doesNotMatch(lazyText, /import\s*[{"'(]|from\s*"/, 'nothing left to import');
  const index = await readFile(join(site, 'index.html'), 'utf8');
  const embed = await readFile(join(site, 'embed.html'), 'utf8');
  const main = index.match(/src="js\/(main-[A-Z2-7]{8}\.js)"/)[1];
  for (const name of files.filter((n) => n !== lazy[0])) {
    assert.doesNotMatch(await text(name), /on-demand-(part-)?code/, `${name} holds none of it`);
  }
  assert.ok(
    (await text(main)).includes(`import(${LEAVE_IMPORT}new URL("./${lazy[0]}",import.meta.url)`),
    'the article points at it, the import() marked for bundlers to leave as it is',
  );
  assert.ok((await text(await chunkOf('embed-a'))).includes(`"./${lazy[0]}"`), "the embed's file of a too");
  for (const html of [index, embed]) assert.doesNotMatch(html, /on-demand/, 'not preloaded');
});

test('a page preloads the wasm, stylesheets and chunks it runs at once; the embed nothing: its loader starts all', async () => {
  const index = await readFile(join(site, 'index.html'), 'utf8');
  assert.match(
    index,
    /<link rel="preload" href="wasm\/engine-[A-Z2-7]{8}\.wasm" as="fetch" type="application\/wasm" crossorigin>/,
  );
  assert.doesNotMatch(index, /css\/widget/, "the widgets' sheets are text in the code");
  assert.match(index, /<link rel="preload" href="css\/a-[A-Z2-7]{8}\.css" as="style">/);
  assert.ok(index.indexOf('rel="preload"') < index.indexOf('<script'), 'before the script');
  assert.doesNotMatch(index, /modulepreload/, 'one file: nothing else to preload');
  // The embed's loader picks the figure from the hash and starts that figure's file and wasm itself.
  for (const page of ['embed.html', 'alone.html']) {
    const html = await readFile(join(site, page), 'utf8');
    assert.doesNotMatch(html, /rel="(module)?preload"/, `${page}: nothing preloaded`);
    assert.match(html, /<script type="module" src="js\/embed-[A-Z2-7]{8}\.js"><\/script>/);
  }
  assert.equal(await readFile(join(site, 'guide.html'), 'utf8'), '<!doctype html>\n<p>no script</p>\n');
});

test('a hashed name changes with the content and the original names stay for what cannot know the hash', async () => {
  const css = (await readdir(join(site, 'css'))).sort();
  assert.deepEqual(
    css.filter((n) => !HASHED_NAME.test(n)),
    ['a.css', 'page.css', 'widget-a.css', 'widget-b.css', 'widget.css'],
  );
  const main = await readFile(join(site, 'main.js'), 'utf8');
  assert.match(main, /^\/\/ .*\nexport \* from '\.\/js\/main-[A-Z2-7]{8}\.js';\n$/);
});

test('stylesheets ship minified under their hashed names; the original names keep the source', async () => {
  const css = await readdir(join(site, 'css'));
  const hashed = css.find((n) => /^a-[A-Z2-7]{8}\.css$/.test(n));
  assert.equal(await readFile(join(site, 'css', hashed), 'utf8'), '.a{color:#00f}\n');
  assert.equal(
    await readFile(join(site, 'css', 'widget.css'), 'utf8'),
    '/* the widget */\n.w {\n  color: red;\n}\n.none {\n  color: gray;\n}\n',
  );
});

/** How often `rules` (a minified sheet's text) stands in `code`. */
const count = (code, rules) => code.split(rules).length - 1;

test('the page with every widget holds each widget sheet as text, once, and fetches or preloads none', async () => {
  const index = await readFile(join(site, 'index.html'), 'utf8');
  const main = await text(index.match(/src="js\/(main-[A-Z2-7]{8}\.js)"/)[1]);
  for (const rules of ['.w{color:red}', '.none{color:gray}', '.wa{color:green}', '.wb{color:olive}'])
    assert.equal(count(main, rules), 1, rules);
  assert.doesNotMatch(main, /css\/widget/, 'no widget sheet named by URL');
  assert.doesNotMatch(index, /css\/widget/, 'none preloaded');
  assert.match(main, /"\.\.\/css\/a-[A-Z2-7]{8}\.css"/, 'a stylesheet not written through sheet() stays a hashed URL');
});

test("the embed: each figure's file holds widget.css's rules its code can meet and its own sheet's only", async () => {
  const embed = await readFile(join(site, 'embed.html'), 'utf8');
  const a = await text(await chunkOf('embed-a'));
  const b = await text(await chunkOf('embed-b'));
  assert.deepEqual([count(a, '.w{color:red}'), count(a, '.wa{color:green}'), count(a, '.wb{color:olive}')], [1, 1, 0]);
  assert.deepEqual([count(b, '.w{color:red}'), count(b, '.wb{color:olive}'), count(b, '.wa{color:green}')], [1, 1, 0]);
  assert.deepEqual([count(a, '.none{'), count(b, '.none{')], [0, 0], 'a rule for a class no code writes left out');
  assert.doesNotMatch(embed, /css\/widget/, 'no widget sheet preloaded');
});

test("pages ship without their source's comments, kept where they are text; classic scripts minified but a kept one", async () => {
  const notes = await readFile(join(site, 'notes.html'), 'utf8');
  assert.doesNotMatch(notes, /a note for/);
  assert.match(notes, /<pre><code>a <!-- shown --> b<\/code><\/pre>/);
  assert.match(notes, /<script src="watch\.js" defer><\/script>/, 'the classic script keeps its name');
  const watch = await readFile(join(site, 'watch.js'), 'utf8');
  assert.doesNotMatch(watch, /the watch|answer/);
  assert.match(watch, /^\(function\(\)\{var (\w)=42;globalThis\.watched=\1\}\)\(\);\n$/);
  assert.equal(await readFile(join(site, 'snippet.js'), 'utf8'), '// copy me\nvar kept = 1;\n');
});
