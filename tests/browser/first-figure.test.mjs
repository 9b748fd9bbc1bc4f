// The first figure a reader sees sets up alone: the widgets far from the window register (and so build nothing and ask
// the engine nothing) only once it has drawn and that frame is painted; they still start when scrolled to, when a link
// names them, and before printing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { FIGURES } from '../../web/widgets/index.js';
import { useSite } from './harness.mjs';

const site = useSite(before, after);
const OFF_SCREEN = FIGURES.slice(1).map((f) => f.tag); // every figure after the article's first (web/widgets/index.js)

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

/** Opens tests/axes-first-draw.html with `query` (the axes' attributes); resolves once the axes has drawn. */
async function openAxes(query) {
  const context = await site().browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(new URL(`tests/axes-first-draw.html?${query}`, site().url).href);
  await allReady(page, ['parascope-axes']);
  return { page, context, errors };
}

const askedBy = (page, drawn) => page.evaluate((d) => window.__asked.filter((a) => a.drawn === d).map((a) => a.op), drawn);
const axesText = (page, selector) => page.locator('parascope-axes').locator(selector).first().textContent();
const notes = (page) => page.evaluate(() => [...document.querySelector('parascope-axes').shadowRoot.querySelectorAll('[data-note]')]
  .map((n) => `${n.dataset.note}: ${n.querySelector('.note-text').textContent}`));

test('the axes\' first draw asks the run\'s placement and traffic, not presets; presets and the router come after', async () => {
  const { page, context, errors } = await openAxes('model=mixtral-8x7b&hardware=h100-sxm&gpus=64&tp=2&pp=4&ep=8&global-batch=256');
  assert.deepEqual(await askedBy(page, false), ['placement', 'traffic'], 'asked before the first figure was drawn');
  await page.waitForFunction(() => !document.querySelector('parascope-axes').hasAttribute('data-routing'), null, { timeout: 20000 });
  // The routing's imbalance re-times the traffic table (issue 25, item 6).
  assert.deepEqual(await askedBy(page, true), ['presets', 'moe_route', 'traffic'], 'asked once it was drawn');
  assert.match(await axesText(page, '[data-out="expert-title"]'), /\S/);
  assert.deepEqual(await notes(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a dense model, a missing ep or an unknown model still read presets first, with the same figure and notes', async () => {
  const dense = await openAxes('model=llama3-8b&ep=1&gpus=64&tp=2&pp=4');  // its quick try's placement is kept
  assert.deepEqual(await askedBy(dense.page, false), ['placement', 'presets', 'traffic']);
  assert.match(await axesText(dense.page, '[data-out="expert-title"]'), /Llama 3 8B is dense/);
  assert.deepEqual(await notes(dense.page), []);
  await dense.context.close();

  const noEp = await openAxes('model=llama3-8b&gpus=64&tp=2&pp=4');  // ep defaults to 1 for a dense model
  assert.deepEqual(await askedBy(noEp.page, false), ['presets', 'placement', 'traffic']);
  assert.deepEqual(await notes(noEp.page), []);
  await noEp.context.close();

  // An unknown model: the quick try is refused, and its notes are those of reading presets first, in that order.
  const unknown = await openAxes('model=nope&tp=x&ep=8&skew=9');
  assert.deepEqual(await askedBy(unknown.page, false), ['placement', 'presets', 'placement', 'traffic']);
  assert.deepEqual((await notes(unknown.page)).map((n) => n.split(':')[0]), ['attr-model', 'attr-tp', 'attr-skew']);
  assert.match((await notes(unknown.page))[0], /Attribute model="nope" must be one of .*mixtral-8x7b.*; using mixtral-8x7b\./);
  assert.deepEqual([...unknown.errors, ...dense.errors, ...noEp.errors], []);
  await unknown.context.close();
});
