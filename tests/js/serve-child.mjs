// Test helper: the development server in a child process under `ulimit -n`, and sockets that open and never finish.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

/**
 * Starts scripts/serve.mjs's serve({ root, port: 0, limits }) in a child limited to `files` open descriptors;
 * resolves to { url, port, stop }.
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
      resolve({ url, port: Number(new URL(url).port), stop: () => child.kill('SIGTERM') });
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
