#!/usr/bin/env node
// The production build of dist/: every page (web/*.html) gets one esbuild bundle per module script and content-hashed
// file names for everything it loads, so scripts/serve.mjs can let browsers keep those files for a year.
//
// Run by scripts/build after it has copied web/ and the engine into dist/. What it does, in dist/:
// - The entry list is the pages themselves: each `<script type="module" src="…">` of each top-level *.html page is an
//   entry. A new page (or a new entry script) is bundled with no edit here.
// - Each entry becomes js/<name>-<hash>.js, one module with everything it imports (no shared chunks: a page makes one
//   script request). Every `new URL('…', import.meta.url)` in the bundled sources (the widget stylesheets, the wasm) is
//   pointed at the hashed copy of that file, relative to the bundle.
// - Stylesheets (css/*.css, minified), the engine (wasm/*.wasm) and whatever else a page links get a hashed copy
//   (<name>-<hash>.<ext>); the page is rewritten to load the hashed names, and gets a <link rel="preload"> for each
//   wasm and stylesheet its bundle loads (the engine, the widgets' shadow-root sheet) that it does not link itself, so
//   those downloads start while the page is still parsing, not when the script gets to them.
// - A Web Worker's script (lib/*-worker.js) is bundled the same way as an entry of its own, and the
//   `new URL('…-worker.js', import.meta.url)` that starts it is pointed at that bundle.
// - PARASCOPE_NO_MINIFY=1 keeps names and layout (for readable profiles: tests/bench/profile.mjs, trace.mjs).
// - The unhashed files stay beside them: dist/<entry> becomes a one-line module re-exporting its bundle (a stable
//   name for the test pages), and lib/, widgets/, wasm/parascope.mjs remain for node tests that import them.
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
    splitting: false,
    minify,
    target: 'es2022',
    outdir,
    outbase: dist,
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    plugins: [assetUrls],
  };
  const libDir = join(dist, 'lib');
  const workerScripts = existsSync(libDir)
    ? readdirSync(libDir).filter((f) => f.endsWith('-worker.js')).map((f) => join(libDir, f)) : [];
  if (workerScripts.length) {
    const built = await esbuild.build({ ...options, entryPoints: workerScripts });
    for (const [out, meta] of Object.entries(built.metafile.outputs)) {
      if (meta.entryPoint) workers.set(resolve(meta.entryPoint), resolve(out));
    }
  }
  const result = await esbuild.build({ ...options, entryPoints: [...entries] });

  // entry (absolute) -> { bundle (absolute), assets: hashed files its sources load }
  const bundles = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const assets = new Set();
    const text = readFileSync(resolve(out), 'utf8'); // an asset counts only if its URL survived tree shaking
    for (const input of Object.keys(meta.inputs)) {
      for (const a of assetsOf.get(resolve(input)) ?? []) if (text.includes(basename(a))) assets.add(a);
    }
    bundles.set(resolve(meta.entryPoint), { bundle: resolve(out), assets });
  }

  // Pages: module scripts -> their bundles, other local links -> hashed copies, plus a preload for the wasm.
  for (const page of pages) {
    const file = join(dist, page);
    const preloads = new Set();
    let html = readFileSync(file, 'utf8').replace(moduleScript, (tag, src) => {
      const built = isLocal(src) && bundles.get(resolve(dist, src));
      if (!built) return tag;
      for (const asset of built.assets) if (/\.(wasm|css)$/.test(asset)) preloads.add(asset);
      return tag.replace(`src="${src}"`, `src="${toUrlPath(relative(dist, built.bundle))}"`);
    });
    html = html.replace(/<link\b[^>]*\bhref="([^"]+)"[^>]*>/g, (tag, href) => {
      const target = resolve(dist, href);
      if (!isLocal(href) || href.endsWith('.html') || !existsSync(target) || !tag.match(/\brel="(stylesheet|icon)"/)) return tag;
      return tag.replace(`href="${href}"`, `href="${toUrlPath(relative(dist, hashedCopy(target)))}"`);
    });
    for (const linked of html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)) preloads.delete(resolve(dist, linked[1]));
    if (preloads.size) {
      const links = [...preloads].map((file) => file.endsWith('.css')
        ? `<link rel="preload" href="${toUrlPath(relative(dist, file))}" as="style">`
        : `<link rel="preload" href="${toUrlPath(relative(dist, file))}" as="fetch" type="application/wasm" crossorigin>`);
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

/** A relative link to a file of this site (not a URL with a scheme, not root- or fragment-relative). */
function isLocal(link) {
  return !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('/') && !link.startsWith('#') && !link.startsWith('?');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url));
  const { pages, bundles } = await bundle(dist);
  console.log(`bundle: ${pages.length} page(s), ${bundles.size} bundle(s): ${[...bundles.values()].map((b) => basename(b.bundle)).join(', ')}`);
}
