// engine.planSearch: the "plan" op a slice at a time in wasm (what the planner's Web Worker runs), equal to the
// one-shot op and to the native engine's answer, with refusals as EngineError and every result reproduced by "step".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

import { nodeEngine, nodePlannerEngine } from './node-engine.mjs';

const { EngineError } = await import(new URL('../../dist/lib/engine.js', import.meta.url));
const engine = await nodePlannerEngine(); // the planner's module (its worker's)
const figures = await nodeEngine(); // the page's, which the figures a plan loads into use
const CLI = new URL('../../build/native/parascope', import.meta.url).pathname;

const small = { op: 'plan', model: 'gpt3-175b', hardware: 'a100-80gb', cluster: { gpus: 64 }, global_batch: 64 };
const moe = {
  op: 'plan',
  model: 'mixtral-8x7b',
  hardware: 'h100-sxm',
  cluster: { gpus: 32 },
  global_batch: 64,
  zero: [1],
  precision: ['bf16', 'fp8'],
  objective: 'step_time',
  top_k: 5,
};

const withoutElapsed = ({ elapsed, ...rest }) => {
  assert.equal(typeof elapsed, 'number');
  assert.ok(elapsed >= 0);
  return rest;
};

test('a search advanced in slices reports growing progress and ends with the one-shot answer', () => {
  const search = engine.planSearch(small);
  try {
    let last = -1;
    let progress;
    do {
      progress = search.advance(500);
      assert.equal(typeof progress.done, 'boolean');
      assert.ok(progress.evaluated > last && progress.evaluated <= progress.total);
      last = progress.evaluated;
    } while (!progress.done);
    assert.equal(progress.evaluated, progress.total);
    const sliced = withoutElapsed(search.result());
    assert.deepEqual(sliced, withoutElapsed(engine.call(small)));
    assert.ok(sliced.results.length > 0 && sliced.results.length <= 10);
    assert.equal(sliced.evaluated + Object.values(sliced.rejected).reduce((a, b) => a + b, 0), progress.total);
  } finally {
    search.dispose();
  }
});

test('result() finishes a search that was never advanced', () => {
  const search = engine.planSearch(moe);
  try {
    assert.deepEqual(withoutElapsed(search.result()), withoutElapsed(engine.call(moe)));
  } finally {
    search.dispose();
  }
});

test('the wasm plan answers as the native engine does, up to the time it took', { skip: !existsSync(CLI) }, () => {
  for (const request of [small, moe]) {
    const native = JSON.parse(execFileSync(CLI, { input: JSON.stringify(request) }).toString());
    assert.deepEqual(withoutElapsed(engine.call(request)), withoutElapsed(native));
  }
});

test('every planned configuration fed to step gives the same numbers in wasm', () => {
  for (const request of [small, moe]) {
    const answer = engine.call(request);
    for (const c of [...answer.results, ...answer.pareto, ...answer.scatter.filter((_, i) => i % 25 === 0)]) {
      const step = figures.call({
        op: 'step',
        model: request.model,
        hardware: request.hardware,
        cluster: request.cluster,
        parallel: c.parallel,
        precision: c.precision,
      });
      assert.equal(step.mfu, c.mfu);
      assert.equal(step.step_time, c.step_time);
      assert.equal(step.memory_per_gpu.total, c.memory_per_gpu);
      assert.equal(step.memory_per_gpu.total <= answer.memory_limit, c.fits); // the planner keeps room for its error
    }
  }
});

test('a refused request throws EngineError from advance and result, and dispose may be called twice', () => {
  const search = engine.planSearch({ ...small, zero: [7] });
  assert.throws(
    () => search.advance(10),
    (err) => err instanceof EngineError && err.field === 'zero[0]',
  );
  assert.throws(
    () => search.result(),
    (err) => err instanceof EngineError && err.code === 'out_of_range',
  );
  search.dispose();
  search.dispose();
  assert.throws(() => search.advance(1), /disposed/);
});

test('a request that cannot be written as JSON throws EngineError at once', () => {
  const cyclic = { ...small };
  cyclic.self = cyclic;
  assert.throws(
    () => engine.planSearch(cyclic),
    (err) => err instanceof EngineError && err.code === 'invalid_request',
  );
});

test('nothing fitting is an answer with the closest miss, not an error', () => {
  const r = engine.call({
    op: 'plan',
    model: 'gpt3-175b',
    hardware: 'a100-40gb',
    cluster: { gpus: 8 },
    global_batch: 8,
  });
  assert.deepEqual(r.results, []);
  assert.match(r.why_empty, /^nothing fits in memory/);
  assert.equal(r.closest_miss.fits, false);
});

test("the figures' engine has no planner: plan and planSearch are refused by name, every other op answers", () => {
  const isRefusal = (err) =>
    err instanceof EngineError &&
    err.code === 'unknown_op' &&
    err.field === 'op' &&
    /the plan op is answered by the parascope-planner engine/.test(err.message);
  assert.throws(() => figures.call(small), isRefusal);
  assert.throws(() => figures.planSearch(small), isRefusal);
  assert.equal(typeof figures.planSearch, 'function'); // the API is the same; only the answer differs
  assert.deepEqual(figures.call({ op: 'version' }), engine.call({ op: 'version' }));
});
