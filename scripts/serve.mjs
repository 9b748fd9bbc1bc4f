#!/usr/bin/env node
// Serves dist/ on http://127.0.0.1:8080 (PORT overrides) with a strict Content-Security-Policy: nothing leaves the origin.
// GET and HEAD only; no request, however malformed, can stop it, redirect off the origin or reach outside dist/.
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The policy the site must run under: scripts and styles from the origin only, wasm allowed, no inline code. Framing
 * is limited to the site itself, except for the iframe route (EMBED_CONTENT_SECURITY_POLICY).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * embed.html, the iframe route, is made to be framed by other sites (blogs that allow no scripts but do allow an
 * iframe): any origin may frame it. It shows one figure and takes no input beyond its own controls, so being framed
 * exposes nothing; every other page stays frameable by the site itself only.
 */
export const EMBED_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", 'frame-ancestors *');
const FRAMEABLE = new Set(['embed.html']);

const BASE_HEADERS = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' };

/** A content-hashed name from scripts/bundle.mjs (<name>-<8 base32 characters>.<ext>): its bytes never change. */
const HASHED_NAME = /-[A-Z2-7]{8}\.[a-z0-9]+$/;

/**
 * How long a browser may keep a file: a hashed name for a year without asking again (a new build has new names);
 * pages (HTML) and every other name must be revalidated on each use (a 304 when unchanged), so a new build shows at once.
 */
export function cacheControl(name) {
  return HASHED_NAME.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The request target's path as a list of decoded segments, or null when it cannot name a file under the root:
 * undecodable escapes, NUL, a "." or ".." segment, separators hidden in a segment (%2F, %5C), or a target that is
 * not origin-form ("/path"), such as "http://host/…" or "*".
 */
export function pathSegments(target) {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//')) return null;
  const raw = target.split(/[?#]/, 1)[0];
  const segments = [];
  for (const part of raw.split('/').slice(1)) {
    let name;
    try {
      name = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (name === '.' || name === '..' || /[\/\0\\]/.test(name)) return null;
    segments.push(name);
  }
  return segments;
}

/** The test pages (web/tests): not part of dist/, served under /tests/ only when `serve({ testPages: TEST_PAGES })`. */
export const TEST_PAGES = fileURLToPath(new URL('../web/tests/', import.meta.url));

/**
 * Answers one request from `roots.site` (a real path), or from `roots.tests` for /tests/… when set; never throws.
 * Only GET and HEAD are served.
 */
async function answer(req, res, roots) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...BASE_HEADERS, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('method not allowed');
    return;
  }
  const segments = pathSegments(req.url);
  if (segments === null) {
    res.writeHead(400, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('bad request');
    return;
  }
  const wantsDirectory = segments.length === 0 || segments.at(-1) === '';
  let named = segments.filter((s) => s !== '');
  let root = roots.site;
  if (roots.tests && named[0] === 'tests' && named.length > 1) {
    root = roots.tests;
    named = named.slice(1);
  }
  const file = join(root, ...named, ...(wantsDirectory ? ['index.html'] : []));
  try {
    const real = await realpath(file);  // symlinks are followed only when they stay inside the root
    if (real !== root && !real.startsWith(root + sep)) throw new Error('outside the root');
    const info = await stat(real);
    if (info.isDirectory()) {
      // The redirect is rebuilt from the checked segments, so it always stays on this origin ("/a/b/").
      const location = `/${segments.filter((s) => s !== '').map(encodeURIComponent).join('/')}/`;
      res.writeHead(301, { ...BASE_HEADERS, Location: location }).end();
      return;
    }
    const caching = { 'Cache-Control': cacheControl(real), ETag: `W/"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"` };
    const frameable = real.startsWith(roots.site + sep) && FRAMEABLE.has(real.slice(roots.site.length + 1));
    // A 304 replaces the stored response's headers: it must carry the same policy as the 200, or a reload unframes it.
    const policy = frameable ? { 'Content-Security-Policy': EMBED_CONTENT_SECURITY_POLICY } : {};
    if (req.headers['if-none-match'] === caching.ETag) {
      res.writeHead(304, { ...BASE_HEADERS, ...caching, ...policy }).end();
      return;
    }
    const body = await readFile(real);
    res.writeHead(200, {
      ...BASE_HEADERS,
      ...caching,
      ...policy,
      'Content-Type': TYPES[extname(real)] ?? 'application/octet-stream',
      'Content-Length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
  }
}

/**
 * Starts a static server for `root`; resolves to { server, url }. Port 0 picks a free port (for tests).
 * `testPages`: a folder served at /tests/ in place of dist's (the browser tests pass TEST_PAGES).
 */
export async function serve({ root = fileURLToPath(new URL('../dist/', import.meta.url)), port = 8080, host = '127.0.0.1', testPages = null } = {}) {
  const roots = { site: await realpath(root), tests: testPages ? await realpath(testPages) : null };
  const server = createServer((req, res) => {
    answer(req, res, roots).catch(() => {
      if (!res.headersSent) res.writeHead(500, BASE_HEADERS);
      res.end();
    });
  });
  // A request node cannot even parse gets a 400 and a closed socket; the server keeps running.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await serve({ port });
  console.log(`parascope: serving dist/ at ${url}  (Ctrl-C stops)`);
  process.on('SIGINT', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}
