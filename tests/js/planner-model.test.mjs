// The planner's pure model (lib/model/planner-*.js) on hand-made answers shaped like the plan op's contract: the
// request the inputs make, the rows, texts and scatter an answer becomes, the worker protocol, the values a row loads
// into the other figures, and a seeded walk over every input.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { LIMITS } from '../../web/widgets/bubble/model/state.js';
import { MFU_CUSTOM, TARGETS, loadValues, stepRequestOf } from '../../web/widgets/planner/model/load.js';
import { afterMessage, nextChunk, started } from '../../web/widgets/planner/model/protocol.js';
import {
  BATCH_STOPS,
  DEFAULTS,
  GPU_STOPS,
  OFFLOAD_STOPS,
  TOP_K,
  controlOptions,
  inputsAsAttributes,
  planRequest,
  sameInputs,
  withStops,
} from '../../web/widgets/planner/model/request.js';
import { importedInputs } from '../../web/widgets/planner/model/imported.js';
import {
  MARGIN,
  bestText,
  configurationText,
  emptyText,
  extrasText,
  memoryOf,
  nearestPoint,
  planErrorText,
  pointAfterKey,
  progressText,
  scatterLabel,
  scatterLayout,
  softwareLabel,
  splitText,
  summaryText,
  tableRows,
  ticks,
} from '../../web/widgets/planner/model/view.js';
import { ATTRIBUTES } from '../../web/lib/model/attributes.js';
import { seededRandom } from '../seeded-random.mjs';
import { nodeEngine } from './node-engine.mjs';
import { fakeAnswer } from './planner-fake-answer.mjs';

const GiB = 2 ** 30;
const BAD_TEXT = /NaN|Infinity|undefined|null|\[object/;
const presets = (await nodeEngine()).call({ op: 'presets' }); // its lists reach the pure modules (engine-lists.js)
const PRESETS = {
  // the engine's lists, a small choice of models and chips
  ...presets,
  models: [
    { id: 'gpt3-175b', name: 'GPT-3 175B' },
    { id: 'llama3-70b', name: 'Llama 3 70B' },
  ],
  hardware: [
    { id: 'a100-80gb', name: 'A100 80GB', memory_bytes: 80 * GiB },
    { id: 'h100-sxm', name: 'H100', memory_bytes: 80 * GiB },
  ],
};

test("the inputs make the plan op's request, with top_k and the objective", () => {
  assert.deepEqual(planRequest(DEFAULTS), {
    op: 'plan',
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    cluster: { gpus: 1024 },
    global_batch: 1536,
    objective: 'mfu',
    top_k: TOP_K,
    software: 'megatron-core',
  });
  assert.deepEqual(inputsAsAttributes(DEFAULTS), {
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 1024,
    'global-batch': 1536,
    objective: 'mfu',
  });
  assert.ok(sameInputs(DEFAULTS, { ...DEFAULTS }));
  assert.ok(!sameInputs(DEFAULTS, { ...DEFAULTS, gpus: 512 }));
});

test('optimizer offload: the request carries it only above 0, and so do links; a change is a new search', () => {
  assert.equal('offload_optimizer' in planRequest(DEFAULTS), false, 'none: the engine default, as before');
  assert.equal(planRequest({ ...DEFAULTS, offload: 0.5 }).offload_optimizer, 0.5);
  assert.equal('offload' in inputsAsAttributes(DEFAULTS), false, 'old links stay as they were');
  assert.equal(inputsAsAttributes({ ...DEFAULTS, offload: 1 }).offload, '1');
  assert.ok(!sameInputs(DEFAULTS, { ...DEFAULTS, offload: 0.25 }));
  assert.deepEqual(controlOptions(PRESETS, DEFAULTS).offload, OFFLOAD_STOPS);
  const planner = ATTRIBUTES['parascope-planner'].offload;
  assert.deepEqual(planner.choices, ['0', '0.25', '0.5', '0.75', '1']);
  assert.equal(planner.fallback, '0');
  // every share above none is one the figures a row loads into read (their `offload` attribute)
  for (const tag of ['parascope-memory', 'parascope-step', 'parascope-mfu']) {
    assert.deepEqual(ATTRIBUTES[tag].offload.choices, planner.choices.slice(1), tag);
  }
});

test("software: the engine's stacks in its order; named in every request, in links only when not the default", () => {
  const options = controlOptions(PRESETS, DEFAULTS).software;
  assert.deepEqual(
    options.map(([v]) => v),
    presets.software,
    "the engine's list, in its order",
  );
  for (const id of ['pytorch', 'nanotron', 'xla']) assert.ok(presets.software.includes(id), `the engine offers ${id}`);
  assert.ok(presets.software.includes(DEFAULTS.software), "the figure's default is one of the engine's");
  for (const [v, text] of options) assert.ok(text.length > 0 && !BAD_TEXT.test(text), `${v}: "${text}"`);
  assert.equal(softwareLabel('pytorch'), 'PyTorch (eager)');
  assert.equal(softwareLabel('a-new-stack'), 'a-new-stack', 'a stack without words is shown by its id');
  const spec = ATTRIBUTES['parascope-planner'].software;
  assert.equal(spec.engine, 'software', "the attribute takes the engine's list");
  assert.equal(spec.fallback, DEFAULTS.software);
  const pytorch = { ...DEFAULTS, software: 'pytorch' };
  assert.equal(planRequest(pytorch).software, 'pytorch');
  assert.equal(inputsAsAttributes(pytorch).software, 'pytorch');
  assert.equal('software' in inputsAsAttributes(DEFAULTS), false, 'old links stay as they were');
  assert.ok(!sameInputs(DEFAULTS, pytorch), 'another stack is another search');
  // A row's step and what the other figures are told: the stack travels with the step; figures without a software
  // control say they cost the default.
  const parallel = { dp: 128, tp: 8, pp: 1, cp: 1, ep: 1, vpp: 1, microbatch_size: 1, schedule: '1f1b', zero: 0 };
  assert.equal(stepRequestOf(pytorch, { parallel }).software, 'pytorch');
  const loaded = loadValues(pytorch, parallel, { microbatches: 12 });
  for (const tag of ['parascope-axes', 'parascope-mfu', 'parascope-step', 'parascope-memory', 'parascope-run']) {
    assert.match(
      loaded[tag].note,
      /The planner costed it for PyTorch \(eager\); this figure costs every run for Megatron-Core/,
    );
    assert.equal('software' in loaded[tag].values, false, tag);
  }
  assert.doesNotMatch(loaded['parascope-bubble'].note, /costed/, 'unit op times: no stack');
  for (const note of Object.values(loadValues(DEFAULTS, parallel, { microbatches: 12 })).map((x) => x.note))
    assert.doesNotMatch(note, /The planner costed it for/);
  // An imported config's stack is taken when it is one of the engine's, else the planner's stays.
  assert.equal(importedInputs(DEFAULTS, { model: 'gpt3-175b', software: 'nanotron' }, presets).software, 'nanotron');
  assert.equal(importedInputs(pytorch, { model: 'gpt3-175b', software: 'bogus' }, presets).software, 'pytorch');
  assert.equal(importedInputs(pytorch, { model: 'gpt3-175b' }, presets).software, 'pytorch');
});

test("a refused offload reads as a reader's sentence naming the control; other stops keep the engine's reason", () => {
  const tpu = planErrorText({
    code: 'inconsistent',
    message: 'offload_optimizer needs the hardware…',
    field: 'offload_optimizer',
  });
  assert.match(tpu, /TPUs/);
  assert.match(tpu, /Optimizer state on the host/);
  assert.doesNotMatch(tpu, /offload_optimizer|host_bandwidth/);
  assert.equal(
    planErrorText({ code: 'worker_error', message: 'the search could not run', field: null }),
    'The search could not finish: the search could not run',
  );
});

test("an attribute's own GPU count or batch joins the offered values, in order", () => {
  const options = controlOptions(PRESETS, { ...DEFAULTS, gpus: 96, globalBatch: 100 });
  assert.deepEqual(
    options.gpus.map(([v]) => Number(v)),
    withStops(GPU_STOPS, 96),
  );
  assert.ok(options.gpus.some(([v, t]) => v === '96' && t === '96'));
  assert.ok(options.globalBatch.some(([v]) => v === '100'));
  assert.deepEqual(
    options.gpus.map(([v]) => Number(v)),
    [...options.gpus.map(([v]) => Number(v))].sort((a, b) => a - b),
  );
  assert.deepEqual(options.model, [
    ['gpt3-175b', 'GPT-3 175B'],
    ['llama3-70b', 'Llama 3 70B'],
  ]);
  assert.deepEqual(
    options.objective.map(([v]) => v),
    presets.plan_objectives,
    "the engine's objectives, in its order",
  );
  assert.equal(
    ATTRIBUTES['parascope-planner'].objective.engine,
    'plan_objectives',
    "the attribute takes the engine's list",
  );
});

test("a row says the split, the schedule, the microbatch and the engine's numbers with units", () => {
  const answer = {
    results: [
      {
        parallel: {
          dp: 16,
          tp: 8,
          pp: 8,
          cp: 1,
          ep: 1,
          vpp: 3,
          microbatch_size: 1,
          schedule: 'interleaved',
          recompute: 'selective',
          sequence_parallel: true,
          zero: 1,
        },
        mfu: 0.4567,
        step_time: 13.75,
        memory_per_gpu: 61.5 * GiB,
        fits: true,
      },
    ],
    evaluated: 123456,
    rejected: { does_not_divide: 1000, out_of_memory: 20 },
    pareto: [],
    scatter: [],
    elapsed: 0.25,
  };
  const [row] = tableRows(answer, 80 * GiB);
  assert.equal(row.split, 'dp 16 · tp 8 · pp 8 · vpp 3');
  assert.equal(row.extras, 'selective recompute · ZeRO-1 · sequence parallel');
  assert.equal(row.schedule, 'Interleaved 1F1B');
  assert.equal(row.microbatch, '1');
  assert.equal(row.mfu, '45.7 %');
  assert.equal(row.stepTime, '13.8 s');
  assert.equal(row.memory, '61.5 GiB');
  assert.equal(row.fits, 'yes');
  assert.match(
    row.label.replace(/\u00a0/g, ' '),
    /^Rank 1: dp 16 · tp 8 · pp 8 · vpp 3 \(selective recompute · ZeRO-1 · sequence parallel\), Interleaved 1F1B, microbatch 1 sequence: MFU 45.7 %, step 13.8 s, 61.5 GiB per GPU, fits in 80 GiB/,
  );
  assert.equal(
    summaryText(answer),
    'The engine costed 123,456 configurations in 250 ms; set aside before costing: ' +
      '1,000 does not divide, 20 out of memory.',
  );
  assert.equal(emptyText(answer), null);
  assert.match(bestText(answer, 80 * GiB), /^Best: dp 16/);
  // The step op's memory object is read too.
  assert.equal(memoryOf({ memory_per_gpu: { total: 5 } }), 5);
});

test("an empty answer says why in the reader's words and this figure's units (the engine's stay in the JSON)", () => {
  const answer = fakeAnswer({ empty: true });
  assert.equal(answer.results.length, 0);
  assert.equal(
    emptyText(answer),
    'No configuration to rank: every one was ruled out before costing (see the counts above).',
  );
  assert.equal(bestText(answer, 80 * GiB), '');
  const miss = {
    ...answer,
    closest_miss: answer.scatter[0],
    why_empty: 'nothing fits in memory: the closest miss needs 393.6 GB per GPU and the a100-80gb has 85.9 GB',
  };
  const text = emptyText(miss, 80 * GiB);
  assert.match(
    text,
    /^No configuration to rank: none fits in the 80\u00a0GiB of one GPU\. The closest miss: dp \d+ .* does not fit in 80\u00a0GiB\.$/,
  );
  assert.doesNotMatch(text, /\bGB\b|a100-80gb/, 'one byte unit family in the figure (issue 25, item 11)');
});

test('a configuration inside the capacity but not the room the planner keeps reads as too close to be sure', () => {
  const capacity = 80 * GiB;
  const entry = { ...fakeAnswer({}).scatter[0], memory_per_gpu: 75 * GiB, fits: false };
  assert.match(
    configurationText(entry, capacity),
    /75\u00a0GiB per GPU, too close to the 80\u00a0GiB to be sure it starts$/,
  );
  const miss = { ...fakeAnswer({ empty: true }), memory_limit: 66 * GiB, closest_miss: entry };
  assert.match(
    emptyText(miss, capacity),
    /^No configuration to rank: none fits in the 80\u00a0GiB of one GPU with room for /,
  );
});

test('the scatter is named for what it draws: the costed count, and its dots as the best of their neighbours', () => {
  const answer = { ...fakeAnswer({}), evaluated: 1669 };
  const label = scatterLabel(answer, 80 * GiB);
  assert.match(
    label,
    /^Scatter of the 1,669 costed configurations as \d[\d,]* dots, each the best of those nearest it/,
  );
  assert.doesNotMatch(label, /evaluated configurations/);
  const article = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.doesNotMatch(article, /Each dot is one configuration/, 'the article says what a dot is as the label does');
  assert.match(article, /Each dot is the best of the costed configurations that land nearest it/);
});

test('progress in words, whole percentages, never above 100', () => {
  assert.equal(progressText({ evaluated: 0, total: 0 }), 'Searching…');
  assert.equal(
    progressText({ evaluated: 120000, total: 400000 }),
    'Searching… 120,000 of 400,000 configurations (30 %)',
  );
  assert.match(progressText({ evaluated: 5, total: 4 }), /\(100 %\)$/);
});

test('ticks are round steps from 0 past the maximum', () => {
  assert.deepEqual(ticks(160), [0, 50, 100, 150, 200]);
  assert.deepEqual(ticks(150), [0, 50, 100, 150]);
  assert.deepEqual(ticks(47, 4), [0, 20, 40, 60]);
  assert.deepEqual(ticks(0), [0]);
});

test('the scatter places every point inside the plot, fits and misses apart, the limit at the GPU memory', () => {
  const capacity = 80 * GiB;
  const answer = fakeAnswer({ seed: 3, capacity });
  const layout = scatterLayout(answer, { width: 700, height: 300, capacity });
  const { plot } = layout;
  assert.equal(plot.x, MARGIN.left);
  assert.equal(layout.points.length, answer.scatter.length);
  for (const p of layout.points) {
    assert.ok(p.x >= plot.x - 1e-9 && p.x <= plot.x + plot.width + 1e-9, `x ${p.x}`);
    assert.ok(p.y >= plot.y - 1e-9 && p.y <= plot.y + plot.height + 1e-9, `y ${p.y}`);
    assert.equal(p.fits, p.entry.fits);
    if (p.fits) assert.ok(p.x <= layout.limit + 1e-9, 'a point that fits is left of the memory line');
  }
  // Points beyond twice the memory sit on the right edge, marked.
  assert.ok(layout.points.some((p) => p.beyond));
  for (const p of layout.points.filter((q) => q.beyond)) assert.ok(Math.abs(p.x - (plot.x + plot.width)) < 1e-9);
  // Walk order is memory order; the Pareto front is drawn left to right; the best result is the first.
  for (let i = 1; i < layout.points.length; i += 1) assert.ok(layout.points[i].x >= layout.points[i - 1].x);
  for (let i = 1; i < layout.pareto.length; i += 1) assert.ok(layout.pareto[i].x >= layout.pareto[i - 1].x);
  assert.equal(layout.best.entry, answer.results[0]);
  assert.equal(layout.limitText, '80 GiB per GPU');
  assert.match(
    configurationText(answer.results[0], capacity),
    /MFU \d+\.\d\u00a0%, step [\d.]+\u00a0m?s, [\d.]+\u00a0GiB per GPU, fits in 80\u00a0GiB$/,
    'numbers keep their units on their line',
  );
  assert.ok(layout.xTicks.every((t) => t.at >= plot.x && t.at <= plot.x + plot.width + 1e-9));
  assert.match(
    scatterLabel(answer, capacity),
    /^Scatter of the [\d,]+ costed configurations as 300 dots, each the best of those nearest it in MFU and memory per GPU: \d+ dots fit in 80 GiB, \d+ on the Pareto front/,
  );
});

test('pointing and keys pick the nearest point and walk them in memory order', () => {
  const points = [
    { x: 10, y: 10 },
    { x: 20, y: 40 },
    { x: 30, y: 12 },
  ];
  assert.equal(nearestPoint(points, 21, 38), 1);
  assert.equal(nearestPoint(points, 100, 100), -1);
  assert.equal(pointAfterKey(3, -1, 'ArrowRight'), 0);
  assert.equal(pointAfterKey(3, 0, 'ArrowRight'), 1);
  assert.equal(pointAfterKey(3, 2, 'ArrowRight'), 2);
  assert.equal(pointAfterKey(3, 0, 'ArrowLeft'), 0);
  assert.equal(pointAfterKey(3, 1, 'End'), 2);
  assert.equal(pointAfterKey(3, 1, 'Home'), 0);
  assert.equal(pointAfterKey(3, 1, 'Escape'), -1);
  assert.equal(pointAfterKey(3, 1, 'a'), undefined);
  assert.equal(pointAfterKey(0, -1, 'ArrowRight'), undefined);
});

test("only the newest search's messages change the state; chunks aim at a time budget within bounds", () => {
  const s = started(2, { op: 'plan' });
  assert.equal(
    afterMessage(s, { type: 'progress', id: 1, evaluated: 5, total: 10 }),
    null,
    'an older search is ignored',
  );
  assert.deepEqual(afterMessage(s, { type: 'progress', id: 2, evaluated: 5, total: 10 }), {
    ...s,
    evaluated: 5,
    total: 10,
  });
  assert.equal(afterMessage(s, { type: 'done', id: 2, answer: { results: [] } }).phase, 'done');
  assert.equal(afterMessage(s, { type: 'error', id: 2, error: { message: 'x' } }).error.message, 'x');
  assert.equal(afterMessage(s, { type: 'other', id: 2 }), null);
  assert.equal(nextChunk(1000, 50, 25), 500);
  assert.equal(nextChunk(1000, 1, 25), 4000);
  assert.equal(nextChunk(1000, 0, 25), 4000);
  assert.equal(nextChunk(100, 100, 25), 500);
  assert.equal(nextChunk(900_000, 1, 25), 1_000_000);
});

test("a planned configuration loads into each figure's attributes, with what each cannot show", () => {
  const inputs = { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 1024, globalBatch: 1536 };
  const parallel = {
    dp: 16,
    tp: 8,
    pp: 8,
    cp: 1,
    ep: 1,
    vpp: 3,
    microbatch_size: 1,
    schedule: 'interleaved',
    recompute: 'selective',
    sequence_parallel: true,
    zero: 1,
  };
  const v = loadValues(inputs, parallel, { microbatches: 96 });
  assert.deepEqual(Object.keys(v), TARGETS);
  assert.deepEqual(v['parascope-axes'].values, {
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 1024,
    tp: 8,
    pp: 8,
    ep: 1,
    'global-batch': 1536,
  });
  assert.match(
    v['parascope-axes'].note,
    /does not draw 3 virtual stages per rank, the Interleaved 1F1B schedule, microbatches of 1, selective recomputation, ZeRO-1, sequence parallelism\.$/,
  );
  assert.deepEqual(v['parascope-bubble'].values, {
    stages: 8,
    microbatches: 96,
    schedule: 'interleaved',
    chunks: 3,
    'forward-only': 'false',
  });
  assert.doesNotMatch(v['parascope-bubble'].note, /too large/);
  assert.deepEqual(v['parascope-step'].values, { ...v['parascope-run'].values, 'first-stage': 0 });
  assert.deepEqual(v['parascope-mfu'].values, {
    preset: MFU_CUSTOM,
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 1024,
    tp: 8,
    pp: 8,
    vpp: 3,
    'microbatch-size': 1,
    'global-batch': 1536,
    recompute: 'selective',
    schedule: 'interleaved',
    zero: 1,
    cp: 1,
    ep: 1,
    'sequence-parallel': 'true',
  });
  assert.deepEqual(v['parascope-memory'].values, {
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 1024,
    tp: 8,
    pp: 8,
    vpp: 3,
    cp: 1,
    ep: 1,
    'microbatch-size': 1,
    'global-batch': 1536,
    recompute: 'selective',
    schedule: 'interleaved',
    zero: 1,
    'sequence-parallel': 'true',
  });
  assert.equal(loadValues(inputs, parallel, { microbatches: 96 }, 'fp8')['parascope-memory'].values.precision, 'fp8');
  // Every value is one the figure's attribute list accepts.
  for (const [tag, { values }] of Object.entries(v)) {
    for (const [name, value] of Object.entries(values)) {
      const spec = ATTRIBUTES[tag][name];
      assert.ok(spec, `${tag} has attribute ${name}`);
      if (spec.kind === 'int') assert.ok(value >= spec.min && value <= spec.max, `${tag} ${name}=${value}`);
      if (spec.kind === 'choice' && spec.choices)
        assert.ok(spec.choices.includes(String(value)), `${tag} ${name}=${value}`);
    }
  }
  // Too large for the bubble: drawn at its limits, and said so.
  const big = loadValues(inputs, { ...parallel, pp: 64, vpp: 12 }, { microbatches: 512 });
  assert.deepEqual(big['parascope-bubble'].values, {
    stages: LIMITS.stages[1],
    microbatches: LIMITS.microbatches[1],
    schedule: 'interleaved',
    chunks: LIMITS.chunks[1],
    'forward-only': 'false',
  });
  assert.match(
    big['parascope-bubble'].note,
    /too large to draw: 64 stages \(draws 32\), 512 microbatches \(draws 128\), 12 chunks \(draws 8\)\.$/,
  );
  assert.deepEqual(stepRequestOf(inputs, { parallel, precision: 'bf16' }), {
    op: 'step',
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    cluster: { gpus: 1024 },
    parallel: { ...parallel, global_batch: 1536 },
    precision: 'bf16',
  });
});

test('a row with the optimizer on the host says so, and loads its share into the MFU, step and memory figures', () => {
  const inputs = { model: 'llama3-70b', hardware: 'h100-sxm', gpus: 8, globalBatch: 64 };
  // a one-node split (the fake answers' shape), with full recompute, ZeRO-1, sequence parallelism and offload
  const base = fakeAnswer({ seed: 3, gpus: 8, capacity: 80 * GiB, n: 1 }).results[0].parallel;
  const parallel = { ...base, recompute: 'full', zero: 1, sequence_parallel: true, offload_optimizer: 1 };
  assert.equal(extrasText(parallel), 'full recompute · ZeRO-1 · sequence parallel · optimizer 100 % on the host');
  const v = loadValues(inputs, parallel, { microbatches: 64 });
  for (const tag of ['parascope-mfu', 'parascope-step', 'parascope-memory'])
    assert.equal(v[tag].values.offload, '1', tag);
  assert.match(v['parascope-mfu'].note, /and the optimizer on the host are held as planned/);
  assert.match(v['parascope-axes'].note, /the optimizer state on the host\.$/);
  assert.match(v['parascope-run'].note, /optimizer state on the GPUs/);
  assert.equal(
    stepRequestOf(inputs, { parallel }).parallel.offload_optimizer,
    1,
    "the step the row's numbers come from",
  );
  const none = loadValues(inputs, { ...parallel, offload_optimizer: undefined }, { microbatches: 64 });
  for (const tag of ['parascope-mfu', 'parascope-step', 'parascope-memory']) {
    assert.equal('offload' in none[tag].values, false, tag);
  }
  assert.doesNotMatch(none['parascope-run'].note, /offload|host/);
});

test('a row on one stage says "1 stage" and one microbatch "1 microbatch" (issue 25, item 11)', () => {
  const inputs = { model: 'gpt2-124m', hardware: 'a100-80gb', gpus: 8, globalBatch: 8 };
  const parallel = {
    dp: 8,
    tp: 1,
    pp: 1,
    cp: 1,
    ep: 1,
    vpp: 1,
    microbatch_size: 1,
    global_batch: 8,
    schedule: '1f1b',
    recompute: 'none',
    sequence_parallel: false,
    zero: 0,
  };
  const note = loadValues(inputs, parallel, { microbatches: 1 })['parascope-bubble'].note;
  assert.match(note, /pipeline of 1 stage and 1 microbatch with/);
  assert.match(
    loadValues(inputs, { ...parallel, pp: 2 }, { microbatches: 4 })['parascope-bubble'].note,
    /pipeline of 2 stages and 4 microbatches with/,
  );
});

test('seeded walk: 300 random inputs and answers give clean rows, texts and a scatter inside its box', () => {
  const rnd = seededRandom(14);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  let inputs = { ...DEFAULTS };
  for (let step = 0; step < 300; step += 1) {
    const options = controlOptions(PRESETS, inputs);
    const key = pick(['model', 'hardware', 'gpus', 'globalBatch', 'objective', 'software']);
    const [value] = pick(options[key]);
    inputs = { ...inputs, [key]: key === 'gpus' || key === 'globalBatch' ? Number(value) : value };
    const request = planRequest(inputs);
    assert.equal(request.cluster.gpus, inputs.gpus);
    assert.equal(request.software, inputs.software);
    assert.ok(GPU_STOPS.includes(inputs.gpus) && BATCH_STOPS.includes(inputs.globalBatch));
    const capacity = PRESETS.hardware.find((x) => x.id === inputs.hardware).memory_bytes;
    const answer = fakeAnswer({
      seed: step + 1,
      gpus: inputs.gpus,
      capacity,
      n: 1 + Math.floor(rnd() * 400),
      empty: rnd() < 0.1,
    });
    const rows = tableRows(answer, capacity);
    assert.equal(rows.length, answer.results.length);
    const texts = [
      summaryText(answer),
      bestText(answer, capacity),
      emptyText(answer, capacity) ?? '',
      scatterLabel(answer, capacity),
      ...rows.flatMap((r) => Object.values(r).filter((x) => typeof x === 'string')),
    ];
    for (const t of texts) assert.doesNotMatch(t, BAD_TEXT, `step ${step}: ${t}`);
    assert.ok(
      answer.results.length > 0 ? emptyText(answer, capacity) === null : emptyText(answer, capacity).length > 0,
    );
    const width = 300 + Math.floor(rnd() * 500);
    const layout = scatterLayout(answer, { width, height: 240, capacity });
    for (const p of [...layout.points, ...layout.pareto]) {
      assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y));
      assert.ok(p.x >= 0 && p.x <= width && p.y >= 0 && p.y <= 240, `step ${step}: ${p.x},${p.y}`);
    }
    for (const r of answer.results) {
      assert.doesNotMatch(configurationText(r, capacity), BAD_TEXT);
      assert.doesNotMatch(splitText(r.parallel), BAD_TEXT);
    }
  }
});
