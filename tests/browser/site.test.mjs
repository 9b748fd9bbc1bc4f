// The served site in headless Chromium: the engine loads, the MFU figure shows the engine's number, nothing leaves
// 127.0.0.1, no console errors or failed requests (the icon exists), bad attributes become visible notes, test pages
// stay out of dist/, announcements are debounced. (The MFU figure itself: mfu.test.mjs.)
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { nodeEngine } from '../js/node-engine.mjs';
import { serve } from '../../scripts/serve.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodeEngine();
const site = useSite(before, after);

test('the article page loads the engine and shows PaLM at 46.2 % MFU', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-mfu');
  const shown = widget.locator('[data-out="published-mfu"]');
  assert.equal(await shown.textContent(), '46.2 % MFU');
  const expected = engine.call({ op: 'mfu', model: 'palm-540b', hardware: 'tpu-v4', gpus: 6144, tokens_per_second: 238300 });
  assert.equal(Number(await shown.getAttribute('data-value')), expected.mfu);
  await page.screenshot({ path: new URL('site-mfu.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('typing a throughput recomputes MFU through the engine', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-mfu');
  await widget.locator('input[name="preset"][value="your-run"]').check();
  await widget.locator('select[name="model"]').selectOption('llama3-405b');
  await widget.locator('select[name="hardware"]').selectOption('h100-sxm');
  await widget.locator('input[name="gpus"]').fill('16384');
  await widget.locator('input[name="tokens-per-second"]').fill('2000000');
  const expected = engine.call({ op: 'mfu', model: 'llama3-405b', hardware: 'h100-sxm', gpus: 16384, tokens_per_second: 2e6 });
  await page.waitForFunction(
    (v) => document.querySelector('parascope-mfu').shadowRoot.querySelector('[data-out="mfu"]').dataset.value === String(v),
    expected.mfu,
  );
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bad attribute shows a visible note and the widget still works; a neighbour is unaffected', async () => {
  const { page, problems, context } = await openPage(site(), 'tests/attributes.html');
  const bad = await widgetReady(page, '#bad');
  const note = bad.locator('[data-note="attr-gpus"]');
  assert.match(await note.textContent(), /gpus="lots"/);
  assert.ok(await note.isVisible());
  assert.match(await bad.locator('[data-out="mfu"]').textContent(), /%$/);
  const good = await widgetReady(page, '#good');
  assert.equal(await good.locator('.note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attribute numbers are plain decimals: 0x10 and +4 are noted, not read as 16 and 4', async () => {
  const { page, problems, context } = await openPage(site(), 'tests/attributes.html');
  const hex = await widgetReady(page, '#hex');
  assert.match(await hex.locator('[data-note="attr-gpus"]').textContent(), /gpus="0x10" must be a whole number .* in plain digits/);
  assert.match(await hex.locator('[data-note="attr-tokens-per-second"]').textContent(), /tokens-per-second="\+4"/);
  assert.match(await hex.locator('[data-out="mfu"]').textContent(), /%$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with the engine missing every figure says so in a note and the article still reads', async () => {
  const { page, context } = await openPage(site(), '');
  // fault: the engine cannot be fetched (the plain name or the build's content-hashed copy)
  await context.route(/\/parascope(-[A-Z2-7]{8})?\.wasm$/, (route) => route.abort());
  await page.reload();
  for (const tag of ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu']) {
    const widget = page.locator(tag).first();
    await widget.scrollIntoViewIfNeeded();
    const said = widget.locator('[data-out="load-failed"]');
    await said.waitFor();
    assert.match(await said.textContent(), /its engine \(WebAssembly\) did not load/, tag);
  }
  assert.ok((await page.locator('main p').count()) > 5);
  await context.close();
});

test('the page works at 360 px wide', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 360, height: 800 });
  const widget = await widgetReady(page, 'parascope-mfu');
  const box = await widget.boundingBox();
  assert.ok(box.width <= 360, `widget is ${box.width}px wide`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page scrolls sideways: ${overflow}px`);
  await page.screenshot({ path: new URL('site-360.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page names its icon, which exists, and no request of the page fails', async () => {
  const { page, problems, context } = await openPage(site());
  const failed = [];
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  await page.reload();
  await widgetReady(page, 'parascope-axes');
  const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]')?.href);
  assert.ok(icon, 'no <link rel="icon">');
  const response = await page.request.get(icon);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /^image\//);
  assert.deepEqual(failed, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('dist/ ships no test pages; only the tests\' server shows them', async () => {
  await assert.rejects(access(new URL('../../dist/tests', import.meta.url)));
  const { server, url } = await serve({ port: 0 });
  try {
    assert.equal((await fetch(new URL('tests/attributes.html', url))).status, 404);
    assert.equal((await fetch(new URL('tests/attributes.html', site().url))).status, 200);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('announce() speaks only the last of a burst of changes, once, in a polite live region', async () => {
  const { page, problems, context } = await openPage(site());
  await widgetReady(page, 'parascope-axes');
  const region = await page.evaluate(() => {
    const widget = document.querySelector('parascope-axes');
    const live = widget.shadowRoot.querySelectorAll('.announcer');
    for (const n of [1, 2, 3, 4]) widget.announce(`step ${n}`);
    return { count: live.length, polite: live[0].getAttribute('aria-live'), during: live[0].textContent };
  });
  assert.deepEqual(region, { count: 1, polite: 'polite', during: '' });
  await page.waitForFunction(() => document.querySelector('parascope-axes').shadowRoot.querySelector('.announcer').textContent === 'step 4');
  const box = await page.evaluate(() => document.querySelector('parascope-axes').shadowRoot.querySelector('.announcer').getBoundingClientRect().width);
  assert.ok(box <= 1, 'the live region is visually hidden');
  assert.deepEqual(problems, []);
  await context.close();
});
