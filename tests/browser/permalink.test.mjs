// Permalinks in headless Chromium: each widget's state goes into the URL hash under its own key, "Copy link" gives a
// link that opens the same state with the same engine numbers, and hostile hash values are parsed like attributes:
// clamped or replaced, each with a visible note, never injected.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { openPage, useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);

/** Every control's value and every engine number the widget shows, by name (the state and what it was drawn from). */
function snapshot(widget) {
  return widget.evaluate((el) => {
    const root = el.shadowRoot;
    const controls = {};
    for (const c of root.querySelectorAll('input[name], select[name]')) {
      if (c.closest('.tools')) continue;
      if (c.type === 'radio') { if (c.checked) controls[c.name] = c.value; continue; }
      controls[c.name] = c.type === 'checkbox' ? c.checked : c.value;
    }
    const shown = {};
    for (const o of root.querySelectorAll('[data-out]')) {
      const name = o.dataset.out;
      if (['announce', 'tools-status', 'copied-link', 'op'].includes(name)) continue;
      shown[name] = `${o.textContent}|${o.dataset.value ?? ''}`;
    }
    return { controls, shown };
  });
}

/** Sets a range or select inside the widget the way a reader does: value, then input and change events. */
async function set(widget, selector, value) {
  await widget.locator(selector).first().evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

/** The link "Copy link" gives (the clipboard may be closed to a headless page; the widget keeps the link it made). */
async function copiedLink(widget) {
  await widget.locator('button[name="copy-link"]').evaluate((b) => b.click());
  await widget.page().waitForFunction((el) => el.dataset.link, await widget.elementHandle());
  return widget.evaluate((el) => el.dataset.link);
}

const WIDGETS = {
  bubble: async (w) => {
    await set(w, 'select[name="schedule"]', 'interleaved');
    await set(w, 'input[name="stages"]', 6);
    await set(w, 'input[name="microbatches"]', 24);
  },
  ring: async (w) => {
    await set(w, 'input[name="gpus"]', 12);
    await set(w, 'select[name="hardware"]', 'a100-80gb');
    await set(w, 'select[name="bytes"]', String(2 ** 24));
  },
  axes: async (w) => {
    await w.locator('[role="tab"][data-axis="expert"]').click();
    await set(w, 'input[name="skew"]', 2.3);
    await w.page().waitForTimeout(100);
  },
  mfu: async (w) => {
    await w.locator('input[name="preset"][value="gpt3-175b"]').check();
    await w.locator('select[name="recompute"]').selectOption('full');
  },
  memory: async (w) => {
    await set(w, 'select[name="recompute"]', 'full');
    await set(w, 'select[name="zero"]', '2');
    await set(w, 'input[name="stage"]', 3);
  },
  run: async (w) => {
    await set(w, 'input[name="gpus"]', 2);
    await set(w, 'input[name="failure-rate"]', 9);
    await set(w, 'select[name="checkpoint-mode"]', 'async');
  },
  context: async (w) => {
    await set(w, 'input[name="cp"]', 2);
    await set(w, 'select[name="tp"]', '8');
    await set(w, 'select[name="variant"]', 'all-gather');
  },
  nccl: async (w) => {
    await set(w, 'select[name="example"]', 'a100-1x8');
    await w.page().waitForFunction((el) => !el.hasAttribute('data-loading'), await w.elementHandle());
  },
};

for (const [name, move] of Object.entries(WIDGETS)) {
  test(`${name}: a changed state goes into the hash; its copied link opens the same state and engine numbers`, async () => {
    const selector = `parascope-${name}`;
    const first = await openPage(site(), '');
    const widget = await widgetReady(first.page, selector);
    const before = await snapshot(widget);
    await move(widget);
    await first.page.waitForFunction((key) => location.hash.includes(`${key}.`), name);
    const state = await snapshot(widget);
    assert.notDeepEqual(state, before, 'the move changed the figure');
    const link = await copiedLink(widget);
    assert.ok(link.startsWith(`${site().url}#${name}.`), link);
    assert.equal(await first.page.evaluate(() => location.href), link, 'the address bar is the link');
    assert.deepEqual(first.problems, []);
    await first.context.close();

    const second = await openPage(site(), link.slice(site().url.length));
    const reopened = await widgetReady(second.page, selector);
    const top = await second.page.evaluate((sel) => document.querySelector(sel).getBoundingClientRect().top, selector);
    assert.ok(Math.abs(top) < 4, `the link opens at the figure (its top at ${top}px)`);
    assert.deepEqual(await snapshot(reopened), state);
    assert.equal(await reopened.locator('.note').count(), 0, 'no note: every value in the link was valid');
    assert.deepEqual(second.problems, []);
    await second.context.close();
  });
}

test('a link copied after touching every figure opens at the figure it was copied from, each figure restored', async () => {
  const first = await openPage(site(), '');
  const states = {};
  for (const name of Object.keys(WIDGETS)) {
    const widget = await widgetReady(first.page, `parascope-${name}`);
    await WIDGETS[name](widget);
    await first.page.waitForFunction((key) => location.hash.includes(`${key}.`), name);
  }
  for (const name of Object.keys(WIDGETS)) states[name] = await snapshot(first.page.locator(`parascope-${name}`));
  const from = 'ring';  // neither the first figure of the page nor the last one touched
  const link = await copiedLink(first.page.locator(`parascope-${from}`));
  for (const name of Object.keys(WIDGETS)) assert.match(link, new RegExp(`[#&]${name}\\.`), `${name} is in ${link}`);
  assert.deepEqual(first.problems, []);
  await first.context.close();

  const second = await openPage(site(), link.slice(site().url.length));
  // Every figure the link names starts at once; none is scrolled to by the test before the page's own scroll is read.
  await second.page.waitForFunction((tags) => tags.every((t) => {
    const el = document.querySelector(t);
    return el?.hasAttribute('data-ready') && !el.hasAttribute('data-routing');
  }), Object.keys(WIDGETS).map((n) => `parascope-${n}`));
  await second.page.waitForTimeout(200);
  const top = await second.page.evaluate((sel) => document.querySelector(sel).getBoundingClientRect().top, `parascope-${from}`);
  assert.ok(Math.abs(top) < 4, `the link opens at the ${from} figure (its top at ${top}px): ${link}`);
  for (const name of Object.keys(WIDGETS)) {
    assert.deepEqual(await snapshot(second.page.locator(`parascope-${name}`)), states[name], name);
  }
  assert.deepEqual(second.problems, []);
  await second.context.close();
});

test('"Copy link" right after a change, before the address has caught up: the address bar already is the link', async () => {
  const { page, problems, context } = await openPage(site(), '');
  const widget = await widgetReady(page, 'parascope-bubble');
  // The change and the click in one task: the address is written only once input pauses (widget.js stateChanged).
  await widget.evaluate((el) => {
    const stages = el.shadowRoot.querySelector('input[name="stages"]');
    stages.value = '6';
    stages.dispatchEvent(new Event('input', { bubbles: true }));
    stages.dispatchEvent(new Event('change', { bubbles: true }));
    el.shadowRoot.querySelector('button[name="copy-link"]').click();
  });
  await page.waitForFunction((el) => el.dataset.link, await widget.elementHandle());
  const link = await widget.evaluate((el) => el.dataset.link);
  assert.match(link, /bubble\.stages=6/);
  assert.equal(await page.evaluate(() => location.href), link);
  assert.deepEqual(problems, []);
  await context.close();
});

test('hostile hash values are parsed like attributes: clamped or replaced, each with a visible note, never injected', async () => {
  const hostile = new URLSearchParams({
    'bubble.stages': '999', 'bubble.microbatches': '-5', 'bubble.schedule': '<img src=x onerror=alert(1)>',
    'bubble.chunks': '1e400', 'bubble.onclick': 'alert(2)', 'ring.gpus': '99', 'ring.bytes': '1e999',
    'ring.hardware': '"><script>alert(3)</script>', 'mfu.preset': 'x'.repeat(3000),
  });
  const { page, problems, context } = await openPage(site(), `#${hostile}`);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  const bubble = await widgetReady(page, 'parascope-bubble');
  const notes = (w) => w.locator('.note').evaluateAll((els) => els.map((e) => e.textContent));
  const said = await notes(bubble);
  assert.ok(said.includes('Link value stages="999" must be a whole number from 1 to 32; using 32.×'), said.join('\n'));
  assert.ok(said.includes('Link value microbatches="-5" must be a whole number from 1 to 128; using 1.×'), said.join('\n'));
  assert.ok(said.some((t) => t.startsWith('Link value schedule="<img src=x onerror=alert(1)>" must be one of')));
  assert.ok(said.some((t) => t.startsWith('Link value chunks="1e400" must be a whole number from 1 to 8')));
  assert.equal(await bubble.locator('img').count(), 0, 'nothing injected');
  assert.equal(await bubble.evaluate((el) => el.hasAttribute('onclick')), false);
  assert.equal(await bubble.locator('input[name="stages"]').inputValue(), '32', 'clamped to the slider\'s end');
  // The figure is drawn for what the notes say (1 microbatch per step may move on; the controls settle it).
  assert.ok(Number(await bubble.locator('[data-out="efficiency"]').getAttribute('data-value')) > 0);

  const ring = await widgetReady(page, 'parascope-ring');
  const ringSaid = await notes(ring);
  assert.ok(ringSaid.some((t) => t.startsWith('Link value gpus="99" must be a whole number from 2 to 16; using 16.')), ringSaid.join('\n'));
  assert.ok(ringSaid.some((t) => t.startsWith('Link value bytes="1e999" must be a decimal number above 0')), ringSaid.join('\n'));
  assert.ok(ringSaid.some((t) => t.startsWith('Link value hardware=""><script>alert(3)</script>" must be one of')));
  assert.equal(await ring.locator('script').count(), 0);

  const mfu = await widgetReady(page, 'parascope-mfu');
  const mfuSaid = await notes(mfu);
  assert.ok(mfuSaid.some((t) => /^Link value preset="x{60}…" must be one of/.test(t)), 'a long value is cut in the note');
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('several widgets on one page keep their own keys, numbered or named', async () => {
  const first = await openPage(site(), 'tests/two-bubbles.html');
  const one = await widgetReady(first.page, '#first');
  const two = await widgetReady(first.page, '#second');
  const named = await widgetReady(first.page, '#named');
  await set(two, 'input[name="stages"]', 5);
  await set(named, 'input[name="microbatches"]', 40);
  await set(one, 'select[name="schedule"]', 'zb-h2');
  await first.page.waitForFunction(() => ['bubble.', 'bubble-2.', 'deep.'].every((k) => location.hash.includes(k)));
  const hash = await first.page.evaluate(() => location.hash);
  assert.match(hash, /bubble-2\.stages=5/);
  assert.match(hash, /deep\.microbatches=40/);
  assert.match(hash, /bubble\.schedule=zb-h2/);
  const states = [await snapshot(one), await snapshot(two), await snapshot(named)];
  await first.context.close();

  const second = await openPage(site(), `tests/two-bubbles.html${hash}`);
  const again = [];
  for (const id of ['#first', '#second', '#named']) again.push(await snapshot(await widgetReady(second.page, id)));
  assert.deepEqual(again, states);
  assert.deepEqual(second.problems, []);
  await second.context.close();
});

/** Random moves of real controls, by widget: each returns after the widget has taken the move. */
const RANDOM_MOVES = {
  bubble: async (w, random) => {
    const schedules = ['gpipe', '1f1b', 'interleaved', 'zb-h1', 'zb-h2', 'dualpipe'];
    await set(w, 'select[name="schedule"]', schedules[Math.floor(random() * schedules.length)]);
    await set(w, 'input[name="stages"]', 1 + Math.floor(random() * 32));
    await set(w, 'input[name="microbatches"]', 1 + Math.floor(random() * 128));
    if (!(await w.locator('input[name="chunks"]').isDisabled())) await set(w, 'input[name="chunks"]', 1 + Math.floor(random() * 8));
    const box = w.locator('input[name="forward-only"]');
    if (!(await box.isDisabled()) && random() < 0.5) await box.evaluate((b) => b.click());
  },
  mfu: async (w, random) => {
    const presets = ['palm-540b', 'gpt3-175b', 'megatron-1t', 'llama3-405b'];
    await w.locator(`input[name="preset"][value="${presets[Math.floor(random() * presets.length)]}"]`).check();
    for (const name of ['tp', 'pp', 'global_batch']) {
      const slider = w.locator(`input[name="${name}"]`);
      if (await slider.isDisabled()) continue;
      const max = Number(await slider.getAttribute('max'));
      await set(w, `input[name="${name}"]`, Math.floor(random() * (max + 1)));
    }
    await set(w, 'select[name="recompute"]', ['none', 'selective', 'full'][Math.floor(random() * 3)]);
  },
};

for (const [name, move] of Object.entries(RANDOM_MOVES)) {
  test(`${name}: a seeded walk of random states, each reopened from its link with the same controls and numbers`, async () => {
    const { seededRandom } = await import('../seeded-random.mjs');
    const random = seededRandom(name === 'bubble' ? 1301 : 1302);
    const selector = `parascope-${name}`;
    for (let step = 0; step < 4; step += 1) {
      const first = await openPage(site(), '');
      const widget = await widgetReady(first.page, selector);
      await move(widget, random);
      await first.page.waitForTimeout(300);  // the hash follows 150 ms after the last change, once the page is idle
      const state = await snapshot(widget);
      const link = await copiedLink(widget);
      await first.page.waitForFunction((l) => location.href === l, link, { timeout: 3000 }).catch(() => {});
      assert.equal(await first.page.evaluate(() => location.href), link, `step ${step}: the address bar is the link`);
      await first.context.close();
      const second = await openPage(site(), link.slice(site().url.length));
      const again = await snapshot(await widgetReady(second.page, selector));
      assert.deepEqual(again, state, `step ${step}: ${link}`);
      assert.deepEqual(second.problems, []);
      await second.context.close();
    }
  });
}
