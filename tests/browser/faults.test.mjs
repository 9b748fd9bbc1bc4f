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
  { what: 'its engine calls throw once it is drawn', widget: 'parascope-mfu', module: 'lib/engine.js',
    // The page's one engine breaks (a RangeError, as from a trap) on the ops only this widget asks, once armed.
    rewrite: (js) => js.replace(/const answer = \(request\) => /, `const answer = (request) => (globalThis.breakEngine
    && ['mfu', 'step'].includes(request?.op)) ? (() => { throw new RangeError('injected: engine call'); })() : `),
    note: '[data-note="engine-failed"]', says: /The engine failed on these settings \(injected: engine call\)/, afterChange: true },
];

/**
 * Moves the widget's selects (each option in turn) and sliders (a step) until its figure's text changes: resolves to
 * 'changed', or to what was tried. Some moves change nothing in words (H100 to H200 keeps the same NVLink).
 */
async function changeSomething(page, tag) {
  return page.evaluate(async (tag) => {
    const host = document.querySelector(tag);
    const text = () => host.shadowRoot.querySelector('.body').textContent;
    const before = text();
    const changed = async () => {
      for (let i = 0; i < 10; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        if (text() !== before) return true;
      }
      return false;
    };
    const fire = (control) => {
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
    };
    const tried = [];
    for (const select of host.shadowRoot.querySelectorAll('select:not(:disabled)')) {
      for (let k = 1; k < Math.min(select.options.length, 6); k += 1) {
        select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
        fire(select);
        if (await changed()) return 'changed';
      }
      tried.push(select.name);
    }
    for (const slider of host.shadowRoot.querySelectorAll('input[type="range"]:not(:disabled)')) {
      if (Number(slider.value) < Number(slider.max)) slider.stepUp();
      else slider.stepDown();
      fire(slider);
      if (await changed()) return 'changed';
      tried.push(slider.name);
    }
    return `nothing changed (${tried.join(', ')})`;
  }, tag);
}

for (const fault of FAULTS) {
  test(`one widget failing (${fault.widget}: ${fault.what}) leaves the others working and says so in place`, async () => {
    const { page, problems, context } = await openPage(site(), 'about:blank');
    try {
      await context.route(`**/${fault.module ?? `widgets/${fault.widget.replace("parascope-", "")}/element.js`}`, async (route) => {
        const response = await route.fetch();
        const js = await response.text();
        const injected = fault.rewrite(js);
        assert.notEqual(injected, js, 'the fault went in');
        await route.fulfill({ response, body: injected });
      });
      await page.goto(new URL('tests/faults.html', site().url).href);
      await page.waitForFunction(() => window.registered);
      await page.evaluate(async () => {
        await window.registered;  // every widget loaded or failed
        window.dispatchEvent(new Event('beforeprint'));  // starts every widget at once
      });
      const others = WIDGETS.filter((w) => w !== fault.widget);
      await page.waitForFunction((names) => names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')),
        others, { timeout: 30000 }).catch((err) => { throw new Error(`${err.message}\n${problems.join('\n')}`); });
      const failing = page.locator(fault.widget);
      if (fault.afterChange) {
        await page.waitForFunction((n) => document.querySelector(n)?.hasAttribute('data-ready'), fault.widget);
        await page.evaluate(() => { globalThis.breakEngine = true; });
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

test('in the article\'s production bundle too, a widget whose module throws leaves the others working', async () => {
  const { page, problems, context } = await openPage(site(), 'about:blank');
  try {
    await context.route('**/js/main-*.js', async (route) => {  // esbuild inlines each widget behind a lazy init
      const response = await route.fetch();
      const js = await response.text();
      const injected = js.replace(/customElements\.define\("parascope-ring",/,
        '(()=>{throw new Error("injected: bundle")})(),customElements.define("parascope-ring",');
      assert.notEqual(injected, js, 'the fault went in');
      await route.fulfill({ response, body: injected });
    });
    await page.goto(site().url);
    const note = page.locator('parascope-ring [data-out="load-failed"]');
    await note.waitFor({ state: 'attached', timeout: 30000 });
    assert.match(await note.textContent(), /^This figure could not start: its script failed \(injected: bundle\)/);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    const others = WIDGETS.filter((w) => w !== 'parascope-ring');
    await page.waitForFunction((names) => names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')),
      others, { timeout: 30000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
