#!/usr/bin/env node
// The production build of dist/: every page (web/*.html) gets its module scripts bundled by esbuild, split into
// content-hashed chunks, so a page (or the embed) downloads the code of the widgets it shows and no other, and
// scripts/serve.mjs can let browsers keep every file for a year.
//
// Run by scripts/build after it has copied web/ and the engine into dist/. What it does, in dist/:
// - The entry list is the pages themselves: each `<script type="module" src="…">` of each top-level *.html page is an
//   entry. A new page (or a new entry script) is bundled with no edit here.
// - All entries are bundled together with code splitting (esbuild `splitting`, ESM): each entry becomes
//   js/<name>-<hash>.js; each module loaded by a dynamic `import()` (a widget: lib/widget-modules.js; the engine's
//   glue) becomes its own chunk js/<name>-<hash>.js holding that module and what only it uses; code used by more than
//   one of those lives in shared chunks js/chunk-<hash>.js, imported by the chunks that need it. Every
//   `new URL('…', import.meta.url)` in the bundled sources (the widget stylesheets, the wasm) is pointed at the hashed
//   copy of that file, relative to js/ (every chunk lives there, so the URL holds in whichever chunk it lands).
// - Stylesheets (css/*.css, minified), the engine (wasm/*.wasm) and whatever else a page links get a hashed copy
//   (<name>-<hash>.<ext>); the page is rewritten to load the hashed names.
// - Preloads, so nothing waits for a script to be parsed before its download starts: each page gets
//   <link rel="modulepreload"> for every chunk its entry imports (statically, at any depth) and for the chunks of the
//   widgets the page shows (each <parascope-x> tag of the page: the chunk of widgets/parascope-x.js and its imports),
//   in the order the page shows them; a page that shows no widget tag itself (embed.html picks one from its hash)
//   preloads the chunks every one of its widgets needs. A <link rel="preload"> goes to each wasm and stylesheet those
//   chunks load that the page does not link itself, and the engine's glue chunk (wasm/<name>.mjs) is preloaded with
//   its wasm (wasm/<name>.wasm).
// - A Web Worker's script (lib/*-worker.js) is bundled as an entry of its own (one file, no chunks), and the
//   `new URL('…-worker.js', import.meta.url)` that starts it is pointed at that bundle.
// - PARASCOPE_NO_MINIFY=1 keeps names and layout (for readable profiles: tests/bench/profile.mjs, trace.mjs).
// - The unhashed files stay beside them: dist/<entry> becomes a one-line module re-exporting its bundle (a stable
//   name for the test pages and the npm package), and lib/, widgets/, wasm/parascope.mjs remain for node tests that
//   import them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

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
  dist = resolve(dist);
  const hashed = new Map(); // absolute path of an original file -> absolute path of its hashed copy

  /** The hashed copy of `file` (absolute), written on first use; a stylesheet minified (esbuild) on the way. */
  const hashedCopy = (file) => {
    if (!hashed.has(file)) {
      let bytes = readFileSync(file);
      if (file.endsWith('.css') && minify) bytes = Buffer.from(esbuild.transformSync(bytes.toString('utf8'), { loader: 'css', minify }).code);
      const ext = extname(file);
      const copy = join(dirname(file), `${basename(file, ext)}-${hashOf(bytes)}${ext}`);
      writeFileSync(copy, bytes);
      hashed.set(file, copy);
    }
    return hashed.get(file);
  };

  // Pages and their entry scripts.
  const pages = readdirSync(dist).filter((f) => f.endsWith('.html')).sort();
  const moduleScript = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g;
  const entries = new Set();
  for (const page of pages) {
    for (const [, src] of readFileSync(join(dist, page), 'utf8').matchAll(moduleScript)) {
      if (isLocal(src)) entries.add(resolve(dist, src));
    }
  }

  // Every `new URL('relative', import.meta.url)` in a bundled source names a file beside that source: point it at the
  // file's hashed copy, written relative to the bundle's folder (js/).
  const outdir = join(dist, 'js');
  const assetsOf = new Map(); // source file -> hashed assets it refers to
  const workers = new Map(); // a worker script (absolute) -> its bundle
  const assetUrls = {
    name: 'hashed-asset-urls',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const found = [];
        const contents = text.replace(/new URL\((['"])([^'"]+)\1,\s*import\.meta\.url\)/g, (whole, quote, rel) => {
          const target = resolve(dirname(args.path), rel);
          if (!isLocal(rel) || !existsSync(target)) return whole;
          const copy = workers.get(target) ?? hashedCopy(target);
          found.push(copy);
          let fromBundle = toUrlPath(relative(outdir, copy));
          if (!fromBundle.startsWith('.')) fromBundle = `./${fromBundle}`;
          return `new URL(${JSON.stringify(fromBundle)}, import.meta.url)`;
        });
        assetsOf.set(args.path, found);
        return { contents, loader: 'js' };
      });
    },
  };

  const options = {
    bundle: true,
    format: 'esm',
    minify,
    target: 'es2022',
    outdir,
    outbase: dist,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    plugins: [assetUrls],
  };
  const libDir = join(dist, 'lib');
  const workerScripts = existsSync(libDir)
    ? readdirSync(libDir).filter((f) => f.endsWith('-worker.js')).map((f) => join(libDir, f)) : [];
  if (workerScripts.length) {
    const built = await esbuild.build({ ...options, splitting: false, entryPoints: workerScripts });
    for (const [out, meta] of Object.entries(built.metafile.outputs)) {
      if (meta.entryPoint) workers.set(resolve(meta.entryPoint), resolve(out));
    }
  }
  const result = await esbuild.build({ ...options, splitting: true, entryPoints: [...entries] });

  // The chunk graph: output (absolute) -> { source: the module it was built for (an entry or an import() target),
  // imports: chunks it imports statically, lazy: chunks it import()s, assets: hashed files its code loads }.
  const chunks = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    const text = readFileSync(resolve(out), 'utf8'); // an asset counts only if its URL survived tree shaking
    const assets = new Set();
    for (const input of Object.keys(meta.inputs)) {
      for (const a of assetsOf.get(resolve(input)) ?? []) if (text.includes(basename(a))) assets.add(a);
    }
    const of = (kind) => meta.imports.filter((i) => i.kind === kind && !i.external).map((i) => resolve(i.path));
    chunks.set(resolve(out), { source: meta.entryPoint && resolve(meta.entryPoint), imports: of('import-statement'),
      lazy: of('dynamic-import'), assets });
  }
  /** `out` and every chunk it imports statically, at any depth, in the order the browser meets them. */
  const closure = (out, into = new Set()) => {
    if (!into.has(out)) {
      into.add(out);
      for (const dep of chunks.get(out)?.imports ?? []) closure(dep, into);
    }
    return into;
  };
  const bySource = new Map([...chunks].filter(([, c]) => c.source).map(([out, c]) => [c.source, out]));

  // entry (absolute) -> { bundle (absolute), assets: hashed files its chunks load, lazy: the import() chunks it can reach }
  const bundles = new Map();
  for (const entry of entries) {
    const out = bySource.get(entry);
    const lazy = new Set();
    const assets = new Set();
    const reach = (chunk) => {
      for (const c of closure(chunk)) {
        for (const a of chunks.get(c).assets) assets.add(a);
        for (const l of chunks.get(c).lazy) if (!lazy.has(l)) { lazy.add(l); reach(l); }
      }
    };
    reach(out);
    bundles.set(entry, { bundle: out, assets, lazy });
  }

  // Pages: module scripts -> their bundles, other local links -> hashed copies, plus the preloads.
  const widgetTag = /<(parascope-[a-z][a-z0-9-]*)\b/g;
  for (const page of pages) {
    const file = join(dist, page);
    const source = readFileSync(file, 'utf8');
    const scripts = [];
    let html = source.replace(moduleScript, (tag, src) => {
      const built = isLocal(src) && bundles.get(resolve(dist, src));
      if (!built) return tag;
      scripts.push(built);
      return tag.replace(`src="${src}"`, `src="${toUrlPath(relative(dist, built.bundle))}"`);
    });
    html = html.replace(/<link\b[^>]*\bhref="([^"]+)"[^>]*>/g, (tag, href) => {
      const target = resolve(dist, href);
      if (!isLocal(href) || href.endsWith('.html') || !existsSync(target) || !tag.match(/\brel="(stylesheet|icon)"/)) return tag;
      return tag.replace(`href="${href}"`, `href="${toUrlPath(relative(dist, hashedCopy(target)))}"`);
    });
    // The chunks this page runs at once: its scripts' static imports, the engine's glue, then the widgets it shows (in
    // page order), so that with few connections the first figure's code comes first.
    const lazy = new Set(scripts.flatMap((s) => [...s.lazy]));
    const shown = [...new Set([...withoutCode(source).matchAll(widgetTag)].map((m) => m[1]))]
      .map((tag) => bySource.get(join(dist, 'widgets', `${tag}.js`))).filter((out) => out && lazy.has(out));
    const widgets = [...lazy].filter((out) => chunks.get(out).source?.startsWith(join(dist, 'widgets') + sep));
    const start = new Set(scripts.flatMap((s) => [...closure(s.bundle)]));
    const figures = new Set();
    if (shown.length) for (const out of shown) closure(out, figures);
    else if (widgets.length) { // no tag on the page: what every widget it can load needs
      const common = widgets.map((out) => closure(out)).reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
      for (const out of common) figures.add(out);
    }
    const assets = new Set([...start, ...figures].flatMap((out) => [...chunks.get(out).assets]).filter((a) => /\.(wasm|css)$/.test(a)));
    for (const linked of html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)) assets.delete(resolve(dist, linked[1]));
    for (const out of lazy) { // an engine's glue goes with its wasm: wasm/<name>.mjs with wasm/<name>.wasm
      const glue = chunks.get(out).source;
      if (glue?.endsWith('.mjs') && [...assets].some((a) => a.startsWith(`${glue.slice(0, -4)}-`) && a.endsWith('.wasm'))) closure(out, start);
    }
    const needed = new Set([...start, ...figures]);
    for (const s of scripts) needed.delete(s.bundle); // its <script> tag loads it
    const links = [
      ...[...assets].map((a) => a.endsWith('.css')
        ? `<link rel="preload" href="${toUrlPath(relative(dist, a))}" as="style">`
        : `<link rel="preload" href="${toUrlPath(relative(dist, a))}" as="fetch" type="application/wasm" crossorigin>`),
      ...[...needed].map((out) => `<link rel="modulepreload" href="${toUrlPath(relative(dist, out))}">`),
    ];
    if (links.length) {
      html = html.replace(/(\n\s*)(<script\b[^>]*\btype="module")/, (m, indent, tag) => `${indent}${links.join(indent)}${indent}${tag}`);
    }
    writeFileSync(file, html);
  }

  // Each entry's own path now re-exports its bundle: one stable name for pages that cannot know the hash.
  for (const [entry, { bundle: built }] of bundles) {
    let rel = toUrlPath(relative(dirname(entry), built));
    if (!rel.startsWith('.')) rel = `./${rel}`;
    writeFileSync(entry, `// A stable name for ${basename(built)} (the production bundle); pages load the bundle itself.\nexport * from '${rel}';\n`);
  }
  return { pages, bundles };
}

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
  console.log(`bundle: ${pages.length} page(s), ${bundles.size} entries: ${[...bundles.values()].map((b) => basename(b.bundle)).join(', ')}; ${names.length} files in js/`);
}
