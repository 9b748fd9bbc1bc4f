// <parascope-axes> in headless Chromium: WAI-ARIA tabs, the engine's traffic per tab, the busiest expert outlined,
// labels of 11 px or more that do not overlap at 360 and 1280 px in light and dark, a steady height, and a seeded
// walk over the real controls that never reaches a refusal.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';
import { seededRandom } from '../seeded-random.mjs';

const engine = await nodeEngine();
const RUN = { model: 'mixtral-8x7b', hardware: 'h100-sxm', cluster: { gpus: 64 },
  parallel: { tp: 2, pp: 4, ep: 8, global_batch: 256 } };  // the article page's attributes
const TABS = ['data', 'tensor', 'pipeline', 'expert', 'all'];
const placement = engine.call({ op: 'placement', ...RUN });
const traffic = engine.call({ op: 'traffic', ...RUN });
/** The article's routing: one sequence of 32,768 tokens on each of the 8 EP ranks (expert group crosses nodes). */
const route = (skew) => engine.call({ op: 'moe_route', tokens: 262144, experts: 8, top_k: 2, ep: 8, skew, seed: 1,
  hidden: 4096, hardware: 'h100-sxm', ranks_per_node: placement.axes.find((a) => a.axis === 'expert').members_per_node });
/** The traffic the table shows at `skew`: the routing's router_imbalance in the step's efficiency (issue 25, item 6). */
const routedTraffic = (skew) => engine.call({ op: 'traffic', ...RUN, efficiency: { router_imbalance: route(skew).router_imbalance } });
const holders = (expert) => placement.ranks.filter((r) => r.experts[0] <= expert && expert < r.experts[1]).map((r) => r.rank);
const site = useSite(before, after);

const tab = (widget, axis) => widget.locator(`[role="tab"][data-axis="${axis}"]`);

/** Moves the skew slider and waits until the panel shows that skew. */
async function setSkew(page, widget, skew) {
  await widget.locator('input[name="skew"]').fill(String(skew));
  await page.waitForFunction((s) => document.querySelector('parascope-axes').shadowRoot
    .querySelector('[data-out="expert-title"]')?.textContent.endsWith(`skew ${s}.`), skew.toFixed(1));
}

test('the axis buttons are WAI-ARIA tabs: roles, aria-selected, aria-controls, roving tabindex, ←/→/Home/End', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-axes');
  assert.equal(await widget.locator('[role="tablist"]').count(), 1);
  assert.ok((await widget.locator('[role="tablist"]').getAttribute('aria-label')).length > 0);
  assert.equal(await widget.locator('[role="tab"]').count(), 5);
  const check = async (selected) => {
    for (const axis of TABS) {
      const t = tab(widget, axis);
      assert.equal(await t.getAttribute('aria-selected'), String(axis === selected), `${axis} aria-selected`);
      assert.equal(await t.getAttribute('tabindex'), axis === selected ? '0' : '-1', `${axis} tabindex`);
    }
    const panelId = await tab(widget, selected).getAttribute('aria-controls');
    const panel = widget.locator(`#${panelId}`);
    assert.equal(await panel.getAttribute('role'), 'tabpanel');
    assert.equal(await panel.getAttribute('aria-labelledby'), await tab(widget, selected).getAttribute('id'));
    assert.equal(await tab(widget, selected).evaluate((b) => b.matches(':focus')), true, `${selected} focused`);
  };
  await tab(widget, 'all').focus();
  await page.keyboard.press('ArrowRight');
  await check('data');
  await page.keyboard.press('ArrowRight');
  await check('tensor');
  await page.keyboard.press('End');
  await check('all');
  await page.keyboard.press('Home');
  await check('data');
  await page.keyboard.press('ArrowLeft');
  await check('all');
  // Tab leaves the tablist for the panel (one tab stop for the whole list).
  await page.keyboard.press('Tab');
  assert.equal(await widget.locator('[role="tabpanel"]').evaluate((p) => p.matches(':focus')), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('each tab shows every axis row of the engine traffic, its own row marked, and links for its axis only', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  for (const axis of TABS) {
    await tab(widget, axis).click();
    assert.equal(await widget.locator('.axes-table tbody tr').count(), traffic.axes.length);
    if (axis !== 'all') {
      assert.equal(await widget.locator('.axes-table tr.selected').getAttribute('data-axis'), axis);
      assert.equal(await widget.locator(`path.link:not([data-axis="${axis}"])`).count(), 0);
    }
    assert.ok((await widget.locator('path.link').count()) > 0, `${axis}: traffic drawn`);
    for (const want of routedTraffic(1).axes) {  // the article's skew
      const row = widget.locator(`.axes-table tr[data-axis="${want.axis}"]`);
      for (const field of ['bytes_per_gpu', 'time', 'hidden_fraction', 'count']) {
        assert.equal(Number(await row.locator(`[data-field="${field}"]`).getAttribute('data-value')), want[field]);
      }
      for (const field of ['collective', 'splits', 'link']) {
        assert.equal(await row.locator(`[data-field="${field}"]`).getAttribute('data-value'), want[field]);
      }
    }
  }
  // The all-to-all is drawn from the focused GPU only (a star), not between every pair of every group.
  await tab(widget, 'expert').click();
  assert.equal(await widget.locator('path.link').count(), 7);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the grid tags each GPU with its shard, the key says what it holds, and links follow the nodes', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-axes');
  await tab(widget, 'pipeline').click();
  const labels = await widget.locator('.gpu-label').allTextContents();
  assert.deepEqual(labels, placement.ranks.map((r) => `P${r.pp}`));
  const key = await widget.locator('.axes-key[data-tab="pipeline"]').textContent();
  for (const s of [0, 1, 2, 3]) {
    const r = placement.ranks.find((x) => x.pp === s);
    assert.ok(key.includes(`P${s} layers ${r.layers[0][0]}–${r.layers[0][1] - 1}`), key);
  }
  // Pipeline groups are 16 ranks apart: every stage boundary crosses nodes here (placement says "inter").
  assert.equal(placement.axes.find((a) => a.axis === 'pipeline').link, 'inter');
  assert.equal(await widget.locator('path.link.intra').count(), 0);
  await tab(widget, 'tensor').click();
  assert.equal(await widget.locator('path.link.inter').count(), 0);
  // Clicking a GPU focuses it: the slider, the readout and the links follow.
  await widget.locator('.gpu[data-rank="13"]').click();
  assert.equal(await widget.locator('input[name="focus"]').inputValue(), '13');
  assert.match(await widget.locator('[data-out="readout"]').textContent(), /^GPU 13, node 1: replica 6 of 8; tensor rank 1 of 2/);
  assert.deepEqual(await widget.locator('path.link').evaluateAll((ls) => ls.length), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at skew 0 the outline follows the busiest expert the engine names; per-microbatch and per-step are labelled', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  await tab(widget, 'expert').click();
  for (const skew of [0, 2.5]) {
    await setSkew(page, widget, skew);
    const r = route(skew);
    assert.equal(await widget.locator('[data-out="a2a-time"]').getAttribute('data-value'), String(r.time));
    assert.equal(await widget.locator('.expert-bars .load.hot').getAttribute('data-expert'), String(r.hot_expert));
    const hot = await widget.locator('.gpu.hot').evaluateAll((gs) => gs.map((g) => Number(g.dataset.rank)));
    assert.deepEqual(hot, holders(r.hot_expert), `skew ${skew}`);
    assert.match(await widget.locator('[data-out="hot-expert"]').textContent(), new RegExp(`^expert ${r.hot_expert}: `));
  }
  await setSkew(page, widget, 0);
  assert.equal(route(0).hot_expert, 6);  // and hot_rank 0: the two differ at skew 0
  // The change is announced politely, and the slider's value text names the state.
  assert.equal(await widget.locator('[data-out="announce"]').getAttribute('aria-live'), 'polite');
  await page.waitForFunction(() => /^Router skew 0\.0: busiest expert 6 at /.test(
    document.querySelector('parascope-axes').shadowRoot.querySelector('[data-out="announce"]').textContent));
  assert.match(await widget.locator('input[name="skew"]').getAttribute('aria-valuetext'), /^0\.0: busiest expert 6 at/);
  const terms = await widget.locator('.expert-facts dt').allTextContents();
  assert.ok(terms.includes('One dispatch all-to-all (per MoE layer, per microbatch)'), terms.join(' | '));
  assert.ok(!terms.includes('Busiest GPU'));
  const heads = await widget.locator('.axes-table thead th').allTextContents();
  for (const h of ['times per step', 'bytes per GPU per step', 'time per step']) assert.ok(heads.includes(h), heads.join(' | '));
  assert.match(await widget.locator('.axes-table caption').textContent(), /one training step/);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Every visible text in the widget: its size in CSS pixels and, for SVG labels, its box. */
function measureText(host) {
  const out = { small: [], overlaps: [], linksAboveLabels: 0, labelFill: null };
  const root = host.shadowRoot;
  const walk = (node) => {
    for (const child of node.children) {
      if (child.tagName === 'style' || child.tagName === 'LINK') continue;
      const hasText = [...child.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (hasText && child.checkVisibility({ visibilityProperty: true })) {
        const scale = child instanceof SVGGraphicsElement ? child.getScreenCTM().a : 1;
        const px = parseFloat(getComputedStyle(child).fontSize) * scale;
        if (px < 11) out.small.push(`${child.textContent.trim().slice(0, 30)}: ${px.toFixed(1)} px`);
      }
      walk(child);
    }
  };
  walk(root);
  for (const figure of root.querySelectorAll('svg.axes-grid, svg.expert-bars')) {
    const boxes = [...figure.querySelectorAll('text')].map((t) => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const [ta, a] = boxes[i];
        const [tb, b] = boxes[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 0.5 && h > 0.5) out.overlaps.push(`${ta} / ${tb}`);
      }
    }
  }
  const grid = root.querySelector('svg.axes-grid');
  const order = [...grid.children];
  out.linksAboveLabels = order.indexOf(grid.querySelector('g.traffic')) > order.indexOf(grid.querySelector('g.labels')) ? 1 : 0;
  out.labelFill = getComputedStyle(grid.querySelector('.gpu-label')).fill;
  out.fg = getComputedStyle(root.querySelector('.frame')).color;
  out.wide = document.documentElement.scrollWidth;
  return out;
}

for (const width of [360, 1280]) {
  test(`at ${width} px, light and dark: no label under 11 px, none overlapping, links behind labels, every tab`, async () => {
    for (const theme of ['light', 'dark']) {
      const { page, problems, context } = await openPage(site(), '', { width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      const widget = await widgetReady(page, 'parascope-axes');
      for (const axis of TABS) {
        await tab(widget, axis).click();
        const m = await widget.evaluate(measureText);
        assert.deepEqual(m.small, [], `${theme} ${axis}`);
        assert.deepEqual(m.overlaps, [], `${theme} ${axis}`);
        assert.equal(m.linksAboveLabels, 0);
        assert.equal(m.labelFill, m.fg, `${theme}: cell labels use the palette's text colour`);
        assert.ok(m.wide <= width, `${theme} ${axis}: page ${m.wide} px wide`);
        await widget.screenshot({ path: new URL(`axes-${width}-${theme}-${axis}.png`, SCREENSHOTS).pathname });
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
}

test('the height stays put across tabs, router skew and the focused GPU, at 360 and 1280 px', async () => {
  for (const width of [360, 1280]) {
    const { page, problems, context } = await openPage(site(), '', { width, height: 900 });
    const widget = await widgetReady(page, 'parascope-axes');
    const height = async () => (await widget.boundingBox()).height;
    const first = await height();
    const seen = [];
    for (const axis of TABS) {
      await tab(widget, axis).click();
      seen.push([axis, await height()]);
      for (const skew of [0, 3]) {
        await setSkew(page, widget, skew);
        seen.push([`${axis} skew ${skew}`, await height()]);
      }
      await widget.locator('input[name="focus"]').fill('63');
      seen.push([`${axis} GPU 63`, await height()]);
      await widget.locator('input[name="focus"]').fill('0');
    }
    for (const [what, h] of seen) assert.equal(h, first, `${width} px, ${what}: ${h} px, first ${first} px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('a window resized across widths repaints the grid for its width and raises no ResizeObserver loop error', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 700, height: 900 });
  const widget = await widgetReady(page, 'parascope-axes');
  const grid = () => widget.evaluate((el) => {
    const box = el.shadowRoot.querySelector('.axes-grid-box');
    const { width, height } = box.querySelector('svg').viewBox.baseVal;
    return { box: box.clientWidth, width, height, boxHeight: box.clientHeight };
  });
  const heights = new Set();
  for (const width of [1280, 360, 1000, 700]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction(() => new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))); }));
    const g = await grid();
    // drawn for the box's width (a few px of inset), and the box as tall as the drawing
    assert.ok(g.width <= g.box && g.width > g.box - 16, `${width} px: drawn ${g.width} px wide in a ${g.box} px box`);
    assert.equal(g.boxHeight, g.height, `${width} px: the box is as tall as the grid drawn`);
    heights.add(g.height);
  }
  assert.ok(heights.size > 1, 'the grid\'s height follows its width');
  // The grid's height follows its width: painting inside the observer's callback made Chromium fire
  // "ResizeObserver loop completed with undelivered notifications" on the window (the harness collects such events).
  assert.deepEqual(problems, []);
  await context.close();
});

test('a seeded walk over the real controls (tab clicks and keys, skew, focused GPU) never reaches a refusal', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  const next = seededRandom(7);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const routes = new Map();
  let axis = 'all';
  let skew = 1;
  for (let step = 0; step < 30; step += 1) {
    const control = pick(['click', 'key', 'skew', 'focus', 'gpu']);
    if (control === 'click') {
      axis = pick(TABS);
      await tab(widget, axis).click();
    } else if (control === 'key') {
      const key = pick(['ArrowRight', 'ArrowLeft', 'Home', 'End']);
      await tab(widget, axis).focus();
      await page.keyboard.press(key);
      const i = TABS.indexOf(axis);
      axis = { ArrowRight: TABS[(i + 1) % 5], ArrowLeft: TABS[(i + 4) % 5], Home: 'data', End: 'all' }[key];
    } else if (control === 'skew') {
      skew = Math.floor(next() * 31) / 10;
      await setSkew(page, widget, skew);
    } else if (control === 'focus') {
      await widget.locator('input[name="focus"]').fill(String(Math.floor(next() * 64)));
    } else {
      await widget.locator(`.gpu[data-rank="${Math.floor(next() * 64)}"]`).click();
    }
    const where = `step ${step} (${control}): ${axis}, skew ${skew}`;
    if (!routes.has(skew)) routes.set(skew, route(skew));
    const r = routes.get(skew);
    assert.equal(await tab(widget, axis).getAttribute('aria-selected'), 'true', where);
    assert.equal(await widget.locator('.note').count(), 0, where);
    assert.doesNotMatch(await widget.evaluate((w) => w.shadowRoot.textContent), /NaN|Infinity|undefined|\[object/, where);
    assert.equal(await widget.locator('[data-out="a2a-time"]').getAttribute('data-value'), String(r.time), where);
    const hot = await widget.locator('.gpu.hot').evaluateAll((gs) => gs.map((g) => Number(g.dataset.rank)));
    assert.deepEqual(hot, holders(r.hot_expert), where);
    const time = await widget.locator('.axes-table tr[data-axis="expert"] [data-field="time"]').getAttribute('data-value');
    const expert = routedTraffic(skew).axes.find((a) => a.axis === 'expert');
    assert.equal(Number(time), expert.time, `${where}: the table follows the skew`);
    assert.ok(Math.abs(expert.time / expert.count / r.time - 1) < 1e-9, `${where}: each all-to-all as the router panel's`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('your network (issue 31): the all-to-all and the traffic ride your links, said in a note, kept in the link', async () => {
  // As the MFU, step, planner and run figures take them (lib/model/network.js): the cluster's links in the run's
  // placement and traffic, and moe_route's hardware with the same link fields replaced (it takes no cluster).
  const net = { intra_bandwidth: 1e11, inter_bandwidth: 5e9, inter_latency: 2e-5 };
  const hash = '#axes.axis=expert&axes.skew=0&axes.intra-bandwidth=100000000000&axes.inter-bandwidth=5000000000'
    + '&axes.inter-latency=0.00002';
  const h100 = engine.call({ op: 'presets' }).hardware.find((x) => x.id === 'h100-sxm');
  const onNet = { ...RUN, cluster: { ...RUN.cluster, ...net } };
  const netPlacement = engine.call({ op: 'placement', ...onNet });
  const expected = engine.call({ op: 'moe_route', tokens: 262144, experts: 8, top_k: 2, ep: 8, skew: 0, seed: 1,
    hidden: 4096, hardware: { ...h100, ...net },
    ranks_per_node: netPlacement.axes.find((a) => a.axis === 'expert').members_per_node });
  assert.notEqual(expected.time, route(0).time, 'the test network must change the all-to-all');
  assert.equal(expected.link.bandwidth, 5e9);
  const { page, problems, context } = await openPage(site(), hash, { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  await page.waitForFunction(() => !document.querySelector('parascope-axes').hasAttribute('data-routing'));
  assert.equal(await widget.locator('[data-out="a2a-time"]').getAttribute('data-value'), String(expected.time));
  assert.match(await widget.locator('[data-note="network"]').textContent(), /your measured network/);
  // The traffic table is the engine's traffic for the run on your links (with the routing's imbalance).
  const netTraffic = engine.call({ op: 'traffic', ...onNet, efficiency: { router_imbalance: expected.router_imbalance } });
  const shown = await page.evaluate(() => document.querySelector('parascope-axes').traffic);
  assert.deepEqual(shown, netTraffic);
  // A move keeps your links in the permalink.
  await setSkew(page, widget, 0.5);
  await page.waitForFunction(() => /axes\.inter-bandwidth=5000000000/.test(location.hash));
  assert.match(await page.evaluate(() => location.hash), /axes\.intra-bandwidth=100000000000/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes set the first tab and the run; a dense model explains why there is no router', async () => {
  const { page, problems, context } = await openPage(site());
  await widgetReady(page, 'parascope-axes');
  await page.evaluate(() => {
    const el = document.createElement('parascope-axes');
    el.id = 'second';
    Object.entries({ axis: 'tensor', model: 'llama3-70b', gpus: '32', tp: '8', pp: '4', 'global-batch': '32' })
      .forEach(([k, v]) => el.setAttribute(k, v));
    document.querySelector('main').prepend(el);
  });
  const second = await widgetReady(page, '#second');
  // A skew between the slider's steps moves to the nearest one, explained beside the slider (not a note).
  await page.evaluate(() => {
    const el = document.createElement('parascope-axes');
    el.id = 'third';
    el.setAttribute('skew', '1.26');
    document.querySelector('main').prepend(el);
  });
  const third = await widgetReady(page, '#third');
  assert.equal(await third.locator('input[name="skew"]').inputValue(), '1.3');
  assert.match(await third.locator('[data-out="expert-title"]').textContent(), /skew 1\.3\.$/);
  assert.match(await third.locator('label:has(input[name="skew"]) .hint').textContent(), /1\.26 → 1\.3/);
  assert.equal(await third.locator('.note').count(), 0);
  assert.equal(await tab(second, 'tensor').getAttribute('aria-selected'), 'true');
  assert.equal(await second.locator('.gpu-label').first().textContent(), 'T0');
  assert.match(await second.locator('.axes-key[data-tab="tensor"]').textContent(), /T0 heads 0–7/);
  assert.match(await second.locator('[data-out="expert-title"]').textContent(), /dense: it has no experts/);
  assert.equal(await second.locator('.note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
