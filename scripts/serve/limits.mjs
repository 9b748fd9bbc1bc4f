// The server's limits on connections and time: slow or silent clients are dropped, and never hold every descriptor.

import { readFileSync } from 'node:fs';

/** Descriptors kept free of connections: for the files being answered, the listening socket and node's own. */
const SPARE_DESCRIPTORS = 64;
const DEFAULT_CAP = 1024;

/** The soft limit on open files of this process (`ulimit -n`), from Linux's /proc/self/limits; null elsewhere. */
export function openFileLimit(text = null) {
  try {
    const limits = text ?? readFileSync('/proc/self/limits', 'latin1');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    return match && match[1] !== 'unlimited' ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * How many connections the server holds at once: 1,024, or fewer when the descriptor limit is lower, so that
 * SPARE_DESCRIPTORS stay free for opening files (with `ulimit -n 256`, 192). Beyond it node closes new connections
 * at once, and an open keep-alive connection still gets its files rather than an EMFILE.
 */
export function connectionCap(limit = openFileLimit()) {
  if (limit === null) return DEFAULT_CAP;
  return Math.max(1, Math.min(DEFAULT_CAP, limit - SPARE_DESCRIPTORS));
}

/**
 * Timeouts in milliseconds: a request's headers must arrive within `headers` (node's headersTimeout: a client that
 * sends a byte a minute is dropped), the whole request within `request`, and a connection with nothing moving either
 * way for `idle` is destroyed (a client that never reads its answer included). `check` is how often node looks.
 */
export const TIMEOUTS = { headers: 10_000, request: 30_000, idle: 30_000, keepAlive: 5_000, check: 1_000 };

/** The limits in force: `given` ({ cap, timeouts }, each part optional) over the defaults. */
export function limitsOf(given = {}) {
  return { cap: given.cap ?? connectionCap(), timeouts: { ...TIMEOUTS, ...given.timeouts } };
}

/** http.createServer's options for these limits: how often node checks the header and request timeouts. */
export function serverOptions({ timeouts }) {
  return { connectionsCheckingInterval: timeouts.check };
}

/** Applies the cap and the timeouts to an http.Server. */
export function applyLimits(server, { cap, timeouts }) {
  server.maxConnections = cap;
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
  server.setTimeout(timeouts.idle, (socket) => socket.destroy());
}
