// One small driver API over three browser engines (Chromium, Firefox ESR, WebKitGTK) for the cross-engine tests.
//
//   const browser = await launchEngine('webkit', { colorScheme: 'dark' });
//   const page = await browser.open(url, { width: 360, height: 800 });
//   await page.evaluate((win, sel) => win.document.querySelector(sel).hasAttribute('data-ready'), 'parascope-mfu');
//   await page.waitFor((win) => ..., [args], { timeout, what });
//   await page.press('ArrowRight'); await page.click(x, y); await page.screenshot(file);
//   await page.problems();  // console errors and uncaught errors so far
//   await page.close(); await browser.close();
//
// Page functions are sent as source text: they see only their arguments (JSON values). Their first argument is the
// window of the page under test (on WebKit at widths under ~450 px that page sits in an iframe of the asked width).
import * as chromium from './chromium.mjs';
import * as firefox from './firefox.mjs';
import * as webkit from './webkit.mjs';

export const ENGINES = { chromium, firefox, webkit };
export const ENGINE_NAMES = Object.keys(ENGINES);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `name`'s browser; a browser that cannot start throws an error that says which engine and why. */
export async function launchEngine(name, { colorScheme = 'light' } = {}) {
  const engine = ENGINES[name];
  if (!engine) throw new Error(`unknown engine "${name}" (known: ${ENGINE_NAMES.join(', ')})`);
  const start = async () => {
    try {
      return await engine.launch({ colorScheme });
    } catch (err) {
      throw new Error(`${name} (${colorScheme}) could not start: ${err.message}`, { cause: err });
    }
  };
  let browser = await start();
  /** Set when a page could not be closed (its session died after the page's work was done): the next open restarts. */
  let broken = false;
  /** Opens a page; if the driver fails to (a slow machine, a browser that stopped answering), starts the browser
   *  afresh and tries once more. The first failure goes to stderr, so a retry is seen, never silent. */
  const openPage = async (url, size) => {
    if (broken) {
      broken = false;
      await browser.close().catch(() => {});
      browser = await start();
    }
    try {
      return await browser.open(url, size);
    } catch (first) {
      process.stderr.write(`# ${name} (${colorScheme}): opening ${url} at ${size.width} px failed, `
        + `restarting the browser and trying once more: ${first.message}\n`);
      await browser.close().catch(() => {});
      browser = await start();
      try {
        return await browser.open(url, size);
      } catch (second) {
        throw new Error(`${name} (${colorScheme}): could not open ${url} at ${size.width} px, twice: `
          + `${first.message}; then ${second.message}`, { cause: second });
      }
    }
  };
  return {
    name,
    colorScheme,
    get version() { return browser.version; },
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await openPage(url, { width, height });
      const evaluate = (fn, ...args) => page.evaluate(`(${fn})(${page.window}, ...${JSON.stringify(args)})`);
      return {
        width,
        height,
        evaluate,
        /** Polls `fn(win, ...args)` until it returns a truthy value; returns that value. */
        async waitFor(fn, args = [], { timeout = 15_000, what = String(fn) } = {}) {
          const until = Date.now() + timeout;
          for (;;) {
            const value = await evaluate(fn, ...args);
            if (value) return value;
            if (Date.now() > until) throw new Error(`${name}: timed out after ${timeout} ms waiting for ${what}`);
            await sleep(50);
          }
        },
        press: (key) => page.press(key),
        click: (x, y) => page.click(x, y),
        screenshot: (path) => page.screenshot(path),
        problems: () => page.problems(),
        /** A page whose browser died after its checks ran is reported on stderr, and the browser restarts on the next
         *  open; the checks that ran keep their verdict. */
        async close() {
          try {
            await page.close();
          } catch (err) {
            process.stderr.write(`# ${name} (${colorScheme}): closing the page failed, the next page restarts the `
              + `browser: ${err.message}\n`);
            broken = true;
          }
        },
      };
    },
    close: () => browser.close(),
  };
}
