// The first figure a reader sees sets up alone: the widgets far from the window register (and so build nothing and ask
// the engine nothing) only once it has drawn and that frame is painted; they still start when scrolled to, when a link
// names them, and before printing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { useSite } from './harness.mjs';

const site = useSite(before, after);
const OFF_SCREEN = ['parascope-ring', 'parascope-bubble', 'parascope-mfu', 'parascope-planner'];

/** Installed before any page script: when each tag is defined, drawn, and the frame after its drawing painted. */
function recorder() {
  window.__first = { defined: {}, ready: {}, painted: {} };
  const define = customElements.define.bind(customElements);
  customElements.define = (tag, ...rest) => {
    window.__first.defined[tag] = performance.now();
    return define(tag, ...rest);
  };
  document.addEventListener('parascope-ready', (e) => {
    const tag = e.target.localName;
    if (tag in window.__first.ready) return;
    window.__first.ready[tag] = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__first.painted[tag] = performance.now(); };
      channel.port2.postMessage(0);
    });
  }, true);
}

async function open(path = '', { width = 1280, height = 800 } = {}) {
  const context = await site().browser.newContext({ viewport: { width, height } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(new URL(path, site().url).href);
  return { page, context, errors };
}

const allReady = (page, tags) => page.waitForFunction((names) =>
  names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')), tags, { timeout: 20000 });

test('the figures off screen register only after the first one has painted', async () => {
  const { page, context, errors } = await open('', { width: 1280, height: 800 });
  await page.waitForFunction(() => window.__first.painted['parascope-axes'] !== undefined, null, { timeout: 20000 });
  await page.waitForFunction((tags) => tags.every((t) => window.__first.defined[t] !== undefined), OFF_SCREEN, { timeout: 20000 });
  const t = await page.evaluate(() => window.__first);
  for (const tag of OFF_SCREEN) {
    assert.ok(t.defined[tag] >= t.painted['parascope-axes'],
      `${tag} defined at ${t.defined[tag].toFixed(0)} ms, before the axes' frame was painted (${t.painted['parascope-axes'].toFixed(0)} ms)`);
  }
  assert.ok(t.defined['parascope-axes'] < t.ready['parascope-axes']);
  // Registered later, they still start when the reader gets to them.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.locator('parascope-mfu').scrollIntoViewIfNeeded();
  await allReady(page, ['parascope-mfu']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link to a figure further down registers every widget at once and opens there', async () => {
  const { page, context, errors } = await open('#mfu');
  await allReady(page, ['parascope-mfu']);
  const t = await page.evaluate(() => window.__first);
  for (const tag of OFF_SCREEN) assert.ok(t.defined[tag] !== undefined, `${tag} is defined`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scrolling before the first figure has drawn registers the others at once', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recorder);
  // The engine never arrives: the first figure cannot draw, yet a reader scrolling to the others must not wait for it.
  await context.route('**/*.wasm', () => {});
  const page = await context.newPage();
  await page.goto(site().url);
  await page.waitForFunction(() => customElements.get('parascope-axes') !== undefined);
  await page.mouse.wheel(0, 3000);
  await page.waitForFunction((tags) => tags.every((t) => customElements.get(t) !== undefined), OFF_SCREEN, { timeout: 2000 });
  await context.close();
});
