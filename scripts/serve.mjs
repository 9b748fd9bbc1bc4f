#!/usr/bin/env node
// Serves dist/ on http://127.0.0.1:8080 (PORT overrides) with a strict Content-Security-Policy: nothing leaves the origin.
// GET and HEAD only; no request, however malformed, can stop it, redirect off the origin or reach outside dist/.
import { createServer } from 'node:http';
import { realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { answerClientError } from './serve/client-error.mjs';
import { notModified } from './serve/conditional.mjs';
import { applyLimits, limitsOf, serverOptions } from './serve/limits.mjs';
import { fileErrorStatus, openForServing } from './serve/open-file.mjs';

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
export const EMBED_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "frame-ancestors 'self'",
  'frame-ancestors *',
);
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

/** The headers of a file's 200 and of its 304, the same security headers on both (RFC 9110 §15.4.5). */
function fileHeaders(real, info, roots) {
  const frameable = real.startsWith(roots.site + sep) && FRAMEABLE.has(real.slice(roots.site.length + 1));
  return {
    ...BASE_HEADERS,
    ...(frameable ? { 'Content-Security-Policy': EMBED_CONTENT_SECURITY_POLICY } : {}),
    'Cache-Control': cacheControl(real),
    ETag: `W/"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
  };
}

/** A short plain-text answer with the security headers. */
function plain(res, status, text, extra = {}) {
  res.writeHead(status, { ...BASE_HEADERS, ...extra, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

/** Where a request may be answered from: the real path of a file under the root, or null for a 400. */
function requestedFile(req, roots) {
  const segments = pathSegments(req.url);
  if (segments === null) return null;
  const wantsDirectory = segments.length === 0 || segments.at(-1) === '';
  let named = segments.filter((s) => s !== '');
  let root = roots.site;
  if (roots.tests && named[0] === 'tests' && named.length > 1) {
    root = roots.tests;
    named = named.slice(1);
  }
  return { root, named, file: join(root, ...named, ...(wantsDirectory ? ['index.html'] : [])) };
}

/** The real path of `file`, refused (as a miss) when a symlink leads outside `root`. */
async function realInside(file, root) {
  const real = await realpath(file);
  if (real !== root && !real.startsWith(root + sep))
    throw Object.assign(new Error('outside the root'), { outsideRoot: true });
  return real;
}

/**
 * Answers one request from `roots.site` (a real path), or from `roots.tests` for /tests/… when set; never throws.
 * Only GET and HEAD are served, and only regular files (a FIFO or a device is a 404, never opened to block).
 */
async function answer(req, res, roots) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return plain(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
  const wanted = requestedFile(req, roots);
  if (wanted === null) return plain(res, 400, 'bad request');
  let handle = null;
  try {
    const real = await realInside(wanted.file, wanted.root);
    const opened = await openForServing(real);
    handle = opened.handle;
    if (opened.info.isDirectory()) {
      // The redirect is rebuilt from the checked segments, so it always stays on this origin ("/a/b/").
      const location = `/${wanted.named.map(encodeURIComponent).join('/')}/`;
      return void res.writeHead(301, { ...BASE_HEADERS, Location: location }).end();
    }
    if (!opened.info.isFile()) return plain(res, 404, 'not found');
    const headers = fileHeaders(real, opened.info, roots);
    if (notModified(req.headers['if-none-match'], headers.ETag)) return void res.writeHead(304, headers).end();
    const body = await handle.readFile();
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[extname(real)] ?? 'application/octet-stream',
      'Content-Length': body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (err) {
    const status = fileErrorStatus(err);
    plain(
      res,
      status,
      status === 404 ? 'not found' : 'the server could not read the file',
      status === 503 ? { 'Retry-After': '1' } : {},
    );
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Starts a static server for `root`; resolves to { server, url }. Port 0 picks a free port (for tests).
 * `testPages`: a folder served at /tests/ in place of dist's (the browser tests pass TEST_PAGES). `limits`:
 * { cap, timeouts } in place of scripts/serve/limits.mjs's (the tests shorten the timeouts).
 */
export async function serve({
  root = fileURLToPath(new URL('../dist/', import.meta.url)),
  port = 8080,
  host = '127.0.0.1',
  testPages = null,
  limits = {},
} = {}) {
  const roots = { site: await realpath(root), tests: testPages ? await realpath(testPages) : null };
  const limited = limitsOf(limits);
  const server = createServer(serverOptions(limited), (req, res) => {
    answer(req, res, roots).catch(() => {
      if (!res.headersSent) res.writeHead(500, BASE_HEADERS);
      res.end();
    });
  });
  // A request node cannot even parse (or that timed out) gets its status, the security headers and a destroyed socket.
  server.on('clientError', (err, socket) => answerClientError(err, socket, BASE_HEADERS));
  applyLimits(server, limited);
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
