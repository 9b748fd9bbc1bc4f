// "Use my model / my config" and "Export as…" (issue 32's page half) in headless Chromium: a real file drop
// (DataTransfer) and a paste into the planner and the MFU figure, the engine's reading shown before it is used, then
// used; every export's text equal to the engine's config_export answer; bad input answered with a reader's sentence
// and nothing else broken; no request leaves the page.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { EXPORT_FORMATS, exportRequest, importRequest } from '../../web/lib/model/config-io.js';
import { nodePlannerEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodePlannerEngine();
const site = useSite(before, after);
const fixture = (path) => readFile(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const llama8b = await fixture('hf-configs/meta-llama-3-8b.json');
const titan = await fixture('torchtitan-configs/llama3_8b.toml');

/** Opens the config panel of `widget` (its tools row) and waits for its text box. */
async function openImport(widget) {
  await widget.locator('button[name="config-import"]').click();
  await widget.locator('textarea[name="config-text"]').waitFor();
}

/** Drops `text` as a file called `name` on the widget's drop zone, as a reader's drag from the desktop does. */
async function dropFile(page, widget, name, text) {
  const transfer = await page.evaluateHandle(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: 'text/plain' }));
      return dt;
    },
    [name, text],
  );
  const zone = widget.locator('[data-out="drop-zone"]');
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

const listed = (widget, out) => widget.locator(`[data-out="${out}"] li code`).allTextContents();

test('MFU figure: a dropped config.json is shown as the engine reads it, then runs with its numbers', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1280 });
  const widget = await widgetReady(page, 'parascope-mfu');
  const asked = [];
  page.on('request', (r) => asked.push([r.method(), new URL(r.url()).pathname, r.postData() ?? '']));
  await openImport(widget);
  await dropFile(page, widget, 'config.json', llama8b);
  const read = widget.locator('[data-out="config-read"]');
  await read.waitFor();
  // Nothing leaves the page: files are fetched (the panels' code; the planner's engine, preloaded), nothing is sent (the harness
  // also aborts any request to another origin).
  for (const [method, path, body] of asked) {
    assert.equal(method, 'GET', path);
    assert.equal(body, '', path);
    assert.ok(!path.includes('128256'), path);
  }
  assert.ok(asked.some(([, path]) => /\/config-io[^/]*\.js$/.test(path)), 'the panels\' code, on the first click');
  const answer = engine.call(importRequest('huggingface', llama8b));
  assert.match(await read.textContent(), /32 layers of width 4,096, 32 heads/);
  assert.equal(await widget.locator('textarea[name="config-text"]').inputValue(), llama8b);
  assert.deepEqual(await listed(widget, 'config-assumed'), answer.assumed.map((a) => a.field));
  assert.equal(await widget.locator('[data-out="config-unmapped"]').textContent(), 'Every setting that bears on cost was used.');
  assert.match(await widget.locator('[data-out="config-check"]').textContent(), /costs this run/);
  await widget.locator('button[name="config-use"]').click();
  const step = engine.call(answer.request);
  await page.waitForFunction((mfu) => document.querySelector('parascope-mfu').shadowRoot
    .querySelector('[data-out="modelled-mfu"]').dataset.value === String(mfu), step.mfu);
  assert.match(await widget.locator('.mfu-about').textContent(), /^Your config: 32 layers of width 4,096/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('MFU figure: a pasted torchtitan TOML lists what it left unmapped; a bad one gets a sentence and breaks nothing', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1280 });
  const widget = await widgetReady(page, 'parascope-mfu');
  const before = await widget.locator('[data-out="modelled-mfu"]').getAttribute('data-value');
  await openImport(widget);
  const box = widget.locator('textarea[name="config-text"]');
  await box.focus();
  await page.evaluate((t) => navigator.clipboard?.writeText?.(t).catch(() => {}), titan).catch(() => {});
  // A paste: the text lands in the box and the paste event fires (the clipboard itself is the browser's).
  await box.evaluate((el, t) => {
    el.value = t;
    el.dispatchEvent(new ClipboardEvent('paste', { bubbles: true }));
  }, titan.replace('flavor = "8B"', 'flavor = "8B"\nmystery_key = 3'));
  await widget.locator('[data-out="config-read"]').waitFor();
  const answer = engine.call(importRequest('torchtitan', titan.replace('flavor = "8B"', 'flavor = "8B"\nmystery_key = 3')));
  assert.ok(answer.unmapped.some((u) => u.key.includes('mystery_key')));
  assert.deepEqual(await listed(widget, 'config-unmapped'), answer.unmapped.map((u) => u.key));
  // Bad input: a TOML with a date is refused by the engine naming the line; the reader reads a sentence.
  await box.evaluate((el) => {
    el.value = '[model]\nname = "llama3"\nflavor = 8B\n';
    el.dispatchEvent(new ClipboardEvent('paste', { bubbles: true }));
  });
  const error = widget.locator('[data-out="config-error"]');
  await error.waitFor();
  assert.equal(await error.textContent(), 'This torchtitan TOML could not be read on line 3: is it the right format?');
  assert.equal(await widget.locator('button[name="config-use"]').count(), 0, 'nothing to use');
  assert.equal(await widget.locator('[data-out="modelled-mfu"]').getAttribute('data-value'), before, 'the figure as it was');
  assert.deepEqual(problems, []);
  await context.close();
});

test('export as…: the MFU figure\'s run and a planner row, in each format, equal to the engine\'s config_export', async () => {
  const { page, problems, context } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  const mfu = await widgetReady(page, 'parascope-mfu');
  await mfu.locator('button[name="config-export"]').click();
  const text = mfu.locator('[data-out="export-text"]');
  await text.waitFor();
  const request = await mfu.evaluate((el) => el.exportFigure().data.request);
  for (const [format] of EXPORT_FORMATS) {
    await mfu.locator('select[name="export-format"]').selectOption(format);
    const answer = engine.call(exportRequest(format, request));
    assert.equal(await text.textContent(), answer.text, format);
    assert.deepEqual(await mfu.locator('[data-out="export-notes"] li code').allTextContents(),
      (answer.notes ?? []).map((n) => n.setting), `${format} notes`);
  }
  const planner = await widgetReady(page, 'parascope-planner');
  await page.waitForFunction(() => !document.querySelector('parascope-planner').hasAttribute('data-searching'));
  await planner.locator('tr[data-rank="2"] button[name="planner-export"]').click();
  const rowText = planner.locator('[data-out="export-text"]');
  await rowText.waitFor();
  const rowRequest = await planner.evaluate((el) => {
    const r = el.answer.results[1];
    const i = el.answered.inputs;
    return { op: 'step', model: i.model, hardware: i.hardware, cluster: { gpus: i.gpus },
      parallel: { ...r.parallel, global_batch: i.globalBatch }, ...(r.precision ? { precision: r.precision } : {}) };
  });
  assert.equal(await rowText.textContent(), engine.call(exportRequest('megatron', rowRequest)).text);
  assert.match(await planner.locator('[data-out="export-title"]').textContent(), /^Rank 2 /);
  // Download: the file holds the same text.
  const [download] = await Promise.all([page.waitForEvent('download'),
    planner.locator('button[name="export-download"]').click()]);
  const saved = await readFile(await download.path(), 'utf8');
  assert.equal(saved, engine.call(exportRequest('megatron', rowRequest)).text);
  assert.match(download.suggestedFilename(), /^parascope-plan-rank2-.*-megatron\.sh$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('planner: a dropped Megatron-LM launch sets the model, GPUs and batch, and the search runs on it', async () => {
  const { page, problems, context } = await openPage(site(), 'tests/planner.html', { width: 1280 });
  const planner = await widgetReady(page, 'parascope-planner');
  await page.waitForFunction(() => !document.querySelector('parascope-planner').hasAttribute('data-searching'));
  const launch = [
    'torchrun --nproc-per-node 8 --nnodes 4 pretrain_gpt.py \\',
    '  --num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 4096 \\',
    '  --vocab-size 32000 --swiglu --tensor-model-parallel-size 2 \\',
    '  --micro-batch-size 1 --global-batch-size 128 --bf16 --lr 3e-4',
  ].join('\n');
  await openImport(planner);
  await dropFile(page, planner, 'train.sh', launch);
  await planner.locator('[data-out="config-read"]').waitFor();
  const answer = engine.call(importRequest('megatron', launch));
  assert.deepEqual(await planner.locator('.cfg-ignored li code').allTextContents(), answer.ignored.map((x) => x.key));
  await planner.locator('button[name="config-use"]').click();
  await page.waitForFunction(() => {
    const el = document.querySelector('parascope-planner');
    return !el.hasAttribute('data-searching') && el.answered?.inputs.gpus === 32;
  });
  const inputs = await planner.evaluate((el) => el.answered.inputs);
  assert.deepEqual(inputs.model, answer.request.model);
  assert.equal(inputs.globalBatch, 128);
  assert.equal(await planner.locator('select[name="model"]').inputValue(), '(imported)');
  const plan = engine.call({ op: 'plan', model: answer.request.model, hardware: inputs.hardware, cluster: { gpus: 32 },
    global_batch: 128, objective: inputs.objective, top_k: 10 });
  assert.equal(Number(await planner.locator('tr[data-rank="1"] .col-mfu').getAttribute('data-value')), plan.results[0].mfu);
  await page.screenshot({ path: new URL('config-io-planner.png', SCREENSHOTS).pathname, fullPage: false });
  assert.deepEqual(problems, []);
  await context.close();
});

test('every control of the panels: format chosen by hand, sequence length, a chosen file, copy, close, keyboard', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 360 });
  const widget = await widgetReady(page, 'parascope-mfu');
  // Keyboard: the tools row's button opens the panel.
  await widget.locator('button[name="config-import"]').focus();
  await page.keyboard.press('Enter');
  await widget.locator('textarea[name="config-text"]').waitFor();
  assert.equal(await widget.locator('button[name="config-import"]').getAttribute('aria-expanded'), 'true');
  // A chosen file (the file input), read as its name says.
  await widget.locator('input[name="config-file"]').setInputFiles({ name: 'config.json', mimeType: 'application/json',
    buffer: Buffer.from(llama8b) });
  await widget.locator('[data-out="config-read"]').waitFor();
  assert.match(await widget.locator('[data-out="config-read"]').textContent(), /at 8,192 tokens per sequence/);
  // A typed sequence length reaches the engine.
  await widget.locator('input[name="config-seq"]').fill('2048');
  await widget.locator('input[name="config-seq"]').dispatchEvent('change');
  await page.waitForFunction(() => /at 2,048 tokens per sequence/.test(document.querySelector('parascope-mfu').shadowRoot
    .querySelector('[data-out="config-read"]')?.textContent));
  assert.deepEqual(await listed(widget, 'config-assumed'),
    engine.call(importRequest('huggingface', llama8b, { seq: 2048 })).assumed.map((a) => a.field));
  // The wrong format chosen by hand: the engine refuses, said for a reader.
  for (const format of ['megatron', 'nemo', 'torchtitan', 'deepspeed', 'huggingface']) {
    await widget.locator('select[name="config-format"]').selectOption(format);
    let refusal = null;
    try {
      engine.call(importRequest(format, llama8b, { seq: 2048, base: await widget.evaluate((el) =>
        ({ ...el.exportFigure().data.request, op: undefined })) }));
    } catch (err) {
      refusal = err;
    }
    if (refusal) {
      await widget.locator('[data-out="config-error"]').waitFor();
      assert.doesNotMatch(await widget.locator('[data-out="config-error"]').textContent(), new RegExp(refusal.message.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    } else {
      await widget.locator('[data-out="config-read"]').waitFor();
    }
  }
  // The "read it" button reads again; the panel closes with its button.
  await widget.locator('button[name="config-read"]').click();
  await widget.locator('[data-out="config-read"]').waitFor();
  await widget.locator('button[name="config-import"]').click();
  assert.equal(await widget.locator('[data-out="config-panel"] > *').count(), 0);
  // Export: copy (the clipboard, or the text selected where the page may not write it), then close.
  await widget.locator('button[name="config-export"]').click();
  await widget.locator('[data-out="export-text"]').waitFor();
  await widget.locator('button[name="export-copy"]').click();
  await page.waitForFunction(() => /^(Copied|Selected: copy it with your keyboard)$/.test(
    document.querySelector('parascope-mfu').shadowRoot.querySelector('[data-out="export-status"]').textContent));
  await widget.locator('button[name="export-close"]').click();
  assert.equal(await widget.locator('[data-out="config-panel"] > *').count(), 0);
  // "Your run" has no split: the export button says so instead of an empty panel.
  await widget.locator('input[name="preset"][value="your-run"]').check();
  await widget.locator('button[name="config-export"]').click();
  assert.match(await widget.locator('[data-out="config-panel"]').textContent(), /there is none to export/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `the page is ${width} px wide`);
  assert.deepEqual(problems, []);
  await context.close();
});
