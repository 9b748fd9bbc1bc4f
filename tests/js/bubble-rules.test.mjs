// The bubble widget's control rules against the real engine: every control position the reader can reach settles on
// settings the engine draws, and a control that moves says why, right beside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { engineCheck, hintOf, ruleOf, settle } = await import(new URL('widgets/bubble/model/rules.js', dist));
const { LIMITS } = await import(new URL('widgets/bubble/model/state.js', dist));
const { scheduleChoices } = await import(new URL('lib/model/engine-lists.js', dist));
const { pipelineRequest } = await import(new URL('widgets/bubble/model/request.js', dist));

const engine = await nodeEngine();
const check = engineCheck(engine);
const start = { schedule: 'gpipe', stages: 4, microbatches: 8, chunks: 2, forwardOnly: true };

test('the engine states its rules first: the hint reads like a sentence about the control', () => {
  assert.equal(
    ruleOf('dualpipe needs an even number of stages: it pairs rank r with rank p−1−r; got 5'),
    'DualPipe needs an even number of stages',
  );
  assert.equal(
    ruleOf('chunks apply to the interleaved schedule only: a chunk is…'),
    'Chunks apply to the interleaved schedule only',
  );
});

test('zero-bubble and DualPipe are shown with their backward passes: the forward-half box is disabled, with why', () => {
  for (const schedule of ['1f1b', 'zb-h1', 'zb-h2', 'dualpipe']) {
    const s = settle({ ...start, schedule }, check, { moved: 'schedule', from: 'gpipe' });
    assert.equal(s.applies.forwardOnly, false, schedule);
    assert.equal(s.shown.forwardOnly, false, schedule);
    assert.equal(s.request.forward_only, undefined, schedule);
    assert.match(s.hints.forwardOnly, /is drawn with its backward passes$/, schedule);
    assert.equal(s.state.forwardOnly, true, 'the wish is kept for a schedule that takes it');
  }
  for (const schedule of ['gpipe', 'interleaved']) {
    const s = settle({ ...start, schedule }, check, { moved: 'schedule', from: '1f1b' });
    assert.equal(s.shown.forwardOnly, true, schedule);
    assert.equal(s.hints.forwardOnly, '');
  }
});

test('DualPipe never runs on an odd number of stages, 1 included: the stages move, with the rule beside them', () => {
  const one = settle({ ...start, forwardOnly: false, stages: 1, schedule: 'dualpipe' }, check, {
    moved: 'schedule',
    from: 'gpipe',
  });
  assert.equal(one.state.stages, 2);
  assert.equal(one.hints.stages, 'DualPipe needs an even number of stages: 1 → 2');
  // Dragging the stages slider up from 4 on DualPipe passes over 5 to 6 (a keyboard step must not bounce back).
  const up = settle({ ...start, schedule: 'dualpipe', stages: 5, microbatches: 16 }, check, {
    moved: 'stages',
    from: 4,
  });
  assert.equal(up.state.stages, 6);
  assert.equal(up.hints.stages, 'DualPipe needs an even number of stages: 5 → 6');
  assert.equal(up.state.microbatches, 16);
  const down = settle({ ...start, schedule: 'dualpipe', stages: 5, microbatches: 16 }, check, {
    moved: 'stages',
    from: 6,
  });
  assert.equal(down.state.stages, 4);
});

test('interleaving moves the microbatches to a multiple of the stages, and says so beside them', () => {
  const s = settle({ ...start, schedule: 'interleaved', stages: 4, microbatches: 9, chunks: 1 }, check);
  assert.equal(s.state.microbatches, 9, 'one chunk is 1F1B: any count');
  const two = settle({ ...s.state, chunks: 2 }, check, { moved: 'chunks', from: 1 });
  assert.equal(two.state.microbatches, 8);
  assert.equal(
    two.hints.microbatches,
    'Interleaved 1F1B needs microbatches in a multiple of stages (4) or fewer: 9 → 8',
  );
  const up = settle({ ...two.state, microbatches: 9 }, check, { moved: 'microbatches', from: 8 });
  assert.equal(up.state.microbatches, 12, 'a step up from 8 goes on to the next accepted count');
});

test('chunks apply to interleaved only: elsewhere the slider is disabled with why, and the reader’s value returns', () => {
  const s = settle({ ...start, schedule: '1f1b', chunks: 4 }, check, { moved: 'schedule', from: 'gpipe' });
  assert.equal(s.applies.chunks, false);
  assert.equal(s.shown.chunks, 1);
  assert.equal(s.request.chunks, undefined);
  assert.equal(s.hints.chunks, 'Chunks apply to the interleaved schedule only');
  const back = settle({ ...s.state, schedule: 'interleaved' }, check, { moved: 'schedule', from: '1f1b' });
  assert.equal(back.shown.chunks, 4);
  assert.equal(back.hints.chunks, '');
});

/** check, remembering answers: the enumeration asks about the same candidates from many starting points. */
function cached(inner) {
  const memo = new Map();
  return (request) => {
    const key = JSON.stringify(request);
    if (!memo.has(key)) memo.set(key, inner(request));
    return memo.get(key);
  };
}

test('no dead position: every refused combination of the number controls settles on a drawable state', () => {
  // Every raw combination the sliders can form is a possible moment between two moves; from each refused one, moving
  // either number control must land on settings the engine accepts. Chunks matter only as 1 or more than 1 (and 8, the
  // end of the slider); the forward half is a separate switch, checked below.
  const ask = cached(check);
  const refusedRaw = {};
  for (const [schedule] of scheduleChoices()) {
    refusedRaw[schedule] = 0;
    const chunkValues = schedule === 'interleaved' ? [1, 2, 3, 8] : [1];
    for (let stages = LIMITS.stages[0]; stages <= LIMITS.stages[1]; stages += 1) {
      for (let microbatches = LIMITS.microbatches[0]; microbatches <= LIMITS.microbatches[1]; microbatches += 1) {
        for (const chunks of chunkValues) {
          const raw = { schedule, stages, microbatches, chunks, forwardOnly: false };
          if (ask(pipelineRequest(raw, { chunks: schedule === 'interleaved', forwardOnly: false })) === null) continue;
          refusedRaw[schedule] += 1;
          for (const moved of ['stages', 'microbatches']) {
            const s = settle(raw, ask, { moved, from: raw[moved] - 1 });
            assert.equal(ask(s.request), null, JSON.stringify({ raw, moved }));
          }
        }
      }
    }
  }
  // Where the refusals were (the rules the controls could reach before): interleaved with chunks and DualPipe only.
  assert.deepEqual(
    Object.keys(refusedRaw).filter((k) => refusedRaw[k] > 0),
    ['interleaved', 'dualpipe'],
  );
  assert.ok(refusedRaw.interleaved > 5000 && refusedRaw.dualpipe > 3000, JSON.stringify(refusedRaw));
});

test('no dead position: the forward half, ticked on any schedule at any size, settles on a drawable state', () => {
  for (const [schedule] of scheduleChoices()) {
    for (const [stages, microbatches] of [
      [1, 1],
      [1, 128],
      [5, 9],
      [8, 32],
      [32, 1],
      [32, 128],
      [31, 127],
    ]) {
      for (const chunks of [1, 2, 8]) {
        const s = settle({ schedule, stages, microbatches, chunks, forwardOnly: true }, check, {
          moved: 'forwardOnly',
          from: false,
        });
        assert.equal(check(s.request), null);
        assert.equal(s.shown.forwardOnly, schedule === 'gpipe' || schedule === 'interleaved', schedule);
      }
    }
  }
});

test('engineCheck asks the engine once per distinct request, and gives the same verdicts as asking every time', () => {
  let calls = 0;
  const counting = {
    call: (request) => {
      calls += 1;
      return engine.call(request);
    },
  };
  const remembered = engineCheck(counting, 3);
  const ok = { op: 'pipeline', schedule: '1f1b', stages: 4, microbatches: 8 };
  const bad = { op: 'pipeline', schedule: 'dualpipe', stages: 3, microbatches: 8 };
  assert.equal(remembered(ok), null);
  const refusal = remembered(bad);
  assert.ok(refusal && refusal.field);
  assert.deepEqual(remembered({ ...bad }), refusal);
  assert.equal(remembered({ ...ok }), null);
  assert.equal(calls, 2);
  for (let m = 1; m <= 4; m += 1) remembered({ ...ok, microbatches: m }); // past the bound: forgets, stays right
  assert.deepEqual(remembered(bad), check(bad));
  assert.equal(remembered(ok), null);
});

test('the figure draws binary ops, so the sliders are capped by the binary limit: 32 stages × 8 chunks reach 128 microbatches', () => {
  const wanted = { schedule: 'interleaved', stages: 32, microbatches: 128, chunks: 8, forwardOnly: false };
  const s = settle(wanted, check, { moved: 'microbatches', from: 96 });
  assert.equal(s.state.microbatches, 128);
  assert.equal(s.hints.microbatches, '');
  assert.equal(check(s.request), null);
});

test('a refusal for too many ops reads as a sentence about the figure, not the API, and moves the microbatches', () => {
  const tooLarge = {
    code: 'too_large',
    field: 'ops_format',
    message: 'this schedule has 65536 ops; an answer lists at most 50000 as objects (ops_format …)',
  };
  assert.equal(hintOf(tooLarge), 'More ops than the figure can draw');
  const capped = (request) => (request.microbatches > 100 ? tooLarge : check(request));
  const s = settle({ schedule: '1f1b', stages: 4, microbatches: 120, chunks: 1, forwardOnly: false }, capped, {
    moved: 'microbatches',
    from: 119,
  });
  assert.equal(s.state.microbatches, 100);
  assert.equal(s.hints.microbatches, 'More ops than the figure can draw: 120 → 100');
  assert.doesNotMatch(s.hints.microbatches, /ops_format|objects/);
});
