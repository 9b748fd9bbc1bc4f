// Child processes that must not outlive the tests: each runs in its own process group, killed on stop or on exit.
import { spawn } from 'node:child_process';

const live = new Set();

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch { /* already gone */ }
}

process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of live) killGroup(child, 'SIGKILL');
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

/** spawn() in a new process group that is killed when this process exits. */
export function spawnGroup(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

/** Ends a child started by spawnGroup and everything it started; resolves when the child has exited. */
export function stopGroup(child, { grace = 3000 } = {}) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    if (child.pid !== undefined) killGroup(child, 'SIGKILL');  // stragglers left in the group
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), grace);
    child.once('exit', () => {
      clearTimeout(timer);
      killGroup(child, 'SIGKILL');
      resolve();
    });
    killGroup(child, 'SIGTERM');
  });
}
