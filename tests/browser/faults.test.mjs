// One widget failing in headless Chromium: its module throwing while it loads, its constructor throwing, its first draw
// throwing, or its engine calls throwing. Each fault is injected into one widget's module as the browser fetches it
// (tests/faults.html loads the unbundled modules); that widget shows a note in its own place, and the three others
// start, draw and answer their controls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const WIDGETS = ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu'];

/** Each fault: the widget it goes into, how its module's text is rewritten, and the note that widget must show. */
const FAULTS = [
  { what: 'its module throws while loading', widget: 'parascope-ring',
    rewrite: (js) => `throw new Error('injected: module');\n${js}`,
    note: '[data-out="load-failed"]', says: /^This figure could not start: its script failed \(injected: module\)/ },
  { what: 'its constructor throws', widget: 'parascope-bubble',
    rewrite: (js) => js.replace(/(class \w+ extends ParascopeWidget \{)/,
      "$1\n  constructor() { super(); throw new Error('injected: constructor'); }"),
    note: '[data-out="load-failed"]', says: /^This figure could not start: its script failed \(injected: constructor\)/ },
  { what: 'its first draw throws', widget: 'parascope-axes',
    rewrite: (js) => js.replace(/\n {2}setup\(body\) \{/, "\n  setup(body) {\n    throw new Error('injected: first draw');"),
    note: '[data-note="setup"]', says: /This figure failed to start: injected: first draw/ },
  { what: 'its engine calls throw once it is drawn', widget: 'parascope-mfu',
    rewrite: (js) => js.replace(/\n {2}setup\(body\) \{/, `\n  setup(body) {
    const engine = this.engine;
    const broken = () => this.hasAttribute('data-ready');
    this.engine = { ...engine,
      call: (r) => { if (broken()) throw new RangeError('injected: engine call'); return engine.call(r); },
      callWithAttachment: (r, reuse) => { if (broken()) throw new RangeError('injected: engine call'); return engine.callWithAttachment(r, reuse); } };`),
    note: '.note.error', says: /The engine failed on these settings \(injected: engine call\)/, afterChange: true },
];

/** Moves the widget's first select with a choice to another option; resolves once its figure's text has changed. */
async function changeSomething(page, tag) {
  return page.evaluate(async (tag) => {
    const host = document.querySelector(tag);
    const select = [...host.shadowRoot.querySelectorAll('select')].find((s) => s.options.length > 1 && !s.disabled);
    if (!select) return 'no select';
    const before = host.shadowRoot.querySelector('.body').textContent;
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    for (let i = 0; i < 50; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      if (host.shadowRoot.querySelector('.body').textContent !== before) return 'changed';
    }
    return `${select.name}: nothing changed`;
  }, tag);
}

for (const fault of FAULTS) {
  test(`one widget failing (${fault.widget}: ${fault.what}) leaves the others working and says so in place`, async () => {
    const { page, problems, context } = await openPage(site(), 'about:blank');
    try {
      await context.route(`**/widgets/${fault.widget}.js`, async (route) => {
        const response = await route.fetch();
        const js = await response.text();
        const injected = fault.rewrite(js);
        assert.notEqual(injected, js, 'the fault went in');
        await route.fulfill({ response, body: injected });
      });
      await page.goto(new URL('tests/faults.html', site().url).href);
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));  // starts every widget at once
      const others = WIDGETS.filter((w) => w !== fault.widget);
      await page.waitForFunction((names) => names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')),
        others, { timeout: 30000 });
      const failing = page.locator(fault.widget);
      if (fault.afterChange) {
        await page.waitForFunction((n) => document.querySelector(n)?.hasAttribute('data-ready'), fault.widget);
        await changeSomething(page, fault.widget);
      }
      const note = failing.locator(fault.note).first();
      await note.waitFor({ state: 'visible', timeout: 15000 });
      assert.match(await note.textContent(), fault.says);
      const box = await note.boundingBox();
      const host = await failing.boundingBox();
      assert.ok(box.width > 0 && box.height > 0 && box.y >= host.y - 1 && box.y + box.height <= host.y + host.height + 1,
        'the note is inside the failing widget');
      for (const other of others) {
        assert.equal(await page.locator(other).getAttribute('data-failed'), null, `${other} did not fail`);
        assert.equal(await page.locator(other).locator('.note.error').count(), 0, `${other} has no error note`);
        assert.equal(await changeSomething(page, other), 'changed', `${other} answers its controls`);
      }
      // The only errors are the injected one (reported by the browser where a constructor or a handler threw).
      assert.deepEqual(problems.filter((p) => !/injected/.test(p)), []);
    } finally {
      await context.close();
    }
  });
}
