// "Use my config" and "Export as…" in Chromium, Firefox ESR and WebKitGTK, light and dark, at 1280 and 360 px: a file
// dropped (a DataTransfer holding a File, as from the desktop) on the MFU figure and a text pasted into the planner's
// box, each shown as the engine reads it and then used; a malformed file answered with a reader's sentence; every
// export's text equal to the engine's config_export answer. Screenshots of the open panels go to
// tests/browser/screenshots/<engine>/config-io-*.png. PARASCOPE_ENGINES=firefox,webkit runs a subset.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import { EXPORT_FORMATS, exportRequest, importRequest } from '../../web/lib/model/config-io.js';
import { TEST_PAGES, serve } from '../../scripts/serve.mjs';
import { nodePlannerEngine } from '../js/node-engine.mjs';
import { ENGINE_NAMES, launchEngine } from './engines/index.mjs';

const SCREENSHOTS = new URL('./screenshots/', import.meta.url);
const ENGINES = process.env.PARASCOPE_ENGINES ? process.env.PARASCOPE_ENGINES.split(',') : ENGINE_NAMES;
const engine = await nodePlannerEngine();
const fixture = (path) => readFile(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const mixtral = await fixture('hf-configs/mixtral-8x7b-v0.1.json');
const bridge = await fixture('nemo-recipes/llama3_8b_pretrain_2gpu_h100_bf16.yaml');

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

const shadowOf = (win, tag) => win.document.querySelector(tag).shadowRoot;

function ready(win, tag) {
  const el = win.document.querySelector(tag);
  el?.scrollIntoView({ block: 'start' });
  return Boolean(el?.hasAttribute('data-ready') && !el.hasAttribute('data-searching'));
}

/** Clicks the widget's button `name` (in its shadow root); true when there was one. */
function press(win, tag, name) {
  const b = win.document.querySelector(tag).shadowRoot.querySelector(`button[name="${name}"]`);
  if (!b) return false;
  b.scrollIntoView({ block: 'center' });
  b.click();
  return true;
}

/** The text of [data-out=name] in the widget, or null while it is not there. */
function outText(win, tag, name) {
  return win.document.querySelector(tag).shadowRoot.querySelector(`[data-out="${name}"]`)?.textContent ?? null;
}

/** The <code> names listed under [data-out=name]. */
function codes(win, tag, name) {
  const box = win.document.querySelector(tag).shadowRoot.querySelector(`[data-out="${name}"]`);
  return box ? [...box.querySelectorAll('li code')].map((c) => c.textContent) : null;
}

/** Drops `text` as a file `name` on the drop zone: dragover then drop, each carrying one DataTransfer with the File. */
function dropFile(win, tag, name, text) {
  const zone = win.document.querySelector(tag).shadowRoot.querySelector('[data-out="drop-zone"]');
  if (!zone) return false;
  const transfer = new win.DataTransfer();
  transfer.items.add(new win.File([text], name, { type: 'text/plain' }));
  zone.dispatchEvent(new win.DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  zone.dispatchEvent(new win.DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  return true;
}

/** Pastes `text` into the text box: the text lands, then the paste event fires, as a paste from the clipboard does. */
function paste(win, tag, text) {
  const box = win.document.querySelector(tag).shadowRoot.querySelector('textarea[name="config-text"]');
  if (!box) return false;
  box.focus();
  box.value = text;
  box.dispatchEvent(new win.Event('paste', { bubbles: true }));
  return true;
}

function chooseFormat(win, tag, format) {
  const select = win.document.querySelector(tag).shadowRoot.querySelector('select[name="export-format"]');
  select.value = format;
  select.dispatchEvent(new win.Event('change', { bubbles: true }));
  return select.value;
}

/** The step request the MFU figure shows (its export's data) and its modelled MFU. */
function mfuShown(win) {
  const el = win.document.querySelector('parascope-mfu');
  return { request: el.exportFigure().data.request, mfu: el.shadowRoot.querySelector('[data-out="modelled-mfu"]').dataset.value };
}

function plannerInputs(win) {
  const el = win.document.querySelector('parascope-planner');
  return el.hasAttribute('data-searching') ? null : el.answered?.inputs ?? null;
}

function scrollToOut(win, tag, name) {
  win.document.querySelector(tag).shadowRoot.querySelector(`[data-out="${name}"]`)?.scrollIntoView({ block: 'start' });
  return new Promise((resolve) => win.requestAnimationFrame(() => win.requestAnimationFrame(() => resolve(true))));
}

function pageWidth(win) {
  return win.document.documentElement.scrollWidth <= win.innerWidth;
}

// ---- the tests ----

let site;
before(async () => {
  site = await serve({ port: 0, testPages: TEST_PAGES });
});
after(async () => {
  await new Promise((resolve) => site?.server.close(resolve));
});

const until = (page, fn, args, what) => page.waitFor(fn, args, { timeout: 60_000, what });

for (const name of ENGINES) {
  for (const colorScheme of ['light', 'dark']) {
    describe(`${name}, ${colorScheme}`, () => {
      let browser;
      before(async () => {
        browser = await launchEngine(name, { colorScheme });
      });
      after(async () => {
        await browser?.close();
      });
      for (const width of [1280, 360]) {
        test(`${width} px: a dropped config.json and a pasted YAML are read, shown and used; exports are the engine's`, async () => {
          const page = await browser.open(new URL('tests/planner.html', site.url).href, { width, height: 900 });
          const dir = new URL(`${name}/`, SCREENSHOTS);
          await mkdir(dir, { recursive: true });
          const shot = (what) => page.screenshot(new URL(`config-io-${what}-${width}-${colorScheme}.png`, dir).pathname);
          try {
            // The MFU figure: Mixtral's config.json dropped as a file.
            await until(page, ready, ['parascope-mfu'], 'the MFU figure');
            assert.ok(await page.evaluate(press, 'parascope-mfu', 'config-import'));
            await until(page, (win, t) => Boolean(win.document.querySelector(t).shadowRoot.querySelector('[data-out="drop-zone"]')), ['parascope-mfu'], 'the drop zone');
            assert.ok(await page.evaluate(dropFile, 'parascope-mfu', 'config.json', mixtral));
            await until(page, outText, ['parascope-mfu', 'config-read'], 'the engine\'s reading');
            const read = engine.call(importRequest('huggingface', mixtral));
            assert.match(await page.evaluate(outText, 'parascope-mfu', 'config-read'), /32 layers of width 4,096, 32 heads, 8 experts \(2 per token\)/);
            assert.deepEqual(await page.evaluate(codes, 'parascope-mfu', 'config-unmapped') ?? [], read.unmapped.map((u) => u.key));
            assert.deepEqual(await page.evaluate(codes, 'parascope-mfu', 'config-assumed'), read.assumed.map((u) => u.field));
            await page.evaluate(scrollToOut, 'parascope-mfu', 'config-read');
            await shot('mfu-import');
            assert.ok(await page.evaluate(press, 'parascope-mfu', 'config-use'));
            const step = engine.call(read.request);
            await until(page, (win, mfu) => win.document.querySelector('parascope-mfu').shadowRoot
              .querySelector('[data-out="modelled-mfu"]').dataset.value === mfu, [String(step.mfu)], 'the imported run\'s MFU');
            // Its export, in every format, is the engine's.
            assert.ok(await page.evaluate(press, 'parascope-mfu', 'config-export'));
            await until(page, outText, ['parascope-mfu', 'export-text'], 'the export');
            const { request } = await page.evaluate(mfuShown);
            for (const [format] of EXPORT_FORMATS) {
              await page.evaluate(chooseFormat, 'parascope-mfu', format);
              assert.equal(await page.evaluate(outText, 'parascope-mfu', 'export-text'), engine.call(exportRequest(format, request)).text, format);
            }
            await page.evaluate(scrollToOut, 'parascope-mfu', 'export-title');
            await shot('mfu-export');
            // The planner: a Bridge recipe pasted, then a malformed one.
            await until(page, ready, ['parascope-planner'], 'the planner');
            assert.ok(await page.evaluate(press, 'parascope-planner', 'config-import'));
            await until(page, (win, t) => Boolean(win.document.querySelector(t).shadowRoot.querySelector('textarea[name="config-text"]')), ['parascope-planner'], 'the text box');
            assert.ok(await page.evaluate(paste, 'parascope-planner', 'model:\n\tnum_layers: 2\n'));
            await until(page, outText, ['parascope-planner', 'config-error'], 'the refusal');
            assert.equal(await page.evaluate(outText, 'parascope-planner', 'config-error'),
              'This NeMo / Megatron-Bridge YAML could not be read on line 2: is it the right format?');
            assert.ok(await page.evaluate(paste, 'parascope-planner', bridge));
            await until(page, outText, ['parascope-planner', 'config-read'], 'the engine\'s reading');
            const recipe = engine.call(importRequest('nemo', bridge));
            assert.equal((await page.evaluate(codes, 'parascope-planner', 'config-unmapped') ?? []).length, recipe.unmapped.length);
            await page.evaluate(scrollToOut, 'parascope-planner', 'config-read');
            await shot('planner-import');
            assert.ok(await page.evaluate(press, 'parascope-planner', 'config-use'));
            const inputs = await until(page, (win, gpus) => {
              const el = win.document.querySelector('parascope-planner');
              return !el.hasAttribute('data-searching') && el.answered?.inputs.gpus === gpus ? el.answered.inputs : null;
            }, [recipe.request.cluster.gpus], 'the search on the imported run');
            assert.deepEqual(inputs.model, recipe.request.model);
            assert.equal(inputs.globalBatch, recipe.request.parallel.global_batch);
            assert.ok(await page.evaluate(pageWidth), 'nothing wider than the page');
            assert.deepEqual(await page.problems(), []);
          } finally {
            await page.close();
          }
        });
      }
    });
  }
}
