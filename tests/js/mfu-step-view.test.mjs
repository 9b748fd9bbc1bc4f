// The modelled side's words for an engine answer: devices named by the engine's hardware kind, the dashboard's 100 %
// stated with its condition, a polite announcement of the headline (issue 10 items 5 and 13).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS } from '../../web/widgets/mfu/model/presets.js';
import { deviceWords } from '../../web/widgets/mfu/model/devices.js';
import { presetSplit, sameStepChoices, stepRequest } from '../../web/widgets/mfu/model/split.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { engineList } from '../../web/lib/model/engine-lists.js';
import { bandText, memoryNote, recomputeHint, stepView } from '../../web/widgets/mfu/model/step-view.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const view = (id, patch = {}) => {
  const p = PRESETS.find((x) => x.id === id);
  const r = engine.call(stepRequest(p, { ...presetSplit(p), ...patch }));
  return { r, v: stepView(r, { gpus: p.run.cluster.gpus, words: deviceWords(presets, p.run.hardware) }) };
};

test("PaLM's chips are TPU chips, GPT-3's are GPUs", () => {
  assert.match(view('palm-540b').v.gridLabel, /^6,144 TPU chips: the gauge reads 100 % on each$/);
  assert.match(view('gpt3-175b').v.gridLabel, /^64 GPUs: /);
  assert.doesNotMatch(view('palm-540b').v.dashboardNote, /GPU/);
});

test("the dashboard's 100 % is stated with its condition: waits count only inside a posted receive", () => {
  const { r, v } = view('megatron-1t');
  assert.ok(r.breakdown.bubble > 0);
  assert.match(v.dashboardNote, /resident 100 % of the step/);
  assert.match(v.dashboardNote, /only because the model assumes a waiting stage sits in a posted receive kernel/);
  const palm = view('palm-540b');
  assert.equal(palm.r.breakdown.bubble + palm.r.breakdown.other, 0);
  assert.match(palm.v.dashboardNote, /nothing waits in this step/);
});

test('the headline is announced with its value, and memory that does not fit is said', () => {
  const { r, v } = view('palm-540b', { recompute: 'selective' });
  assert.equal(r.fits, false);
  assert.equal(
    v.announce,
    `Modelled MFU ${v.modelled}; step ${v.stepTime}; a dashboard reads 100 %; does not fit in memory.`,
  );
});

test("one pipeline stage: the engine's float-noise bubble is not called waiting", () => {
  // GPT-3 at tp 16, pp 1 (the preset's interleaved schedule, vpp 3: what the pp slider's Home key reaches): the
  // engine's bubble was 2.8e-14 s (now exactly 0: Step.OneStageHasExactlyNoBubbleAndNoSends); the note said
  // "waiting (0 %: pipeline bubble …)". step-share.test.mjs covers noise below a nanosecond on the figure's side.
  const { r, v } = view('gpt3-175b', { tp: 16, pp: 1 });
  const waits = r.breakdown.bubble + r.breakdown.other;
  assert.ok(waits >= 0 && waits < 1e-9, `waits ${waits} s`);
  assert.match(v.dashboardNote, /nothing waits in this step\.$/);
  assert.doesNotMatch(v.dashboardNote, /\(0 %/);
});

test('beside recomputation: a choice the engine answers as the one chosen is not offered, and why (issue 25 item 4)', () => {
  const twins = (id, patch = {}) => {
    const p = PRESETS.find((x) => x.id === id);
    const ask = makeAsker(engine);
    return sameStepChoices(ask, p, { ...presetSplit(p), ...patch }, engineList('recompute'));
  };
  const none = view('llama3-405b', { recompute: 'none' }).r;
  const selective = view('llama3-405b', { recompute: 'selective' }).r;
  assert.deepEqual(selective, none, 'the engine: the whole step answer is the same');
  assert.deepEqual(twins('llama3-405b'), ['selective']);
  assert.deepEqual(twins('llama3-405b', { recompute: 'selective' }), ['none']);
  assert.equal(
    recomputeHint('none', ['selective']),
    'Selective is not offered: the engine answers the same step as none (FlashAttention leaves it no attention ' +
      'scores to recompute).',
  );
  assert.match(
    recomputeHint('selective', ['none']),
    /^None is not offered: the engine answers the same step as selective/,
  );
  assert.equal(recomputeHint('none', []), '');
  // Megatron-LM of 2022 ran without FlashAttention: there selective recomputes the attention core, and is offered.
  assert.deepEqual(twins('gpt3-175b'), []);
  assert.deepEqual(twins('llama3-405b', { recompute: 'full' }), []);
});

test("ZeRO-3 in a pipeline: the engine's memory note reaches the reader in a reader's words (issue 25 item 8)", () => {
  const zero3 = view('llama3-405b', { zero: 3 }).r;
  const zero2 = view('llama3-405b', { zero: 2 }).r;
  assert.ok(zero3.memory_per_gpu.total > zero2.memory_per_gpu.total, 'the engine: ZeRO-3 holds more here');
  assert.match(zero3.memory_per_gpu.note, /reshard_after_forward/, "the engine's own sentence");
  const text = memoryNote(zero3);
  assert.match(text, /^Why more than ZeRO-2: in a pipeline, ZeRO-3 keeps the gathered weights and whole gradients /);
  assert.doesNotMatch(text, /reshard_after_forward|torchtitan|_/, 'no engine field names');
  assert.equal(memoryNote(zero2), '');
  assert.equal(memoryNote(view('palm-540b').r), '', 'ZeRO-3 without a pipeline: no note');
  const resharded = view('llama3-405b', { zero: 3, reshard_after_forward: true }).r; // the engine's other note
  assert.equal(resharded.parallel.reshard_after_forward, true);
  assert.match(memoryNote(resharded), /^Why it can be more than ZeRO-2: .*gradients whole until the last/);
});

test("a GPU cluster's band says what a network at half its rate would give; a TPU slice's does not", () => {
  const gpu = view('llama3-405b');
  assert.ok(gpu.r.error_band.network, 'the engine gives the what-if for GPUs on many nodes');
  const shown = Math.round(gpu.r.error_band.network.mfu * 100);
  assert.match(gpu.v.band, new RegExp(`; ${shown} % if the network between nodes ran at half its rate$`));
  assert.equal(view('palm-540b').r.error_band.network, undefined);
  assert.doesNotMatch(view('palm-540b').v.band, /network/);
  assert.equal(bandText(undefined), '');
});

test("a band on a chip none of the stack's held-out runs ran on says so; one on a tried chip does not", () => {
  const palm = view('palm-540b'); // xla's held-out runs are MaxText's on TPU v5p; PaLM ran on v4
  assert.equal(palm.r.error_band.untried_chip, 'tpu-v4');
  assert.match(palm.v.band, /runs of every stack and of this run's own, none of its own on this chip$/);
  const llama = view('llama3-405b'); // pytorch-compile on H100: torchtitan's tables
  assert.equal(llama.r.error_band.untried_chip, undefined);
  assert.doesNotMatch(llama.v.band, /this chip/);
});

test("the band names whose runs it rests on in a reader's words, never the engine's stack ids", () => {
  const own = view('gpt3-175b').r.error_band; // megatron-2021's own held-out runs, or pooled with every stack's
  const band = (basis) => bandText({ ...own, basis, untried_chip: undefined, network: undefined });
  assert.match(band('megatron-core'), /: \d+ held-out published runs of this run's software stack$/);
  assert.match(band('all stacks'), /: \d+ held-out published runs of every stack$/);
  assert.match(band('all stacks and deepspeed'), /: \d+ held-out published runs of every stack and of this run's own$/);
  for (const preset of ['palm-540b', 'gpt3-175b', 'megatron-1t', 'llama3-405b']) {
    assert.doesNotMatch(view(preset).v.band, /megatron-|deepspeed|pytorch|xla|\(/, preset);
  }
});
