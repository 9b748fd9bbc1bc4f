#!/usr/bin/env node
// Serves dist/ on http://127.0.0.1:8080 (PORT overrides) with a strict Content-Security-Policy: nothing leaves the origin.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
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

/** The policy the site must run under: scripts and styles from the origin only, wasm allowed, no inline code. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

/** The test pages (web/tests): not part of dist/, served under /tests/ only when `serve({ testPages: TEST_PAGES })`. */
export const TEST_PAGES = fileURLToPath(new URL('../web/tests/', import.meta.url));

/**
 * Starts a static server for `root`; resolves to { server, url }. Port 0 picks a free port (for tests).
 * `testPages`: a folder served at /tests/ in place of dist's (the browser tests pass TEST_PAGES).
 */
export function serve({ root: siteRoot = fileURLToPath(new URL('../dist/', import.meta.url)), port = 8080, host = '127.0.0.1', testPages = null } = {}) {
  const server = createServer(async (req, res) => {
    const requested = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let path = requested;
    let root = siteRoot;
    if (testPages && path.startsWith('/tests/')) {
      root = testPages;
      path = path.slice('/tests'.length);
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const headers = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' };
    if (!file.startsWith(normalize(root + sep)) && file !== normalize(root)) {
      res.writeHead(403, headers).end('forbidden');
      return;
    }
    try {
      const info = await stat(file);
      if (info.isDirectory()) {
        res.writeHead(301, { ...headers, Location: `${requested}/` }).end();
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
    }
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
