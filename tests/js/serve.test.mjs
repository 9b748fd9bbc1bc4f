// The development server (scripts/serve.mjs) under hostile requests: it never exits, never redirects off the origin,
// serves GET and HEAD only, and nothing outside its root, symlinks included.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { CONTENT_SECURITY_POLICY, EMBED_CONTENT_SECURITY_POLICY, cacheControl, pathSegments, serve } from '../../scripts/serve.mjs';

let site;
let root;
let outside;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'parascope-serve-'));
  outside = await mkdtemp(join(tmpdir(), 'parascope-outside-'));
  await writeFile(join(root, 'index.html'), '<p>home</p>');
  await writeFile(join(root, 'embed.html'), '<p>embed</p>');
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
    socket.setTimeout(5000, () => socket.destroy());  // a server that died or hangs answers status 0
    socket.on('data', (chunk) => { data += chunk; });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
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
  const again = await raw(`GET /index.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${first.headers.etag}\r\nConnection: close\r\n\r\n`);
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
  const stale = await raw('GET /index.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: W/"nope"\r\nConnection: close\r\n\r\n');
  assert.equal(stale.status, 200);
});

test('the iframe route keeps its frame-ancestors policy on a 304, so a reload still frames it', async () => {
  const first = await get('/embed.html');
  assert.equal(first.headers['content-security-policy'], EMBED_CONTENT_SECURITY_POLICY);
  const again = await raw(`GET /embed.html HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${first.headers.etag}\r\nConnection: close\r\n\r\n`);
  assert.equal(again.status, 304);
  assert.equal(again.headers['content-security-policy'], EMBED_CONTENT_SECURITY_POLICY);
  assert.match(again.headers['content-security-policy'], /frame-ancestors \*/);
});
