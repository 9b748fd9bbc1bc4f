// <parascope-planner> in headless Chromium: a small plan equal to the engine's answer, its best row loaded into the
// MFU figure (same MFU) and the others, a search cancelled by a new input (the page keeps painting meanwhile), a
// worker that cannot start shown as a note, the scatter walked by keyboard, a short seeded walk over the real
// controls, the unbundled files, and 360/1280 px light/dark screenshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { planRequest } from '../../web/widgets/planner/model/request.js';
import { nodePlannerEngine } from '../js/node-engine.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodePlannerEngine(); // the planner worker's module: the one with the plan op
const site = useSite(before, after);
const BAD_TEXT = /NaN|Infinity|undefined/;

/** Waits until the planner's newest search has finished (an answer, or a note saying why not). */
async function searched(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const el = document.querySelector('parascope-planner');
    return el?.hasAttribute('data-ready') && !el.hasAttribute('data-searching');
  }, null, { timeout });
}

/** The text of the planner's output `name` (data-out). */
const out = (page, name) => page.evaluate((n) => document.querySelector('parascope-planner').shadowRoot
  .querySelector(`[data-out="${n}"]`).textContent, name);

/** The table as shown: rank, MFU (engine's number), texts. */
const shownRows = (page) => page.locator('parascope-planner tbody tr[data-rank]').evaluateAll((rows) =>
  rows.map((r) => ({ rank: Number(r.dataset.rank), mfu: Number(r.querySelector('.col-mfu').dataset.value),
    text: r.textContent })));

const inputsOf = (page) => page.evaluate(() => ({ ...document.querySelector('parascope-planner').inputs }));

test('a small plan shows the engine\'s ranking; its best row loads into the MFU figure with the same MFU', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  const inputs = await inputsOf(page);
  const expected = engine.call(planRequest(inputs));
  assert.ok(expected.results.length > 0);
  const rows = await shownRows(page);
  assert.deepEqual(rows.map((r) => r.mfu), expected.results.map((r) => r.mfu));
  for (const r of rows) assert.doesNotMatch(r.text, BAD_TEXT);
  const best = expected.results[0];
  const text = await out(page, 'best');
  assert.match(text, new RegExp(`MFU ${(best.mfu * 100).toFixed(1)}\\s%`));

  await page.locator('parascope-planner tbody tr[data-rank="1"] button.planner-load').click();
  await page.waitForFunction((v) => {
    const el = document.querySelector('parascope-mfu');
    return el?.hasAttribute('data-ready') && el.shadowRoot.querySelector('[data-out="modelled-mfu"]')?.dataset.value === String(v);
  }, best.mfu, { timeout: 20000 });
  const mfuText = await page.locator('parascope-mfu [data-out="modelled-mfu"]').textContent();
  assert.equal(mfuText, `${(best.mfu * 100).toFixed(1)} %`);
  // The split controls show the plan's split.
  const split = await page.locator('parascope-mfu').evaluate((el) => {
    const root = el.shadowRoot;
    const num = (name) => Number(root.querySelector(`input[name="${name}"]`).getAttribute('aria-valuetext').replace(/,/g, ''));
    return { tp: num('tp'), pp: num('pp'), microbatch_size: num('microbatch_size'),
      schedule: root.querySelector('select[name="schedule"]').value };
  });
  assert.deepEqual(split, { tp: best.parallel.tp, pp: best.parallel.pp, microbatch_size: best.parallel.microbatch_size,
    schedule: best.parallel.schedule });
  // Each other figure took it too, and says what it cannot show.
  await page.waitForFunction((pp) => {
    const bubble = document.querySelector('parascope-bubble');
    return bubble.hasAttribute('data-ready') && bubble.shadowRoot.querySelector('input[name="stages"]').value === String(Math.min(32, pp));
  }, best.parallel.pp);
  for (const tag of ['parascope-axes', 'parascope-bubble', 'parascope-mfu']) {
    const note = await page.locator(`${tag} [data-note="planner"]`).textContent();
    assert.match(note, /^From the planner: dp \d+ · tp \d+ · pp \d+/, tag);
  }
  const axesTp = await page.locator('parascope-axes').evaluate((el) => el.state.tp);
  assert.equal(axesTp, best.parallel.tp);
  assert.match(await out(page, 'loaded'),
    /^Rank 1 is loaded into the four axes, the bubble, the MFU figure/);
  assert.deepEqual(problems, []);
});

test('a new input cancels the running search; the page keeps painting while the worker searches', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  // A large search, then a small one before it can finish: only the small one's answer is shown.
  await page.evaluate(() => {
    window.gaps = [];
    let last = performance.now();
    const tick = (t) => { window.gaps.push(t - last); last = t; if (window.gaps.length < 100000) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await page.locator('parascope-planner select[name="model"]').selectOption('megatron-1t');
  await page.locator('parascope-planner select[name="gpus"]').selectOption('3072');
  await page.locator('parascope-planner select[name="globalBatch"]').selectOption('3072');
  const progressed = await page.waitForFunction(() => {
    const el = document.querySelector('parascope-planner');
    return el.hasAttribute('data-searching') && /Searching/.test(el.shadowRoot.querySelector('[data-out="progress"]').textContent);
  }, null, { timeout: 10000 }).then(() => true, () => false);
  await page.locator('parascope-planner select[name="model"]').selectOption('llama3-8b');
  await page.locator('parascope-planner select[name="gpus"]').selectOption('16');
  await page.locator('parascope-planner select[name="globalBatch"]').selectOption('64');
  await searched(page);
  const inputs = await inputsOf(page);
  assert.deepEqual({ model: inputs.model, gpus: inputs.gpus, globalBatch: inputs.globalBatch },
    { model: 'llama3-8b', gpus: 16, globalBatch: 64 });
  const expected = engine.call(planRequest(inputs));
  assert.deepEqual((await shownRows(page)).map((r) => r.mfu), expected.results.map((r) => r.mfu));
  // The answer shown is the newest request's, even after the cancelled search would have finished.
  await page.waitForTimeout(1500);
  assert.deepEqual((await shownRows(page)).map((r) => r.mfu), expected.results.map((r) => r.mfu));
  const answered = await page.evaluate(() => document.querySelector('parascope-planner').answered.request);
  assert.deepEqual(answered, planRequest(inputs));
  const gaps = await page.evaluate(() => window.gaps.slice(2));
  assert.ok(Math.max(...gaps) < 1000, `the page froze for ${Math.round(Math.max(...gaps))} ms (progress shown: ${progressed})`);
  assert.deepEqual(problems, []);
});

test('a worker that cannot start is a note, not a frozen figure; the next input tries again', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/\/worker(-[A-Z2-7]{8})?\.js$/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(new URL('tests/planner.html', site().url).href);
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  const note = page.locator('parascope-planner [data-note="plan"]');
  await note.waitFor();
  assert.match(await note.textContent(), /^The search could not finish: the search could not run/);
  assert.match(await out(page, 'progress'), /stopped/);
  await context.unroute(/\/worker(-[A-Z2-7]{8})?\.js$/);
  await page.locator('parascope-planner select[name="gpus"]').selectOption('8');
  await searched(page);
  await page.waitForFunction(() => !document.querySelector('parascope-planner').shadowRoot.querySelector('[data-note="plan"]'));
  assert.ok(Number(await page.locator('parascope-planner').getAttribute('data-results')) > 0);
});

test('the scatter is reachable by keyboard: arrows walk the points and the readout names each split', async () => {
  const { page } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  const plot = page.locator('parascope-planner [data-out="scatter"]');
  await plot.focus();
  await page.keyboard.press('ArrowRight');
  const first = await out(page, 'point');
  assert.match(first, /^dp \d+ · tp \d+ · pp \d+.*MFU \d+\.\d\s%, step .* per GPU, (fits in|does not fit in|too close to the)/);
  await page.keyboard.press('End');
  const last = await out(page, 'point');
  assert.notEqual(last, first);
  assert.match(await plot.getAttribute('aria-label'), /^Scatter of the [\d,]+ costed configurations as [\d,]+ dots/);
  // Hovering a point shows it too.
  const box = await plot.boundingBox();
  const target = await page.evaluate(() => document.querySelector('parascope-planner').layout.points[0]);
  await page.mouse.move(box.x + target.x, box.y + target.y);
  assert.match(await out(page, 'point'), /^dp \d+/);
});

test('a short seeded walk over the real controls: every answer is the engine\'s, no NaN, no refusal left', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner.html', { width: 1000 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  const rnd = seededRandom(7);
  const choices = { model: ['llama3-8b', 'gpt2-124m', 'llama3-70b', 'mixtral-8x7b'], hardware: ['h100-sxm', 'a100-80gb', 'b200'],
    gpus: ['8', '16', '32', '64'], globalBatch: ['16', '32', '64', '128'], objective: ['mfu', 'step_time', 'memory'] };
  for (let step = 0; step < 8; step += 1) {
    const key = Object.keys(choices)[Math.floor(rnd() * 5)];
    const value = choices[key][Math.floor(rnd() * choices[key].length)];
    await page.locator(`parascope-planner select[name="${key}"]`).selectOption(value);
    await searched(page);
    const inputs = await inputsOf(page);
    const expected = engine.call(planRequest(inputs));
    assert.deepEqual((await shownRows(page)).map((r) => r.mfu), expected.results.map((r) => r.mfu), `step ${step}`);
    const text = await page.evaluate(() => document.querySelector('parascope-planner').shadowRoot.querySelector('.body').textContent);
    assert.doesNotMatch(text, BAD_TEXT);
    assert.equal(await page.locator('parascope-planner .note').count(), 0, `step ${step}: a note is standing`);
  }
  assert.deepEqual(problems, []);
});

test('optimizer offload: a plan that fits only with the optimizer on the host, its row loaded with its share', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  // Llama 3 70B on 16 H100s under the figure's software (Megatron-Core): nothing fits unless the optimizer's Adam
  // state goes to the host.
  for (const [name, value] of [['model', 'llama3-70b'], ['gpus', '16'], ['globalBatch', '64']]) {
    await page.locator(`parascope-planner select[name="${name}"]`).selectOption(value);
    await searched(page);
  }
  assert.equal(await page.locator('parascope-planner').getAttribute('data-results'), '0');
  assert.match(await out(page, 'best'), /^No configuration to rank: none fits/);
  await page.locator('parascope-planner select[name="offload"]').selectOption('1');
  await searched(page);
  const inputs = await inputsOf(page);
  assert.equal(inputs.offload, 1);
  const request = planRequest(inputs);
  assert.equal(request.offload_optimizer, 1);
  const expected = engine.call(request);
  assert.ok(expected.results.length > 0, 'something fits with the optimizer on the host');
  assert.deepEqual((await shownRows(page)).map((r) => r.mfu), expected.results.map((r) => r.mfu));
  for (const r of await shownRows(page)) assert.match(r.text, /optimizer 100 % on the host/);
  const link = await page.locator('parascope-planner').evaluate((el) => el.linkState());
  assert.equal(link.offload, '1');
  // The best row, loaded: the MFU figure shows the row's MFU (its step has the optimizer on the host), the memory and
  // step figures hold the share.
  const best = expected.results[0];
  assert.equal(best.parallel.offload_optimizer, 1);
  await page.locator('parascope-planner tbody tr[data-rank="1"] button.planner-load').click();
  await page.waitForFunction((v) => {
    const el = document.querySelector('parascope-mfu');
    return el?.hasAttribute('data-ready') && el.shadowRoot.querySelector('[data-out="modelled-mfu"]')?.dataset.value === String(v);
  }, best.mfu, { timeout: 30000 });
  await page.waitForFunction(() => {
    const el = document.querySelector('parascope-memory');
    return el?.hasAttribute('data-ready') && el.shadowRoot.querySelector('select[name="offload"]')?.value === '1';
  }, null, { timeout: 30000 });
  assert.equal(await page.locator('parascope-step').evaluate((el) => el.linkState().offload), '1');
  assert.equal(await page.locator('parascope-mfu').evaluate((el) => el.linkState().offload), '1');
  // On a TPU the engine refuses offload: the figure says why in a reader's words.
  await page.locator('parascope-planner select[name="hardware"]').selectOption('tpu-v5p');
  await searched(page);
  const note = page.locator('parascope-planner [data-note="plan"]');
  await note.waitFor();
  assert.match(await note.textContent(), /TPUs.*Optimizer state on the host/);
  assert.doesNotMatch(await note.textContent(), /offload_optimizer|host_bandwidth/);
  await page.locator('parascope-planner select[name="offload"]').selectOption('0');
  await searched(page);
  await page.waitForFunction(() => !document.querySelector('parascope-planner').shadowRoot.querySelector('[data-note="plan"]'));
  assert.deepEqual(problems, []);
});

test('software stack: the engine\'s list offered, the plan costed for the one picked, said in the export and the notes', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  const select = page.locator('parascope-planner select[name="software"]');
  const offered = await select.evaluate((el) => [...el.options].map((o) => o.value));
  assert.deepEqual(offered, engine.call({ op: 'presets' }).software, "the engine's stacks, in its order");
  assert.equal(await select.inputValue(), 'megatron-core');
  const before = (await shownRows(page)).map((r) => r.mfu);
  await select.selectOption('pytorch');
  await searched(page);
  const inputs = await inputsOf(page);
  assert.equal(inputs.software, 'pytorch');
  const request = planRequest(inputs);
  assert.equal(request.software, 'pytorch');
  const expected = engine.call(request);
  const rows = (await shownRows(page)).map((r) => r.mfu);
  assert.deepEqual(rows, expected.results.map((r) => r.mfu));
  assert.notDeepEqual(rows, before, 'another stack, another ranking');
  const shown = await page.locator('parascope-planner').evaluate((el) => {
    const f = el.exportFigure();
    return { request: el.answered.request.software, title: f.title, data: f.data.request.software,
      link: el.linkState().software };
  });
  assert.deepEqual(shown, { request: 'pytorch', title: shown.title, data: 'pytorch', link: 'pytorch' });
  assert.match(shown.title, /, costed for PyTorch \(eager\)$/);
  // A row's launcher export names the stack its numbers are for.
  await page.locator('parascope-planner tbody tr[data-rank="1"] button.planner-export').click();
  await page.waitForFunction(() => /costed for PyTorch \(eager\)\) in a launcher/.test(
    document.querySelector('parascope-planner').shadowRoot.textContent), null, { timeout: 20000 });
  await page.keyboard.press('Escape');
  // Loaded into the MFU figure, which costs the default stack: its note says so.
  await page.locator('parascope-planner tbody tr[data-rank="1"] button.planner-load').click();
  const note = page.locator('parascope-mfu [data-note="planner"]');
  await note.waitFor();
  assert.match(await note.textContent(), /The planner costed it for PyTorch \(eager\); this figure costs every run for Megatron-Core/);
  assert.deepEqual(problems, []);
});

test('software in a permalink opens the plan for that stack; a bad one is a note and the figure plans on', async () => {
  const { page, problems } = await openPage(site(), '#planner.software=nanotron&planner.gpus=64&planner.global-batch=64', { width: 1280 });
  const widget = await widgetReady(page, 'parascope-planner');
  await searched(page, 120000);
  assert.equal(await page.locator('parascope-planner select[name="software"]').inputValue(), 'nanotron');
  const inputs = await inputsOf(page);
  assert.deepEqual({ software: inputs.software, gpus: inputs.gpus }, { software: 'nanotron', gpus: 64 });
  assert.deepEqual((await shownRows(page)).map((r) => r.mfu), engine.call(planRequest(inputs)).results.map((r) => r.mfu));
  assert.equal(await widget.evaluate((el) => el.linkState().software), 'nanotron', 'and back into the link');
  assert.deepEqual(problems, []);

  const bad = await openPage(site(), '#planner.software=%3Cb%3Ebogus&planner.gpus=64&planner.global-batch=64', { width: 1280 });
  await widgetReady(bad.page, 'parascope-planner');
  await searched(bad.page, 120000);
  const text = await bad.page.locator('parascope-planner [data-note="attr-software"]').textContent();
  assert.match(text, /^Link value software="<b>bogus" must be one of megatron-core, .*nanotron.*; using megatron-core\./);
  assert.equal(await bad.page.locator('parascope-planner select[name="software"]').inputValue(), 'megatron-core');
  assert.ok(Number(await bad.page.locator('parascope-planner').getAttribute('data-results')) > 0, 'it still plans');
  assert.equal(await bad.page.locator('parascope-planner b').count(), 0, 'the value is text, never markup');
  assert.deepEqual(bad.problems, []);
});

test('the unbundled module files plan too (the worker loads its engine from lib/)', async () => {
  const { page, problems } = await openPage(site(), 'tests/planner-unbundled.html', { width: 1000 });
  await widgetReady(page, 'parascope-planner');
  await searched(page);
  assert.ok(Number(await page.locator('parascope-planner').getAttribute('data-results')) > 0);
  assert.deepEqual(problems, []);
});

for (const width of [360, 1280]) {
  for (const scheme of ['light', 'dark']) {
    test(`the article's planner at ${width} px, ${scheme}: fills its reserved height, nothing wider than the page`, async () => {
      const { page, problems } = await openPage(site(), '#plan', { width, height: 1000 });
      await page.emulateMedia({ colorScheme: scheme });
      const widget = await widgetReady(page, 'parascope-planner');
      await searched(page, 120000);
      const size = await widget.evaluate((el) => ({ host: el.getBoundingClientRect().height,
        body: el.shadowRoot.querySelector('.body').getBoundingClientRect().height,
        scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(size.scroll <= size.client, `page scrolls sideways: ${size.scroll} > ${size.client}`);
      assert.ok(Math.abs(size.host - size.body) <= 2, `reserved ${size.host} px, drawn ${size.body} px`);
      const clipped = await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('tbody tr:not(.blank) td:not(.col-split)')]
        .filter((td) => td.scrollWidth > td.clientWidth + 1 || td.getBoundingClientRect().right > td.closest('tr').getBoundingClientRect().right + 1)
        .map((td) => td.textContent));
      assert.deepEqual(clipped, [], 'numbers cut off in the ranked table');
      await widget.screenshot({ path: new URL(`planner-${width}-${scheme}.png`, SCREENSHOTS).pathname });
      assert.deepEqual(problems, []);
    });
  }
}
