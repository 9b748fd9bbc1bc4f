// Steadiness of the article page in headless Chromium: each widget holds its size before it starts (before main.js
// has even run), and Chromium's layout shift over a full scroll and over a jump to the MFU section stays ≤ 0.05.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { FIGURES } from '../../web/widgets/index.js';
import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const WIDGETS = FIGURES.map((f) => f.tag); // every figure the article shows (web/widgets/index.js, the one list)
const LIMIT = 0.05;

/** Sums every 'layout-shift' entry not caused by input, from the first paint on (installed before the page loads). */
function recordShifts() {
  window.layoutShift = { total: 0, entries: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.layoutShift.total += entry.value;
      window.layoutShift.entries.push({
        value: Number(entry.value.toFixed(4)),
        at: Math.round(entry.startTime),
        moved: entry.sources.map((s) => s.node?.nodeName ?? '?'),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

async function open(width, path = '') {
  const context = await site().browser.newContext({ viewport: { width, height: 800 } });
  await context.addInitScript(recordShifts);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(new URL(path, site().url).href);
  return { page, context, errors };
}

// Started, and the track record drawn from its data file (fetched after the figure starts).
const allReady = (page) =>
  page.waitForFunction((names) => names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')
    && (n !== 'parascope-track' || document.querySelector(n).shadowRoot.querySelector('[data-out="summary"][data-value]'))), WIDGETS);
const shifted = (page) => page.evaluate(() => window.layoutShift);

/** Scrolls the whole page a viewport at a time, as a reader would, letting each widget start on the way. */
async function scrollThrough(page) {
  for (;;) {
    const done = await page.evaluate(() => {
      const end = document.documentElement.scrollHeight - innerHeight;
      if (scrollY >= end - 1) return true;
      scrollBy(0, innerHeight * 0.8);
      return false;
    });
    if (done) break;
    await page.waitForTimeout(250);
  }
  await allReady(page);
  await page.waitForTimeout(300);
}

for (const width of [1280, 360]) {
  test(`a full scroll of the article at ${width} px shifts the layout by at most ${LIMIT}`, async () => {
    const { page, context, errors } = await open(width);
    await scrollThrough(page);
    const { total, entries } = await shifted(page);
    assert.ok(total <= LIMIT, `layout shift ${total.toFixed(3)}: ${JSON.stringify(entries)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`jumping to the MFU section at ${width} px shifts the layout by at most ${LIMIT}`, async () => {
    const { page, context } = await open(width, '#mfu');
    await page.waitForFunction(() => document.querySelector('parascope-mfu')?.hasAttribute('data-ready'));
    await page.waitForTimeout(500);
    const top = await page.evaluate(() => document.getElementById('mfu').getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 2, `the MFU heading moved to ${top}px from the top`);
    const { total, entries } = await shifted(page);
    assert.ok(total <= LIMIT, `layout shift ${total.toFixed(3)}: ${JSON.stringify(entries)}`);
    await context.close();
  });
}

test('each widget holds its size before the page\'s script has defined it', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await context.route('**/*.js', (route) => route.abort()); // no script arrives: what a reader sees first
  await page.goto(site().url);
  const heights = await page.evaluate((names) => names.map((n) => document.querySelector(n).getBoundingClientRect().height), WIDGETS);
  for (const [i, height] of heights.entries()) assert.ok(height > 300, `${WIDGETS[i]} is ${height}px before it is defined`);
  await context.close();
});

test('the loading placeholder fills the reserved size, and the started widget keeps it', async () => {
  const { page, context } = await open(1280);
  // Figures far from the window register after the first one draws: wait for this one's shadow root.
  await page.waitForFunction(() => document.querySelector('parascope-mfu')?.shadowRoot?.querySelector('.body'));
  const sizes = await page.evaluate(() => {
    const mfu = document.querySelector('parascope-mfu');
    const body = mfu.shadowRoot.querySelector('.body');
    return { host: mfu.getBoundingClientRect().height, body: body.getBoundingClientRect().height, text: body.textContent };
  });
  assert.match(sizes.text, /Loading the engine/);
  assert.ok(sizes.host > 300 && Math.abs(sizes.body - sizes.host) < 2, JSON.stringify(sizes));
  await context.close();
});

test('a note floats over the bottom of the figure (in sight) instead of pushing it down', async () => {
  const { page, context } = await open(1280, '#mfu');
  await page.waitForFunction(() => document.querySelector('parascope-mfu')?.hasAttribute('data-ready'));
  const measure = () => page.evaluate(() => {
    const mfu = document.querySelector('parascope-mfu');
    const first = mfu.shadowRoot.querySelector('.body > *');
    return { host: mfu.getBoundingClientRect().height, first: first.getBoundingClientRect().top - mfu.getBoundingClientRect().top };
  });
  const before = await measure();
  await page.evaluate(() => document.querySelector('parascope-mfu').setNote('test', 'A note that should not move anything.'));
  const note = page.locator('parascope-mfu .note');
  assert.ok(await note.isVisible());
  assert.deepEqual(await measure(), before);
  // The figure runs past the bottom of the window: the note stays in sight there.
  const where = await page.evaluate(() => ({
    note: document.querySelector('parascope-mfu').shadowRoot.querySelector('.note').getBoundingClientRect().bottom,
    figure: document.querySelector('parascope-mfu').getBoundingClientRect().bottom,
    window: innerHeight,
  }));
  assert.ok(where.figure > where.window && where.note <= where.window, JSON.stringify(where));
  // Only the figure's top edge on screen: the note stays inside the figure, off what comes before it.
  const edge = await page.evaluate(() => {
    const mfu = document.querySelector('parascope-mfu');
    scrollBy(0, mfu.getBoundingClientRect().top - innerHeight + 20);
    return { note: mfu.shadowRoot.querySelector('.note').getBoundingClientRect().top, figure: mfu.getBoundingClientRect().top };
  });
  assert.ok(edge.note >= edge.figure, JSON.stringify(edge));
  await note.getByRole('button', { name: 'Dismiss this note' }).click();
  assert.equal(await page.locator('parascope-mfu .note').count(), 0);
  await context.close();
});

/** Each widget's reserved height (its ::before) and the height its started content needs, at the current width. */
function reservedAndDrawn(names) {
  return names.map((name) => {
    const host = document.querySelector(name);
    const body = host.shadowRoot.querySelector('.body');
    const style = getComputedStyle(body);
    const top = body.getBoundingClientRect().top;
    const last = Math.max(...[...body.children].map((c) => c.getBoundingClientRect().bottom + parseFloat(getComputedStyle(c).marginBottom)));
    const drawn = last - top + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
    return { name, reserved: parseFloat(getComputedStyle(host, '::before').paddingTop), drawn: Math.round(drawn) };
  });
}

for (const width of [1280, 360]) {
  test(`at ${width} px each widget's reserved height (css/embed.css) fits what it draws at the start`, async () => {
    const { page, context } = await open(width);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint'))); // start all at once
    await allReady(page);
    await page.waitForTimeout(300);
    const rows = await page.evaluate(reservedAndDrawn, WIDGETS);
    const wrong = rows.filter(({ reserved, drawn }) => drawn > reserved + 2 || reserved - drawn > 40);
    assert.deepEqual(wrong, [], `retune reserve.${width < 760 ? 'narrow' : 'wide'} in web/widgets/index.js (then UPDATE=1 node --test tests/js/embed-css.test.mjs): ${JSON.stringify(wrong)}`);
    await context.close();
  });
}
