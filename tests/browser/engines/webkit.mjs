// WebKit (WebKitGTK) for the cross-engine tests: MiniBrowser driven by WebKitWebDriver over plain W3C WebDriver HTTP,
// on a private Xvfb display (MiniBrowser has no headless mode).
import { access, constants, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';

import { spawnGroup, stopGroup } from './processes.mjs';
import { startXvfb } from './xvfb.mjs';

export const name = 'webkit';

const WEBDRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** MiniBrowser's window cannot be narrower than ~447 px: narrower pages are shown in an iframe of that width. */
const MIN_WINDOW_WIDTH = 480;
const FRAME_ID = 'parascope-engine-frame';
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const KEYS = { ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Enter: '\uE007',
  Tab: '\uE004', Home: '\uE011', End: '\uE010', Escape: '\uE00C', Space: ' ' };

/** Records console errors and uncaught errors of a window into window.__parascopeProblems (WebDriver has no log). */
const HOOK = `(w) => {
  if (w.__parascopeProblems) return;
  const problems = (w.__parascopeProblems = []);
  const original = w.console.error;
  w.console.error = function (...args) {
    problems.push('console error: ' + args.map(String).join(' '));
    return original.apply(this, args);
  };
  w.addEventListener('error', (e) => problems.push('page error: ' + e.message));
  w.addEventListener('unhandledrejection', (e) => problems.push('page error: ' + (e.reason && e.reason.message || e.reason)));
}`;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts Xvfb, WebKitWebDriver and one MiniBrowser session (dark with `colorScheme: 'dark'`); pages open one at a time. */
export async function launch({ colorScheme = 'light' } = {}) {
  for (const file of [WEBDRIVER, MINIBROWSER]) {
    await access(file, constants.X_OK).catch(() => {
      throw new Error(`${file} is missing: install Debian's webkit2gtk-driver package`);
    });
  }
  const xvfb = await startXvfb();
  let driver;
  let base;
  let sessionPath;
  const stop = async () => {
    if (sessionPath) await fetch(`${base}${sessionPath}`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }).catch(() => {});
    sessionPath = undefined;
    if (driver) await stopGroup(driver);
    await xvfb.stop();
  };
  try {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    let log = '';
    driver = spawnGroup(WEBDRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: xvfb.display },
      stdio: ['ignore', 'pipe', 'pipe'] });
    driver.stdout.on('data', (d) => { log += d; });
    driver.stderr.on('data', (d) => { log += d; });
    const started = Date.now();
    for (;;) {
      if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log}`);
      const ok = await fetch(`${base}/status`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() - started > 20_000) throw new Error(`WebKitWebDriver did not answer on ${base} in 20 s: ${log}`);
      await sleep(50);
    }
    const session = await request(base, 'POST', '/session', { capabilities: { alwaysMatch: {
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...(colorScheme === 'dark' ? ['--dark-mode'] : [])] },
    } } });
    sessionPath = `/session/${session.sessionId}`;
    const wd = (method, path, body) => request(base, method, `${sessionPath}${path}`, body);
    let current = null;
    return {
      name,
      version: `WebKitGTK ${session.capabilities.browserVersion}`,
      async open(url, { width, height }) {
        if (current) throw new Error('webkit: one page at a time (close the previous one first)');
        const framed = width < MIN_WINDOW_WIDTH;
        await sizeViewport(wd, framed ? MIN_WINDOW_WIDTH : width, height);
        const run = (source) => wd('POST', '/execute/sync', { script: `return (${source});`, args: [] });
        let win = 'window';
        if (framed) {
          // A same-origin host document (the server's 404 page), holding the page in a fixed iframe of the asked size.
          await wd('POST', '/url', { url: new URL('/__engine-frame-host__', url).href });
          await run(`((d) => {
            const f = d.createElement('iframe');
            f.id = ${JSON.stringify(FRAME_ID)};
            Object.assign(f.style, { position: 'fixed', left: '0', top: '0', border: '0', margin: '0',
              width: '${width}px', height: '${height}px' });
            d.documentElement.replaceChildren(f);
            f.src = ${JSON.stringify(url)};
          })(document)`);
          win = `document.getElementById(${JSON.stringify(FRAME_ID)}).contentWindow`;
          const loaded = `(() => { const w = ${win}; return w.location.href !== 'about:blank' && w.document.readyState === 'complete'; })()`;
          for (const until = Date.now() + 30_000; !(await run(loaded));) {
            if (Date.now() > until) throw new Error(`webkit: ${url} did not load in its frame in 30 s`);
            await sleep(50);
          }
        } else {
          await wd('POST', '/url', { url });
        }
        await run(`(${HOOK})(${win})`);
        const page = {
          window: win,
          evaluate: run,
          async problems() {
            return (await run(`${win}.__parascopeProblems`)) ?? ['the error hook was lost (the page navigated?)'];
          },
          async press(key) {
            const value = KEYS[key] ?? key;
            await wd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: [
              { type: 'keyDown', value }, { type: 'keyUp', value }] }] });
          },
          async click(x, y) {
            await wd('POST', '/actions', { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
              actions: [{ type: 'pointerMove', x: Math.round(x), y: Math.round(y), origin: 'viewport' },
                { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] }] });
          },
          async screenshot(path) {
            let png;
            if (framed) {
              const frame = await wd('POST', '/element', { using: 'css selector', value: `#${FRAME_ID}` });
              png = await wd('GET', `/element/${frame[ELEMENT]}/screenshot`);
            } else {
              png = await wd('GET', '/screenshot');
            }
            await writeFile(path, Buffer.from(png, 'base64'));
          },
          async close() {
            current = null;
            await wd('DELETE', '/actions').catch(() => {});
            await wd('POST', '/url', { url: 'about:blank' });
          },
        };
        current = page;
        return page;
      },
      close: stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Sets the window so that the page's viewport is width × height (the window adds its own chrome). */
async function sizeViewport(wd, width, height) {
  await wd('POST', '/window/rect', { width, height });
  const [w, h] = await wd('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight];', args: [] });
  if (w !== width || h !== height) await wd('POST', '/window/rect', { width: width + (width - w), height: height + (height - h) });
}

async function request(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`webkit: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  if (!response.ok || json.value?.error) {
    throw new Error(`webkit: ${method} ${path}: ${json.value?.error ?? response.status}: ${json.value?.message ?? text.slice(0, 300)}`);
  }
  return json.value;
}
