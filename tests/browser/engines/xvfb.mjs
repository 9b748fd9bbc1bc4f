// A private X display for browsers that have no headless mode (WebKitGTK's MiniBrowser): Xvfb on a free display number.
import { spawnGroup, stopGroup } from './processes.mjs';

/** Starts Xvfb; resolves to { display: ':N', stop() } once the server accepts clients. */
export function startXvfb({ width = 1600, height = 1200, timeout = 20_000 } = {}) {
  // -displayfd: Xvfb picks a free display number itself and writes it to fd 3 when it is ready.
  const child = spawnGroup('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const stop = () => stopGroup(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = async (why) => {
      await stop();
      reject(new Error(`Xvfb did not start (${why}); it comes from Debian's xvfb package.${stderr ? `\n${stderr}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no display after ${timeout} ms`), timeout);
    child.once('error', (err) => { clearTimeout(timer); fail(err.message); });
    const exited = (code) => { clearTimeout(timer); fail(`exited with ${code}`); };
    child.once('exit', exited);
    child.stdio[3].on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      child.off('exit', exited);
      resolve({ display: `:${out.trim()}`, stop });
    });
  });
}
