// "Use my config" and "Export as…" as pure state (lib/model/config-io.js, the planner's and the MFU figure's imported
// runs) on the planner's wasm engine: published configs detected and read back whole, refusals in a reader's words
// naming the line, exports as the engine writes them.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import {
  EXPORT_FORMATS,
  IMPORT_FORMATS,
  detectFormat,
  exportRequest,
  exportView,
  importErrorText,
  importRequest,
  importView,
} from '../../web/lib/model/config-io.js';
import { importedRun } from '../../web/widgets/mfu/model/custom.js';
import { presetSplit, settle } from '../../web/widgets/mfu/model/split.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { IMPORTED, importedInputs, modelLabel } from '../../web/widgets/planner/model/imported.js';
import { nodePlannerEngine } from './node-engine.mjs';

const engine = await nodePlannerEngine();
const presets = engine.call({ op: 'presets' });
const fixture = (path) => readFile(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** Published configs as shipped (tests/fixtures/*: each folder's README names where and at which version). */
const PUBLISHED = [
  ['hf-configs/meta-llama-3-8b.json', 'huggingface'],
  ['hf-configs/deepseek-v3.json', 'huggingface'],
  ['hf-configs/gpt-oss-20b.json', 'huggingface'],
  ['hf-configs/mixtral-8x7b-v0.1.json', 'huggingface'],
  ['megatron-args/train_gpt3_175b_distributed.sh', 'megatron'],
  ['nemo-recipes/llama3_8b_pretrain_2gpu_h100_bf16.yaml', 'nemo'],
  ['torchtitan-configs/llama3_70b.toml', 'torchtitan'],
  ['deepspeed-configs/ds_config_zero3.json', 'deepspeed'],
  ['nanotron-configs/config_tiny_llama.yaml', 'nanotron'],
];
const BASE = { model: 'llama3-8b', hardware: 'h100-sxm', cluster: { gpus: 8 }, parallel: { global_batch: 64 } };

test('each published config is detected from its file name, and from its text alone', async () => {
  for (const [path, format] of PUBLISHED) {
    const text = await fixture(path);
    assert.equal(detectFormat(text, path.split('/').pop()), format, path);
    assert.equal(detectFormat(text), format, `${path} without its name`);
  }
  assert.equal(detectFormat('hello'), null, 'no guess: the reader chooses');
});

/** A published file's text as a reader would give it: Megatron-LM's GPT-3 example on the 16 nodes its split needs. */
const given = async (path) => (await fixture(path)).replace('NUM_NODES=1\n', 'NUM_NODES=16\n');

test('the preview lists every key the engine left unmapped, set aside or assumed, each with a reason', async () => {
  for (const [path, format] of PUBLISHED) {
    const answer = engine.call(importRequest(format, await given(path), { base: BASE, vocab: 50257 }));
    const v = importView(answer, (id) => presets.hardware.find((x) => x.id === id).name);
    assert.deepEqual(
      v.unmapped.map((x) => x.key),
      answer.unmapped.map((x) => x.key),
      path,
    );
    assert.deepEqual(
      v.ignored.map((x) => x.key),
      answer.ignored.map((x) => x.key),
      path,
    );
    assert.deepEqual(
      v.assumed.map((x) => x.key),
      answer.assumed.map((x) => x.field),
      path,
    );
    for (const x of [...v.unmapped, ...v.ignored, ...v.assumed]) {
      assert.match(x.why, /\.$/, `${path} ${x.key}: a sentence`);
      assert.doesNotMatch(x.why, /`/, `${path} ${x.key}: no API quoting`);
      assert.doesNotMatch(x.why, /\bbase\b|until you give/, `${path} ${x.key}: no API advice`);
    }
    assert.ok(v.sentences.length >= 3, path);
    assert.doesNotMatch(v.sentences.join(' '), /undefined|NaN|\[object/);
  }
  const llama = importView(engine.call(importRequest('huggingface', await fixture('hf-configs/meta-llama-3-8b.json'))));
  assert.equal(
    llama.sentences[0],
    'Model: 32 layers of width 4,096, 32 heads, a 128,256-token vocabulary at 8,192 tokens per sequence.',
  );
  const hardware = llama.assumed.find((x) => x.key.includes('hardware'));
  assert.equal(
    hardware.why,
    'the file describes the model only: the engine runs it on 8 accelerators (h100-sxm), a global batch of 8 sequences.',
  );
  const recipe = engine.call(
    importRequest('nemo', await fixture('nemo-recipes/llama3_8b_pretrain_2gpu_h100_bf16.yaml')),
  );
  const named = importView(recipe, (id) => presets.hardware.find((x) => x.id === id).name).assumed;
  assert.deepEqual(
    named.map((x) => x.why),
    [
      'a recipe does not name the GPU: NVIDIA H100 SXM5 80GB.',
      'a recipe does not say how many GPUs (the launcher does): 2, one data-parallel replica of its split.',
    ],
  );
  const ds = engine.call(
    importRequest('deepspeed', await fixture('deepspeed-configs/ds_config_zero3.json'), { base: BASE }),
  );
  assert.equal(ds.request.model, 'llama3-8b', "DeepSpeed's model is the figure's (base)");
});

test('a typed sequence length reaches the engine for a config.json only', () => {
  assert.equal(importRequest('huggingface', '{}', { seq: 4096 }).seq, 4096);
  assert.equal(importRequest('megatron', '--x', { seq: 4096 }).seq, undefined);
  assert.equal(importRequest('huggingface', '{}', { seq: 0 }).seq, undefined);
  assert.equal(importRequest('megatron', '--x', { vocab: 50257 }).vocab, 50257);
  assert.equal(importRequest('nemo', 'a: 1', { vocab: 50257 }).vocab, undefined);
  assert.equal(
    importRequest('huggingface', '{}', { base: BASE }).base,
    undefined,
    'base only where the file has no model',
  );
});

test('refusals are said for a reader, naming the line the engine names, never in its words', () => {
  const cases = [
    ['huggingface', '{\n  "hidden_size": 4096,\n  oops\n}', /^This text is not valid JSON on line 3: /],
    ['huggingface', '[1, 2]', /^The text is not laid out as this Hugging Face config\.json is/],
    ['torchtitan', '[model]\nname = "llama3"\nflavor = 8B\n', /^This torchtitan TOML could not be read on line 3/],
    ['nemo', 'model:\n\tnum_layers: 2\n', /^This NeMo \/ Megatron-Bridge YAML could not be read on line 2/],
    ['megatron', '--num-layers 2 \\\n  --hidden-size $HIDDEN', /on line 2 \(it concerns --hidden-size, \$HIDDEN\)/],
    [
      'megatron',
      '--lr 1e-4',
      /^This Megatron-LM arguments leaves out a setting the model needs \(it concerns --num-layers\)\.$/,
    ],
    ['deepspeed', '{"train_batch_size": 8}', /does not describe a model, and the figure has none to add\.$/],
    ['megatron', '--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128', /type its size\.$/],
  ];
  for (const [format, text, expected] of cases) {
    let error = null;
    try {
      engine.call(importRequest(format, text));
    } catch (err) {
      error = err;
    }
    assert.ok(error?.code, `${format}: refused`);
    const said = importErrorText(error, format);
    assert.match(said, expected, `${format}: ${error.message}`);
    assert.ok(!said.includes(error.message), 'not the engine message');
  }
});

test("an export is the engine's text, its notes kept whole, under a file name of the figure's words", () => {
  const request = {
    op: 'step',
    model: 'llama3-8b',
    hardware: 'h100-sxm',
    cluster: { gpus: 16 },
    parallel: { tp: 2, pp: 2, global_batch: 64, schedule: 'zb-h1' },
  };
  for (const [format, , ending] of EXPORT_FORMATS) {
    const answer = engine.call(exportRequest(format, request));
    const v = exportView(answer, format, ['plan', 'rank1']);
    assert.equal(v.text, answer.text);
    assert.deepEqual(
      v.notes.map((n) => n.setting),
      (answer.notes ?? []).map((n) => n.setting),
    );
    assert.equal(v.fileName, `parascope-plan-rank1-${ending}`);
  }
  assert.ok(engine.call(exportRequest('megatron', request)).notes.some((n) => n.setting === 'schedule'));
  assert.equal(IMPORT_FORMATS.length, 6); // issue 32's five and nanotron
});

test("an imported run drives the MFU figure (the engine settles it) and the planner's inputs", async () => {
  const answer = engine.call(importRequest('torchtitan', await fixture('torchtitan-configs/llama3_70b.toml')));
  const run = importedRun(answer.request, presets);
  assert.match(run.where, /^\d[\d,]* .* GPUs$/);
  const settled = settle(makeAsker(engine), run, presetSplit(run));
  assert.equal(settled.fellBack, false);
  assert.deepEqual(settled.response, engine.call(answer.request), 'the split as the file gives it');
  const inputs = importedInputs(
    { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 8, globalBatch: 8, objective: 'mfu' },
    answer.request,
    presets,
  );
  assert.equal(inputs.model, answer.request.model);
  assert.equal(inputs.gpus, answer.request.cluster.gpus);
  assert.equal(inputs.globalBatch, answer.request.parallel.global_batch);
  const hf = engine.call(importRequest('huggingface', await fixture('hf-configs/qwen3-8b.json')));
  assert.match(modelLabel(hf.request.model), /^Your model: 36 layers × 4,096$/);
  assert.equal(modelLabel(hf.request.model, true), 'imported-36x4096');
  assert.ok(!presets.models.some((m) => m.id === IMPORTED));
});
