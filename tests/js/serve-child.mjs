// Test helper: the development server in a child process under `ulimit -n`, and sockets that open and never finish.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

/**
 * Starts scripts/serve.mjs's serve({ root, port: 0, limits }) in a child limited to `files` open descriptors;
 * resolves to { url, port, stop, descriptors } (descriptors: how many the child holds open now, from /proc).
 */
export function serveLimited({ root, files, limits = {} }) {
  const script = `import { serve } from ${JSON.stringify(SERVE)};
    const { url } = await serve({ root: ${JSON.stringify(root)}, port: 0, limits: ${JSON.stringify(limits)} });
    console.log(url);`;
  const child = spawn('bash', ['-c', `ulimit -n ${files} && exec node --input-type=module -e "$0"`, script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.once('data', (line) => {
      const url = line.trim();
      const descriptors = () => readdirSync(`/proc/${child.pid}/fd`).length;
      resolve({ url, port: Number(new URL(url).port), stop: () => child.kill('SIGTERM'), descriptors });
    });
  });
}

/** Opens `count` connections to `port` that send `text` (a request begun, never finished) and never read or close. */
export async function openSilent(port, count, text = 'GET / HTTP/1.1\r\nHost: x\r\n') {
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.pause();
    await new Promise((resolve) => socket.once('connect', resolve).once('close', resolve));
    socket.write(text);
    sockets.push(socket);
  }
  return sockets;
}

/** Polls `probe` (an async function) until it returns true or `ms` pass; resolves to its last answer. */
export async function eventually(probe, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves once `count()` has read the same on `polls` polls in a row, 50 ms apart (or `ms` pass): a server in another
 * process accepts connections after the clients' own connect has resolved, and on a loaded machine well after.
 */
export async function settled(count, polls = 4, ms = 5000) {
  let last = -1;
  let same = 0;
  await eventually(() => {
    const now = count();
    same = now === last ? same + 1 : 0;
    last = now;
    return same >= polls;
  }, ms);
}
