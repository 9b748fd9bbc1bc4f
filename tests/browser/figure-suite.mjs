// What the browser tests of one figure on every engine share: the engines asked for (PARASCOPE_ENGINES narrows them),
// the site served for the file, one browser per engine whose pages are checked for errors, the page functions each
// such test sends, and an attribute reader over plain values (a figure's state read as its element reads it).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import { serve } from '../../scripts/serve.mjs';
import { ENGINE_NAMES, launchEngine } from './engines/index.mjs';

export const ENGINES = process.env.PARASCOPE_ENGINES ? process.env.PARASCOPE_ENGINES.split(',') : ENGINE_NAMES;

/** Serves dist/ for the file's tests (hooks at the top level); the answer's `url` is set once they start. */
export function serveSite() {
  const site = {};
  before(async () => {
    Object.assign(site, await serve({ port: 0 }));
  });
  after(async () => {
    await new Promise((resolve) => (site.server ? site.server.close(resolve) : resolve()));
  });
  return site;
}

/**
 * Inside a describe: engine `name` launched for its tests (hooks), and onPage(path, body, size), which opens `path` on
 * `site`, runs `body(page)` (once the figure `start` has started, when given) and fails on any console or page error
 * there. A browser that did not launch fails each test with its reason.
 */
export function browserPages(name, site, { start = null, what } = {}) {
  let browser;
  let launchFailure;
  before(async () => {
    browser = await launchEngine(name).catch((err) => {
      launchFailure = err;
    });
  });
  after(async () => {
    await browser?.close();
  });
  return async (path, body, size = { width: 1280, height: 1000 }) => {
    if (!browser) throw launchFailure;
    const page = await browser.open(`${site.url}${path}`, size);
    try {
      if (start) await startFigure(page, start, { what });
      await body(page);
      assert.deepEqual(await page.problems(), [], `${name}: errors in the page`);
    } finally {
      await page.close();
    }
  };
}

/** Scrolls to the figure `tag` and waits for it to start (`isReady`: when it counts as started). */
export async function startFigure(page, tag, { isReady = ready, timeout = 60_000, what = `${tag} to start` } = {}) {
  // embedded alone, the figure is made once its own file has come (embed.js, lib/embed-figure.js)
  await page.waitFor((win, t) => Boolean(win.document.querySelector(t)), [tag], { timeout, what: `<${tag}> made` });
  await page.evaluate(scrollTo, tag);
  await page.waitFor(isReady, [tag], { timeout, what });
}

/** An attribute reader like lib/widget-attributes.js's over plain values (null: absent; a bad choice: the fallback). */
export function attributeReader(values) {
  const raw = (n) => (n in values && values[n] !== null ? String(values[n]) : null);
  return {
    rawAttribute: raw,
    flagAttribute: (n) => raw(n) !== null && raw(n) !== 'false',
    intAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    numberAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    choiceAttribute: (n, allowed, fallback) => (raw(n) !== null && allowed.includes(raw(n)) ? raw(n) : fallback),
  };
}

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** Whether the figure `tag` has started. */
export function ready(win, tag) {
  return Boolean(win.document.querySelector(tag)?.hasAttribute('data-ready'));
}

export function scrollTo(win, tag) {
  win.document.querySelector(tag).scrollIntoView({ block: 'start' });
  return true;
}

/** Sets a slider or select of `tag` the way a reader does: value, then input and change; answers the value it took. */
export function setControl(win, tag, selector, value) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(selector);
  el.value = String(value);
  el.dispatchEvent(new win.Event('input', { bubbles: true }));
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
  return el.value;
}

/**
 * Moves the slider `selector` of `tag` to each of `values` (input events, as a press does) and answers what the moves
 * wrote without changing it: a line of text replaced by the same text, an attribute set to the value it had. Each
 * costs the browser a restyle and a layout, and a press is meant to fit a frame (issue 30).
 */
export function unchangedWrites(win, tag, selector, values) {
  const shadow = win.document.querySelector(tag).shadowRoot;
  const input = shadow.querySelector(selector);
  const found = [];
  const name = (node) => `<${node.localName} class="${node.getAttribute('class') ?? ''}">`;
  const note = (records) => {
    for (const r of records) {
      const [gone, added] = [r.removedNodes, r.addedNodes];
      if (r.type === 'attributes' && r.oldValue === r.target.getAttribute(r.attributeName)) {
        found.push(`${r.attributeName} on ${name(r.target)}`);
      } else if (r.type === 'childList' && gone.length === 1 && added.length === 1 && gone[0].nodeType === 3
        && added[0].nodeType === 3 && gone[0].data === added[0].data) {
        found.push(`the text of ${name(r.target)}`);
      }
    }
  };
  const observer = new win.MutationObserver(note);
  observer.observe(shadow, { subtree: true, childList: true, attributes: true, attributeOldValue: true });
  for (const value of values) {
    input.value = String(value);
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
    note(observer.takeRecords()); // press by press: a value written back by the next press is no unchanged write
  }
  observer.disconnect();
  return found;
}

/** Scrolls the element `selector` of `tag`'s shadow root into view and focuses it; answers whether it took focus. */
export function focusOn(win, tag, selector) {
  const shadow = win.document.querySelector(tag).shadowRoot;
  const el = shadow.querySelector(selector);
  el.scrollIntoView({ block: 'center' });
  el.focus();
  return shadow.activeElement === el;
}
