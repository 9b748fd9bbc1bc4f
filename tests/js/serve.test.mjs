// The development server (scripts/serve.mjs) under hostile requests: it never exits, never redirects off the origin,
// serves GET and HEAD only, and nothing outside its root, symlinks included; slow clients and faults starve nobody.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import {
  CONTENT_SECURITY_POLICY,
  EMBED_CONTENT_SECURITY_POLICY,
  cacheControl,
  pathSegments,
  serve,
} from '../../scripts/serve.mjs';
import { connectionCap, openFileLimit } from '../../scripts/serve/limits.mjs';
import { fileErrorStatus } from '../../scripts/serve/open-file.mjs';
import { eventually, openSilent, serveLimited, settled } from './serve-child.mjs';

let site;
let root;
let outside;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'parascope-serve-'));
  outside = await mkdtemp(join(tmpdir(), 'parascope-outside-'));
  await writeFile(join(root, 'index.html'), '<p>home</p>');
  await writeFile(join(root, 'embed.html'), '<p>embed</p>');
  execFileSync('mkfifo', [join(root, 'fifo.js')]);
  await mkdir(join(root, 'css'));
  await writeFile(join(root, 'css', 'page.css'), 'p{}');
  await writeFile(join(root, 'css', 'page-ABCDEF23.css'), 'p{}');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
  await symlink(outside, join(root, 'leakdir'));
  await symlink(join(root, 'css', 'page.css'), join(root, 'inside.css'));
  site = await serve({ root, port: 0 });
});

after(async () => {
  await new Promise((resolve) => site.server.close(resolve));
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** Sends raw bytes as one HTTP request and resolves to { status, headers, body } (status 0 if nothing came back). */
function raw(request) {
  const { port } = site.server.address();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.setTimeout(5000, () => socket.destroy()); // a server that died or hangs answers status 0
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}
const get = (target, method = 'GET') => raw(`${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

test('malformed request targets are answered with 400 and the server keeps serving', async () => {
  for (const target of ['/%', '/%c0%ae%c0%ae/', 'http://[', 'http://x:99999999/', '*', '/a%00b', '//evil.example/']) {
    const answer = await get(target);
    assert.equal(answer.status, 400, target);
  }
  const home = await get('/');
  assert.equal(home.status, 200);
  assert.match(home.body, /home/);
});

test('a request node cannot parse is refused without stopping the server', async () => {
  const answer = await raw('GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
  assert.equal(answer.status, 400);
  assert.equal((await get('/css/page.css')).status, 200);
});

test('an unparsable request is answered with the status that names its fault, the security headers and a body', async () => {
  const cases = [
    [431, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`],
    [414, `GET /${'a'.repeat(16 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [501, 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n'],
    [400, 'GET / HTTP/1.1\nHost: x\n\n'],
    [400, 'GET /\0 HTTP/1.1\r\nHost: x\r\n\r\n'],
  ];
  for (const [status, request] of cases) {
    const answer = await raw(request);
    const what = `${status}: ${JSON.stringify(request.slice(0, 30))}`;
    assert.equal(answer.status, status, what);
    assert.equal(answer.headers['content-security-policy'], CONTENT_SECURITY_POLICY, what);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff', what);
    assert.notEqual(answer.body, '', what);
  }
});

/** The connections the test server holds now. */
const held = () =>
  new Promise((resolve, reject) => site.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

test('the socket is destroyed after an error answer, even when the client never reads nor closes it', async () => {
  const sockets = await openSilent(site.server.address().port, 50, 'GET / HTTP/1.1\r\nBad Header Line\r\n\r\n');
  try {
    assert.ok(await eventually(async () => (await held()) === 0), `${await held()} connections still held`);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
});

test('clients that send their headers too slowly, or nothing at all, are dropped', async () => {
  const quick = await serve({
    root,
    port: 0,
    limits: { timeouts: { headers: 300, request: 600, idle: 600, check: 100 } },
  });
  const count = () => new Promise((resolve) => quick.server.getConnections((_e, n) => resolve(n)));
  const port = quick.server.address().port;
  const sockets = [...(await openSilent(port, 20)), ...(await openSilent(port, 5, ''))];
  try {
    assert.equal(await count(), 25);
    assert.ok(await eventually(async () => (await count()) === 0, 4000), `${await count()} slow clients still held`);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => quick.server.close(resolve));
  }
});

/** GET `path` through `agent` (keep-alive, one socket): resolves to the status. */
const viaAgent = (url, path, agent) =>
  new Promise((resolve, reject) => {
    httpGet(new URL(path, url), { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });

/**
 * The server in a child limited to 100 descriptors (`limits` its cap): a keep-alive connection gets /index.html, 150
 * silent clients connect, the server takes what it will of them, then the same connection asks for `path`; resolves to
 * that status.
 */
async function afterSilentClients(limits, path) {
  const child = await serveLimited({ root, files: 100, limits });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let sockets = [];
  try {
    assert.equal(await viaAgent(child.url, '/index.html', agent), 200);
    sockets = await openSilent(child.port, 150);
    await settled(child.descriptors);
    return await viaAgent(child.url, path, agent);
  } finally {
    for (const socket of sockets) socket.destroy();
    agent.destroy();
    child.stop();
  }
}

test('slow clients beyond the connection cap cannot starve an open keep-alive connection of descriptors', async () => {
  // Without a cap, 150 silent clients take all 100 descriptors and the open connection's next file is an EMFILE.
  assert.equal(await afterSilentClients({}, '/css/page.css'), 200);
});

test('a file the server cannot open for want of descriptors is a 503, not a 404', async () => {
  // The cap lifted above the descriptor limit: the silent clients take every descriptor, then a file open fails.
  assert.equal(await afterSilentClients({ cap: 10_000 }, '/index.html'), 503);
});

test('a FIFO under the root is not opened to block: a 404, and the server keeps answering', async () => {
  const answers = await Promise.all(Array.from({ length: 6 }, () => get('/fifo.js')));
  for (const answer of answers) assert.equal(answer.status, 404);
  const home = await get('/index.html');
  assert.equal(home.status, 200);
});

test('a directory redirect stays on the origin, whatever the encoded path says', async () => {
  const plain = await get('/css');
  assert.equal(plain.status, 301);
  assert.equal(plain.headers.location, '/css/');
  for (const target of ['/%2Fevil.example%2F..%2Fcss', '/%5Cevil.example%5C..%5Ccss', '/%2e%2e/css', '/css/%2e%2e/']) {
    const answer = await get(target);
    assert.notEqual(answer.status, 301, target);
    assert.equal(answer.headers.location, undefined, target);
  }
});

test('only GET and HEAD are served', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'PATCH']) {
    const answer = await get('/index.html', method);
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.allow, 'GET, HEAD');
    assert.doesNotMatch(answer.body, /home/);
  }
  const head = await get('/index.html', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
});

test('symlinks are followed only inside the root', async () => {
  assert.equal((await get('/leak.txt')).status, 404);
  assert.equal((await get('/leakdir/secret.txt')).status, 404);
  const inside = await get('/inside.css');
  assert.equal(inside.status, 200);
  assert.equal(inside.body, 'p{}');
});

test('every answer carries the policy, which decides who may frame the site', async () => {
  assert.match(CONTENT_SECURITY_POLICY, /frame-ancestors 'self'/);
  for (const target of ['/', '/nope', '/%']) {
    assert.equal((await get(target)).headers['content-security-policy'], CONTENT_SECURITY_POLICY, target);
  }
});

test('pathSegments keeps plain names and refuses what could escape', () => {
  assert.deepEqual(pathSegments('/'), ['']);
  assert.deepEqual(pathSegments('/css/page.css?x=1#y'), ['css', 'page.css']);
  assert.deepEqual(pathSegments('/a%20b/'), ['a b', '']);
  for (const bad of ['/..', '/a/../b', '/%2e%2e', '/a%2Fb', '/a%5Cb', '/%ff%', 'x', '//host/']) {
    assert.equal(pathSegments(bad), null, bad);
  }
});

test('content-hashed files may be kept for a year; pages and other names are revalidated', async () => {
  const hashed = await get('/css/page-ABCDEF23.css');
  assert.equal(hashed.status, 200);
  assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
  for (const target of ['/', '/index.html', '/css/page.css']) {
    assert.equal((await get(target)).headers['cache-control'], 'no-cache', target);
  }
  assert.equal(cacheControl('js/main-4MAME2KC.js'), 'public, max-age=31536000, immutable');
  for (const name of ['parascope-bubble.js', 'main.js', 'wasm/parascope.wasm', 'page-abcdef23.css']) {
    assert.equal(cacheControl(name), 'no-cache', name);
  }
});

test('a revalidation of an unchanged file is answered 304 with no body', async () => {
  const first = await get('/index.html');
  assert.ok(first.headers.etag);
  const again = await raw(
    `GET /index.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${first.headers.etag}\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
  const stale = await raw(
    'GET /index.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: W/"nope"\r\nConnection: close\r\n\r\n',
  );
  assert.equal(stale.status, 200);
});

const ifNoneMatch = (target, value) =>
  raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${value}\r\nConnection: close\r\n\r\n`);

test('If-None-Match is read as RFC 9110 says: "*", a list, and weak comparison', async () => {
  const { etag } = (await get('/index.html')).headers;
  const strong = etag.replace(/^W\//, '');
  for (const value of ['*', ` * `, `"a", ${etag}`, `${etag},"b"`, strong, `W/"zz", ${strong}`]) {
    assert.equal((await ifNoneMatch('/index.html', value)).status, 304, value);
  }
  for (const value of ['"a", "b"', `W/${etag}`, `${strong.slice(0, -1)}x"`, '']) {
    assert.equal((await ifNoneMatch('/index.html', value)).status, 200, value);
  }
  assert.equal((await ifNoneMatch('/nope.html', '*')).status, 404);
});

test('a 304 carries the same security and caching headers as the 200 it stands for', async () => {
  for (const [target, policy] of [
    ['/embed.html', EMBED_CONTENT_SECURITY_POLICY],
    ['/index.html', CONTENT_SECURITY_POLICY],
  ]) {
    const full = await get(target);
    const again = await ifNoneMatch(target, full.headers.etag);
    assert.equal(again.status, 304, target);
    assert.equal(full.headers['content-security-policy'], policy, target);
    for (const name of ['content-security-policy', 'x-content-type-options', 'cache-control', 'etag']) {
      assert.equal(again.headers[name], full.headers[name], `${target} ${name}`);
    }
  }
});

test('the connection cap leaves descriptors for files under any ulimit, and file faults are told from misses', () => {
  assert.equal(
    openFileLimit(
      'Limit  Soft Limit  Hard Limit  Units\nMax open files            256                  4096                 files\n',
    ),
    256,
  );
  assert.equal(openFileLimit('Max open files  unlimited  unlimited  files\n'), null);
  assert.equal(connectionCap(256), 192);
  assert.equal(connectionCap(1_048_576), 1024);
  assert.equal(connectionCap(null), 1024);
  for (const [code, status] of [
    ['ENOENT', 404],
    ['ENOTDIR', 404],
    ['EACCES', 403],
    ['EMFILE', 503],
    ['ENFILE', 503],
    ['EIO', 500],
  ]) {
    assert.equal(fileErrorStatus(Object.assign(new Error(code), { code })), status, code);
  }
});

test('the iframe route keeps its frame-ancestors policy on a 304, so a reload still frames it', async () => {
  const first = await get('/embed.html');
  assert.equal(first.headers['content-security-policy'], EMBED_CONTENT_SECURITY_POLICY);
  const again = await raw(
    `GET /embed.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${first.headers.etag}\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(again.status, 304);
  assert.equal(again.headers['content-security-policy'], EMBED_CONTENT_SECURITY_POLICY);
  assert.match(again.headers['content-security-policy'], /frame-ancestors \*/);
});
