// Browser-test harness: serve dist/ on a free loopback port, drive Debian's Chromium, and record console errors and
// every request that tries to leave the origin.
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';

import { TEST_PAGES, serve } from '../../scripts/serve.mjs';

export const SCREENSHOTS = new URL('./screenshots/', import.meta.url);

/** Starts the site and a headless Chromium; returns { url, browser, close }. */
export async function startSite() {
  const { server, url } = await serve({ port: 0, testPages: TEST_PAGES });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Opens `path` on the site in a fresh page of the given width. `problems` collects console errors, page errors and
 * requests to any other origin (those are also aborted, so a test cannot pass by reaching the internet).
 */
export async function openPage(site, path = '', { width = 1000, height = 900, colorScheme, bypassCSP } = {}) {
  // colorScheme: the reader's light/dark setting; bypassCSP: lets a test inject a checker script (axe-core).
  const context = await site.browser.newContext({ viewport: { width, height },
    ...(colorScheme ? { colorScheme } : {}), ...(bypassCSP ? { bypassCSP } : {}) });
  const page = await context.newPage();
  const problems = [];
  const origin = new URL(site.url).origin;
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // An error event that is no thrown exception (e.g. "ResizeObserver loop completed with undelivered notifications")
  // reaches no 'pageerror': the page reports it to the console, where it is collected as above.
  await page.addInitScript(() => {
    addEventListener('error', (e) => {
      if (e.error == null && e.target === globalThis) console.error(`window error event: ${e.message}`);
    });
  });
  // That loop error comes only when a page changes inside a ResizeObserver callback, and only when the change happens
  // to resize a box someone observes: a race that shows on a slow machine. The rule is checked instead, every time:
  // a callback that changes the DOM (this page's or any open shadow root's) is reported to the console.
  await page.addInitScript(() => {
    const Native = globalThis.ResizeObserver;
    if (!Native) return;
    const describe = (record) => `${record.type} ${record.attributeName ?? ''} on <${record.target.localName ?? '#text'}`
      + `${record.target.className?.baseVal ?? record.target.className ? ` class="${record.target.className?.baseVal ?? record.target.className}"` : ''}>`;
    globalThis.ResizeObserver = class extends Native {
      constructor(callback) {
        super((entries, observer) => {
          const roots = [document];
          for (let i = 0; i < roots.length; i += 1) {
            for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
          }
          const watch = new MutationObserver(() => {});
          for (const root of roots) watch.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
          try {
            callback(entries, observer);
          } finally {
            const changes = watch.takeRecords();
            watch.disconnect();
            if (changes.length) {
              console.error(`a ResizeObserver callback changed the page (${changes.length} DOM changes, the first: `
                + `${describe(changes[0])}): a box resized there can loop`);
            }
          }
        });
      }
    };
  });
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (target.startsWith(origin) || target.startsWith('data:')) return route.continue();
    problems.push(`request left the origin: ${target}`);
    return route.abort();
  });
  await page.goto(new URL(path, site.url).href);
  return { page, problems, context };
}

/** Waits until the custom element matched by `selector` has started (its engine loaded and first render done). */
export async function widgetReady(page, selector) {
  const widget = page.locator(selector);
  await widget.scrollIntoViewIfNeeded();
  // data-routing: <parascope-axes> routes its MoE layer just after its first frame; data-loading: <parascope-nccl>
  // fetches its example after it; tests read the settled figure.
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return el?.hasAttribute('data-ready') && !el.hasAttribute('data-routing') && !el.hasAttribute('data-loading');
  }, selector);
  return widget;
}

/**
 * Registers node:test hooks that start the site before a file's tests and close it after; returns a getter for it.
 * Usage: `const site = useSite(before, after);` then `openPage(site(), ...)`.
 */
export function useSite(before, after) {
  let site;
  before(async () => {
    site = await startSite();
  });
  after(async () => {
    await site?.close();
  });
  return () => site;
}
