// Where the package's files (the engine's wasm, the planner's worker, the code loaded on demand) are fetched from:
// each URL as written beside its module, which bundlers copy and rewrite (Vite, webpack), unless the page called
// setAssetBase() (a host that moved the files, or a bundler that copies none of them: esbuild). One base per page,
// however many copies of this module the page runs.
const KEY = Symbol.for('parascope.assetBase');

/**
 * Makes every asset load from `base` (a URL or a path, resolved against the page: the folder that holds the package's
 * dist/ files, e.g. "/parascope/"); null goes back to each file's own place. Call it before the first figure starts.
 */
export function setAssetBase(base) {
  const page = globalThis.document?.baseURI ?? globalThis.location?.href;
  globalThis[KEY] = base == null ? null : new URL(String(base).replace(/\/?$/, '/'), page).href;
}

/**
 * The URL to fetch an asset from: `url` (written as `new URL('…', import.meta.url)` where bundlers see it), or, after
 * setAssetBase, `path` (its place in dist/, which scripts/bundle.mjs writes with its hashed name) under the base.
 */
export function asset(url, path) {
  const base = globalThis[KEY];
  return base && path ? new URL(path, base) : url;
}
