// The article's contents and section links in headless Chromium: every section heading has an id and a link to
// itself, the contents list links every section, and opening a section's link puts its heading at the top.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);

test('the contents list links every section heading, and each heading links to itself', async () => {
  const { page, problems, context } = await openPage(site(), '');
  const headings = await page.locator('main h2[id]').evaluateAll((hs) => hs.map((h) => ({
    id: h.id, self: h.querySelector('a.anchor')?.getAttribute('href'), label: h.querySelector('a.anchor')?.getAttribute('aria-label') })));
  assert.ok(headings.length >= 4);
  for (const h of headings) {
    assert.equal(h.self, `#${h.id}`);
    assert.match(h.label, /^Link to this section: /);
  }
  const toc = await page.locator('nav.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(toc.filter((href) => href.startsWith('#')), headings.map((h) => `#${h.id}`));
  assert.equal(await page.locator('main h2:not([id])').count(), 0, 'no section without an anchor');
  assert.deepEqual(problems, []);
  await context.close();
});

for (const id of ['ring', 'bubble']) {
  test(`opening #${id} puts its heading at the top of the window`, async () => {
    const { page, context } = await openPage(site(), `#${id}`);
    await page.waitForTimeout(600);
    const top = await page.evaluate((x) => document.getElementById(x).getBoundingClientRect().top, id);
    assert.ok(Math.abs(top) < 2, `#${id} heading at ${top}px`);
    await context.close();
  });
}
