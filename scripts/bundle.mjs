#!/usr/bin/env node
// The production build of dist/: every page (web/*.html) gets its module scripts bundled by esbuild, with
// content-hashed file names for everything it loads, so scripts/serve.mjs can let browsers keep those files for a year;
// the iframe route (embed.html) downloads a small loader and the one file of the figure it shows, and no other's.
//
// Run by scripts/build after it has copied web/ and the engine into dist/. What it does, in dist/:
// - The entry list is the pages themselves: each `<script type="module" src="…">` of each top-level *.html page is an
//   entry. A new page (or a new entry script) is bundled with no edit here.
// - Two kinds of entry, by what its page shows:
//   - A page that shows its widgets in its HTML (a <parascope-x> tag outside <pre>/<code>: the article, the guide) runs
//     every widget its script registers at once; its entries become one file each, js/<name>-<hash>.js, with every
//     widget inside (one script request, no chunk waiting for another: on the article, chunks made the first figure
//     ~150–270 ms later in medians of 20 cold loads on a 2-core machine, for no byte saved; issue 12).
//   - A page that names no widget in its HTML picks one at run time (embed.html reads its hash): its entry is a loader
//     (embed.js), built as one file, js/<name>-<hash>.js, with lib/embed-files.js replaced by the map of the figures'
//     own files. Each figure gets one, js/embed-<figure>-<hash>.js, from an esbuild build of its own: its element and
//     its engine's glue imported statically and lib/embed-figure.js (what shows it), every module it needs tree-shaken
//     for that figure alone (splitting on only for what it loads by import(): the figures' engine, asked rarely), then
//     minified again by terser (packFurther). gzip packs each file alone: one file per figure was ~2-4.6 KB less than
//     the ten chunks of a split build (issue 30).
//     The loader starts the figure's file and its wasm together, so nothing waits for a script to be parsed.
// - Every `new URL('…', import.meta.url)` in the bundled sources (the wasm, the worker, code loaded on demand) is pointed
//   at the hashed copy of that file, relative to js/ (every output lives there, so the URL holds in whichever chunk it
//   lands); the dist path written after it (`asset(new URL(…), 'wasm/x.wasm')`, lib/assets.js: what setAssetBase
//   resolves) is pointed at that copy's place in dist/.
// - Stylesheets (css/*.css, minified), the engine (wasm/*.wasm) and whatever else a page links get a hashed copy
//   (<name>-<hash>.<ext>); the page is rewritten to load the hashed names.
// - The widgets' stylesheets (css/widget.css, css/embed.css, each widgets/<name>/<name>.css) are written into the code
//   as text, minified: `sheet(new URL('x.css', import.meta.url))` becomes `sheet("<its rules>")` (lib/sheets.js adopts
//   it as a constructable sheet), so no bundler's CSS rule, no request and no style-src exception stands between a
//   figure and its rules. Each figure's embed file holds only its own widget's sheet (and widget.css's, without the
//   rules naming a class its code never writes: scripts/used-rules.mjs).
// - Preloads, so no download waits for a script to be parsed: each page gets a <link rel="modulepreload"> for every
//   chunk its entries import statically (at any depth), for the chunks every widget they can load needs, and for the
//   engine's glue chunk (wasm/<name>.mjs) when its wasm is preloaded; and a <link rel="preload"> for each wasm and
//   stylesheet that code loads and the page does not link itself (the engine, the widgets' shadow-root sheet); no
//   wasm on a page marked <html data-engine="widget"> (embed.html runs its widget's own engine: lib/widget-engines.js).
//   The embed's loader is one file naming its figures' files by computed URLs: its page gets none.
// - Every script a source in lib/ or widgets/ or a page's entry names by `new URL('….js', import.meta.url)` (a Web
//   Worker's: the planner's; a module loaded on demand by import(): the export code, lib/widget-tools.js; the embed's
//   note for a link naming no figure, lib/embed-unknown.js) is bundled as an entry of
//   its own, one self-contained file (a bundler that copies it as it is loses nothing), and the URL is pointed at that
//   bundle: fetched only when asked, even on a page bundled without splitting; the unbundled sources load the module.
// - An import() of a computed URL is marked for bundlers to leave (LEAVE_IMPORT), as its source is.
// - Pages lose their HTML comments, and the local classic scripts they load (the file:// watch) are minified in place,
//   but one marked data-keep-source (shown to readers as text): each embed's bytes (issue 30).
// - PARASCOPE_NO_MINIFY=1 keeps names and layout (and the comments) (for readable profiles: tests/bench/profile.mjs, trace.mjs).
// - The unhashed files stay beside them: dist/<entry> becomes a one-line module re-exporting its bundle (a stable
//   name for the test pages and the npm package), and lib/, widgets/, wasm/parascope.mjs remain for node tests that
//   import them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';
import { minify as terse } from 'terser';

import { embedCss } from '../web/lib/model/embed-css.js';
import { usedRules, wordsOf } from './used-rules.mjs';

/** A hashed name is <name>-<8 characters of base32 [A-Z2-7]>.<ext>, esbuild's own style; serve.mjs relies on it. */
export const HASHED_NAME = /-[A-Z2-7]{8}\.[a-z0-9]+$/;

const hashOf = (bytes) => {
  const digest = createHash('sha256').update(bytes).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 8) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length === 8) break;
  }
  return out;
};

const toUrlPath = (path) => path.split(sep).join('/');

/** Builds the hashed site in `dist` (a folder already holding the copied web/ tree and wasm/). */
export async function bundle(dist, { minify = !process.env.PARASCOPE_NO_MINIFY } = {}) {
  const site = { dist: resolve(dist), minify, outdir: join(resolve(dist), 'js'), hashed: new Map() };
  const { pages, entries, oneFile } = pageEntries(site.dist);
  const urls = assetUrls(site);
  await buildWorkers(site, urls, entries);
  const outputs = await buildEntries(site, urls, entries, oneFile);
  const chunks = chunkGraph(outputs, urls.assetsOf);
  const bundles = entryBundles(entries, chunks);
  for (const page of pages) rewritePage(site, page, bundles, chunks);
  if (site.minify) minifyClassicScripts(site, pages);
  writeStableNames(bundles);
  markComputedImports(site.outdir);
  return { pages, bundles };
}

/** What tells Vite and webpack to leave an import() of a computed URL as it is (esbuild drops the sources' comments). */
export const LEAVE_IMPORT = '/* webpackIgnore: true */ /* @vite-ignore */ ';

/**
 * Marks every import() whose argument is computed (the export code's and the chart drawers' URLs, lib/assets.js) in
 * the outputs, as the sources mark it: a bundler that bundles these files then neither warns nor rewrites it.
 */
function markComputedImports(outdir) {
  for (const name of readdirSync(outdir).filter((n) => n.endsWith('.js'))) {
    const file = join(outdir, name);
    const text = readFileSync(file, 'utf8');
    const marked = text.replace(/(?<![.\w$])import\((?=[A-Za-z_$])/g, `import(${LEAVE_IMPORT}`);
    if (marked !== text) writeFileSync(file, marked);
  }
}

/** Writes `bytes` (a stylesheet minified by esbuild) as <dir>/<name>-<hash><ext>; returns that path. */
function writeHashed(site, dir, name, ext, bytes) {
  if (ext === '.css' && site.minify) {
    bytes = Buffer.from(esbuild.transformSync(bytes.toString('utf8'), { loader: 'css', minify: true }).code);
  }
  const copy = join(dir, `${name}-${hashOf(bytes)}${ext}`);
  writeFileSync(copy, bytes);
  return copy;
}

/** The hashed copy of `file` (absolute), written on first use (site.hashed: original -> copy). */
function hashedCopy(site, file) {
  if (!site.hashed.has(file)) {
    site.hashed.set(
      file,
      writeHashed(site, dirname(file), basename(file, extname(file)), extname(file), readFileSync(file)),
    );
  }
  return site.hashed.get(file);
}

const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g;

/** The pages (top-level *.html), their entry scripts, and the entries of pages that show their widgets in their HTML. */
function pageEntries(dist) {
  const pages = readdirSync(dist)
    .filter((f) => f.endsWith('.html'))
    .sort();
  const entries = new Set();
  const oneFile = new Set(); // entries of a page that shows its widgets in its HTML (see the top of this file)
  for (const page of pages) {
    const html = readFileSync(join(dist, page), 'utf8');
    for (const [, src] of html.matchAll(MODULE_SCRIPT)) {
      if (!isLocal(src)) continue;
      entries.add(resolve(dist, src));
      if (WIDGET_TAG.test(withoutCode(html))) oneFile.add(resolve(dist, src));
    }
  }
  return { pages, entries, oneFile };
}

/**
 * Every `new URL('relative', import.meta.url)` in a bundled source names a file beside that source: the plugin points
 * it at the file's hashed copy (or a script's own bundle), written relative to the bundle's folder (js/), and a dist
 * path string right after it at the copy's place in dist/; `sheet(new URL('x.css', …))` becomes the sheet's text.
 * Returns { plugin(), assetsOf: source -> hashed assets it refers to, workers: script -> its bundle }.
 */
function assetUrls(site) {
  const assetsOf = new Map();
  const workers = new Map();
  const sheetText = (file, rewrite) => {
    const css = rewrite(file, readFileSync(file, 'utf8'));
    return site.minify ? esbuild.transformSync(css, { loader: 'css', minify: true }).code.trim() : css;
  };
  // `rewrite(file, css)`: a stylesheet's text as this build writes it (a figure's embed: css/embed.css for it alone)
  const plugin = ({ rewrite = (file, css) => css } = {}) => ({
    name: 'hashed-asset-urls',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, (args) => {
        const found = [];
        const local = (rel) => {
          const target = resolve(dirname(args.path), rel);
          return isLocal(rel) && existsSync(target) ? target : null;
        };
        const contents = readFileSync(args.path, 'utf8')
          .replace(/\bsheet\(new URL\((['"])([^'"]+\.css)\1,\s*import\.meta\.url\)\)/g, (whole, quote, rel) => {
            const target = local(rel);
            return target ? `sheet(${JSON.stringify(sheetText(target, rewrite))})` : whole;
          })
          .replace(
            /new URL\((['"])([^'"]+)\1,\s*import\.meta\.url\)(,\s*(['"])[^'"]+\4)?/g,
            (whole, quote, rel, path) => {
              const target = local(rel);
              if (!target) return whole;
              const copy = workers.get(target) ?? hashedCopy(site, target);
              found.push(copy);
              let fromBundle = toUrlPath(relative(site.outdir, copy));
              if (!fromBundle.startsWith('.')) fromBundle = `./${fromBundle}`;
              const inDist = path ? `, ${JSON.stringify(toUrlPath(relative(site.dist, copy)))}` : '';
              return `new URL(${JSON.stringify(fromBundle)}, import.meta.url)${inDist}`;
            },
          );
        assetsOf.set(args.path, [...(assetsOf.get(args.path) ?? []), ...found]);
        return { contents, loader: 'js' };
      });
    },
  });
  return { plugin, assetsOf, workers };
}

/** esbuild's options for every build of this site. */
function buildOptions(site, urls) {
  return {
    bundle: true,
    format: 'esm',
    minify: site.minify,
    target: 'es2022',
    outdir: site.outdir,
    outbase: site.dist,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    plugins: [urls.plugin()],
  };
}

/** Each script named by a URL (workers, modules loaded on demand), bundled alone (one file each); in urls.workers. */
async function buildWorkers(site, urls, entries) {
  const scripts = scriptsByUrl(site.dist, entries);
  if (!scripts.length) return;
  const built = await esbuild.build({ ...buildOptions(site, urls), splitting: false, entryPoints: scripts });
  for (const [out, meta] of Object.entries(built.metafile.outputs)) {
    if (meta.entryPoint) urls.workers.set(resolve(meta.entryPoint), resolve(out));
  }
}

/**
 * The pages' entries, one file each: for pages showing their widgets (sheets joined), and the loaders of the pages that
 * pick their widget at run time, each with the figures' own bundles in place of lib/embed-files.js (embedFiles).
 */
async function buildEntries(site, urls, entries, oneFile) {
  const outputs = {};
  const build = async (options) =>
    Object.assign(outputs, (await esbuild.build({ ...buildOptions(site, urls), ...options })).metafile.outputs);
  const pages = [...entries].filter((e) => oneFile.has(e));
  const loaders = [...entries].filter((e) => !oneFile.has(e));
  if (pages.length) await build({ splitting: false, entryPoints: pages });
  if (loaders.length) {
    const plugins = [await embedFiles(site, urls), urls.plugin()].filter(Boolean);
    const built = await esbuild.build({ ...buildOptions(site, urls), splitting: false, entryPoints: loaders, plugins });
    Object.assign(outputs, built.metafile.outputs);
    // every embed loads its loader before its figure's file: packed as that file is
    if (site.minify) {
      for (const out of Object.keys(built.metafile.outputs)) if (out.endsWith('.js')) await packFurther(resolve(out));
    }
  }
  return outputs;
}

/** The embed's map in the sources (lib/embed-files.js) and what shows a figure (lib/embed-figure.js). */
const EMBED_FILES = join('lib', 'embed-files.js');
const EMBED_FIGURE = join('lib', 'embed-figure.js');

/**
 * Each figure's own embed bundle, js/embed-<name>-<hash>.js (figureEntry: its element, its engine's glue and
 * showEmbed), one esbuild build per figure, so each holds every module it needs, tree-shaken for that figure alone, and
 * no other figure's: gzip packs one file better than ten (issue 30). Returns the esbuild plugin giving the loader
 * (embed.js) the built site's lib/embed-files.js: each figure's bundle and engine wasm under their hashed names; null
 * when the site has no figure list (widgets/index.js) or nothing to show one (lib/embed-figure.js).
 */
async function embedFiles(site, urls) {
  const index = join(site.dist, 'widgets', 'index.js');
  if (!existsSync(index) || !existsSync(join(site.dist, EMBED_FIGURE))) return null;
  const { FIGURES, filesOf } = await import(`data:text/javascript,${encodeURIComponent(readFileSync(index, 'utf8'))}`);
  const files = {};
  const pageSheet = join(site.dist, 'css', 'embed.css'); // its rules for every figure: each file holds its own only
  const sharedSheet = join(site.dist, 'css', 'widget.css'); // the rules its code can meet (scripts/used-rules.mjs)
  const lazyWords = new Set([...urls.workers.values()].flatMap((out) => [...wordsOf(readFileSync(out, 'utf8'))]));
  for (const figure of FIGURES) {
    const sourcefile = `embed-${figure.name}.js`;
    const options = (rewrite) => ({
      ...buildOptions(site, urls),
      splitting: true, // what it loads by import() (the figures' engine, asked rarely) stays a file of its own
      plugins: [urls.plugin({ rewrite })],
      entryNames: `embed-${figure.name}-[hash]`,
      stdin: { contents: figureEntry(figure, filesOf), resolveDir: site.dist, sourcefile },
    });
    // its code's words, from a build with every sheet empty (not written), and those of the code any figure loads on
    // demand (urls.workers: export, a panel opened, the moves)
    const draft = await esbuild.build({ ...options(() => ''), write: false });
    const has = (name) => words.has(name) || lazyWords.has(name);
    const words = new Set(draft.outputFiles.filter((f) => f.path.endsWith('.js')).flatMap((f) => [...wordsOf(f.text)]));
    const built = await esbuild.build(
      options((file, css) =>
        file === pageSheet ? embedCss(css, [figure]) : file === sharedSheet ? usedRules(css, has) : css,
      ),
    );
    const [out, meta] = Object.entries(built.metafile.outputs).find(
      ([, m]) => m.entryPoint && resolve(m.entryPoint) === join(site.dist, sourcefile),
    );
    if (site.minify) await packFurther(resolve(out));
    const split = meta.imports.filter((i) => i.kind === 'import-statement').map((i) => basename(i.path));
    // e.g. a module it imports statically that an import() of it also loads: esbuild makes that a chunk of its own
    if (split.length) console.warn(`bundle: the ${figure.name} embed loads ${split.join(', ')} too (one file meant)`);
    const wasm = hashedCopy(site, join(site.dist, 'wasm', `${figure.engine}.wasm`));
    files[figure.name] = [resolve(out), wasm].map((file) => toUrlPath(relative(site.outdir, file)));
  }
  const contents =
    "// Written by scripts/bundle.mjs: each figure's bundle and engine wasm (lib/embed-files.js's sources).\n" +
    'const at = (file) => new URL(file, import.meta.url).href;\n' +
    `const FILES = ${JSON.stringify(files)};\n` +
    'export const EMBED_FILES = Object.fromEntries(\n' +
    '  Object.entries(FILES).map(([name, [code, wasm]]) => [name, [() => import(at(code)), () => at(wasm)]]),\n' +
    ');\n';
  const source = join(site.dist, EMBED_FILES);
  return {
    name: 'embed-files',
    setup(build) {
      build.onLoad({ filter: /embed-files\.js$/ }, (args) =>
        resolve(args.path) === source ? { contents, loader: 'js' } : undefined,
      );
    },
  };
}

/**
 * A figure's embed file (or the embed's loader) minified again, by terser, after esbuild: expressions folded and names
 * packed further than esbuild does, 0.4-0.8 KB gzip -9 off each figure embedded alone (issue 29), the same code. Only
 * the files the embed loads first, which carry the figures' byte budget; the pages' bundles and the code loaded on
 * demand stay esbuild's. The name keeps esbuild's hash: terser (an exact version) makes one text of one input.
 */
async function packFurther(file) {
  const { code } = await terse(readFileSync(file, 'utf8'), { ecma: 2022, module: true });
  writeFileSync(file, `${code}\n`);
}

/**
 * A figure's embed entry (its source, from dist/): its element and its engine's glue (wasm/<engine>.mjs), imported
 * statically, and showEmbed (lib/embed-figure.js) with that glue and the module's name given: what the loader calls.
 */
const figureEntry = (figure, filesOf) =>
  `import './${toUrlPath(join('widgets', filesOf(figure).module))}';\n` +
  `import glue from './wasm/${figure.engine}.mjs';\n` +
  `import { showEmbed as show } from './${toUrlPath(EMBED_FIGURE)}';\n` +
  '// not `import * as`: a namespace object would need a helper that esbuild shares with the lazy chunks, a file more\n' +
  'export const showEmbed = (name, wasm, compiling) =>\n' +
  `  show(name, wasm, compiling, [${JSON.stringify(figure.engine)}, async () => ({ default: glue })]);\n`;

/**
 * The chunk graph: output (absolute) -> { source: the module it was built for (an entry or an import() target),
 * imports: chunks it imports statically, lazy: chunks it import()s, assets: hashed files its code loads }.
 */
function chunkGraph(outputs, assetsOf) {
  const chunks = new Map();
  for (const [out, meta] of Object.entries(outputs)) {
    if (!out.endsWith('.js')) continue;
    const text = readFileSync(resolve(out), 'utf8'); // an asset counts only if its URL survived tree shaking
    const assets = new Set();
    for (const input of Object.keys(meta.inputs)) {
      for (const a of assetsOf.get(resolve(input)) ?? []) if (text.includes(basename(a))) assets.add(a);
    }
    const of = (kind) => meta.imports.filter((i) => i.kind === kind && !i.external).map((i) => resolve(i.path));
    chunks.set(resolve(out), {
      source: meta.entryPoint && resolve(meta.entryPoint),
      imports: of('import-statement'),
      lazy: of('dynamic-import'),
      assets,
    });
  }
  return chunks;
}

/** `out` and every chunk it imports statically, at any depth, in the order the browser meets them. */
function closure(chunks, out, into = new Set()) {
  if (!into.has(out)) {
    into.add(out);
    for (const dep of chunks.get(out)?.imports ?? []) closure(chunks, dep, into);
  }
  return into;
}

/** entry (absolute) -> { bundle (absolute), assets: hashed files its chunks load, lazy: the import() chunks it can reach }. */
function entryBundles(entries, chunks) {
  const bySource = new Map([...chunks].filter(([, c]) => c.source).map(([out, c]) => [c.source, out]));
  const bundles = new Map();
  for (const entry of entries) {
    const lazy = new Set();
    const assets = new Set();
    const reach = (chunk) => {
      for (const c of closure(chunks, chunk)) {
        for (const a of chunks.get(c).assets) assets.add(a);
        for (const l of chunks.get(c).lazy)
          if (!lazy.has(l)) {
            lazy.add(l);
            reach(l);
          }
      }
    };
    const out = bySource.get(entry);
    reach(out);
    bundles.set(entry, { bundle: out, assets, lazy });
  }
  return bundles;
}

/** A page: module scripts -> their bundles, other local links -> hashed copies, plus the preloads. */
function rewritePage(site, page, bundles, chunks) {
  const file = join(site.dist, page);
  const scripts = [];
  let html = readFileSync(file, 'utf8').replace(MODULE_SCRIPT, (tag, src) => {
    const built = isLocal(src) && bundles.get(resolve(site.dist, src));
    if (!built) return tag;
    scripts.push(built);
    return tag.replace(`src="${src}"`, `src="${toUrlPath(relative(site.dist, built.bundle))}"`);
  });
  html = html.replace(/<link\b[^>]*\bhref="([^"]+)"[^>]*>/g, (tag, href) => {
    const target = resolve(site.dist, href);
    if (!isLocal(href) || href.endsWith('.html') || !existsSync(target) || !tag.match(/\brel="(stylesheet|icon)"/))
      return tag;
    return tag.replace(`href="${href}"`, `href="${toUrlPath(relative(site.dist, hashedCopy(site, target)))}"`);
  });
  if (site.minify) html = withoutComments(html);
  const links = preloads(site, html, scripts, chunks);
  if (links.length) {
    html = html.replace(
      /(\n\s*)(<script\b[^>]*\btype="module")/,
      (m, indent, tag) => `${indent}${links.join(indent)}${indent}${tag}`,
    );
  }
  writeFileSync(file, html);
}

/**
 * The preload links of a page whose module scripts are `scripts` (their bundles): the chunks it runs at once (its
 * scripts' static imports, the engine's glue, and the chunks every widget its scripts can load needs: the page picks
 * one at run time), and the wasm and stylesheets those load that the page does not link itself.
 */
function preloads(site, html, scripts, chunks) {
  const lazy = new Set(scripts.flatMap((s) => [...s.lazy]));
  const widgets = [...lazy].filter((out) => chunks.get(out).source?.startsWith(join(site.dist, 'widgets') + sep));
  const start = new Set(scripts.flatMap((s) => [...closure(chunks, s.bundle)]));
  const figures = new Set(
    widgets.length
      ? widgets.map((out) => closure(chunks, out)).reduce((a, b) => new Set([...a].filter((x) => b.has(x))))
      : [],
  );
  const assets = new Set(
    [...start, ...figures].flatMap((out) => [...chunks.get(out).assets]).filter((a) => /\.(wasm|css)$/.test(a)),
  );
  for (const linked of html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g))
    assets.delete(resolve(site.dist, linked[1]));
  // A page that runs its widget's own engine (<html data-engine="widget">: embed.html, whose script picks the widget
  // and starts that engine's download at once, lib/widget-engines.js) gets no engine preloaded, nor the figures' one.
  if (/<html\b[^>]*\bdata-engine="widget"/.test(html))
    for (const a of assets) if (a.endsWith('.wasm')) assets.delete(a);
  for (const out of lazy) {
    // an engine's glue goes with its wasm: wasm/<name>.mjs with wasm/<name>.wasm
    const glue = chunks.get(out).source;
    const wasm = glue?.endsWith('.mjs') && site.hashed.get(`${glue.slice(0, -4)}.wasm`);
    if (wasm && assets.has(wasm)) closure(chunks, out, start);
  }
  const needed = new Set([...start, ...figures]);
  for (const s of scripts) needed.delete(s.bundle); // its <script> tag loads it
  const path = (a) => toUrlPath(relative(site.dist, a));
  return [
    ...[...assets].map((a) =>
      a.endsWith('.css')
        ? `<link rel="preload" href="${path(a)}" as="style">`
        : `<link rel="preload" href="${path(a)}" as="fetch" type="application/wasm" crossorigin>`,
    ),
    ...[...needed].map((out) => `<link rel="modulepreload" href="${path(out)}">`),
  ];
}

/**
 * The page without its HTML comments: notes for whoever reads the source, which every reader downloaded (embed.html's
 * were a third of its gzip bytes: issue 30). Kept inside <script>, <style>, <pre> and <textarea>, whose text they are.
 */
export function withoutComments(html) {
  return html.replace(/(<(script|style|pre|textarea)\b[\s\S]*?<\/\2>)|<!--[\s\S]*?-->/gi, (whole, kept) => kept ?? '');
}

/**
 * Every local classic script the pages load (<script src> without type="module": the file:// watch, which no bundler
 * touches) minified in place under its own name (pages and scripts name it so), but one marked data-keep-source: a
 * script a page also shows as text for readers to copy (the guide's embed-size.js).
 */
function minifyClassicScripts(site, pages) {
  const done = new Set();
  for (const page of pages) {
    const html = readFileSync(join(site.dist, page), 'utf8');
    for (const [tag, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) {
      const file = resolve(site.dist, src);
      if (/\btype="module"/.test(tag) || /\bdata-keep-source\b/.test(tag) || !isLocal(src) || done.has(file)) continue;
      if (!existsSync(file) || !src.endsWith('.js')) continue;
      done.add(file);
      writeFileSync(file, esbuild.transformSync(readFileSync(file, 'utf8'), { minify: true }).code);
    }
  }
}

/** Each entry's own path now re-exports its bundle: one stable name for pages that cannot know the hash. */
function writeStableNames(bundles) {
  for (const [entry, { bundle: built }] of bundles) {
    let rel = toUrlPath(relative(dirname(entry), built));
    if (!rel.startsWith('.')) rel = `./${rel}`;
    writeFileSync(
      entry,
      `// A stable name for ${basename(built)} (the production bundle); pages load the bundle itself.\nexport * from '${rel}';\n`,
    );
  }
}

/**
 * The scripts the sources in lib/ and widgets/ and the pages' `entries` name by `new URL('….js', import.meta.url)`
 * (absolute paths): the Web Workers' and the modules loaded on demand.
 */
function scriptsByUrl(dist, entries = []) {
  const found = new Set();
  for (const file of [...sourcesIn(dist), ...entries]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new URL\((['"])([^'"]+\.m?js)\1,\s*import\.meta\.url\)/g)) {
      const target = resolve(dirname(file), m[2]);
      if (isLocal(m[2]) && existsSync(target)) found.add(target);
    }
  }
  return [...found].sort();
}

/** Every .js/.mjs source under dist's lib/ and widgets/ (absolute). */
function sourcesIn(dist) {
  return ['lib', 'widgets']
    .map((d) => join(dist, d))
    .filter((d) => existsSync(d))
    .flatMap((dir) =>
      readdirSync(dir, { recursive: true })
        .filter((n) => /\.m?js$/.test(n))
        .map((n) => join(dir, n)),
    );
}

/** A widget's tag in a page's HTML. */
const WIDGET_TAG = /<parascope-[a-z]/;

/** The page without its <pre>, <code> and <script> text (a tag written there as an example is not shown). */
function withoutCode(html) {
  return html.replace(/<(pre|code|script|noscript)\b[\s\S]*?<\/\1>/g, '');
}

/** A relative link to a file of this site (not a URL with a scheme, not root- or fragment-relative). */
function isLocal(link) {
  return !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('/') && !link.startsWith('#') && !link.startsWith('?');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url));
  const { pages, bundles } = await bundle(dist);
  const names = readdirSync(join(dist, 'js')).filter((f) => f.endsWith('.js'));
  console.log(
    `bundle: ${pages.length} page(s), ${bundles.size} entries: ${[...bundles.values()].map((b) => basename(b.bundle)).join(', ')}; ${names.length} files in js/`,
  );
}
