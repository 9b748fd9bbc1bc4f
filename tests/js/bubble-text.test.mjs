// The bubble widget's sentences from real engine answers: a known form and the simulation beside it agree or say when
// the form holds; no "= 0 = 0"; the dashboard's 100 % says what it rests on; names describe the current state.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { bubbleTexts, closedFormText, opText } = await import(new URL('widgets/bubble/model/text.js', dist));
const { opsFromAttachment } = await import(new URL('widgets/bubble/op-columns.js', dist));

const engine = await nodeEngine();
const answer = (request) => engine.call({ op: 'pipeline', include_ops: false, ...request });

test('ZB-H1 and DualPipe beside their known forms: the same percentage twice', () => {
  for (const [schedule, stages, microbatches] of [
    ['zb-h1', 4, 8],
    ['dualpipe', 4, 8],
    ['dualpipe', 8, 32],
  ]) {
    const r = answer({ schedule, stages, microbatches });
    const text = closedFormText(r);
    const [known, simulated] = [...text.matchAll(/(\d+\.\d) %/g)].map((m) => m[1]).slice(-2);
    assert.equal(known, simulated, text);
  }
});

test('ZB-H2’s form reads as a sentence, not "= 0 = 0 = 0.0 %", and names the ends the gauge counts', () => {
  const r = answer({ schedule: 'zb-h2', stages: 4, microbatches: 8 });
  const text = closedFormText(r);
  assert.doesNotMatch(text, /= 0 = 0/);
  assert.match(text, /idle time inside each GPU’s own span \(its first op to its last\) = 0; simulated here: 0\.0 %/);
  assert.match(text, new RegExp(`the ${(r.bubble_fraction * 100).toFixed(1)} % bubble in the gauge`));
});

test('a known form that does not apply says when it holds instead of quoting a number', () => {
  const r = answer({ schedule: 'zb-h1', stages: 8, microbatches: 4 });
  assert.equal(r.closed_form.value, null);
  assert.match(closedFormText(r), /which holds when m ≥ p/);
});

test('the dashboard’s 100 % says it rests on a posted receive kernel, with this state’s bubble', () => {
  const r = answer({ schedule: 'gpipe', stages: 32, microbatches: 1 });
  const t = bubbleTexts(r);
  assert.equal(t.dashboard, '100 %');
  assert.match(t.dashboardNote, /^counts the 96\.9 % bubble as busy: a waiting GPU sits in a posted receive kernel$/);
});

test('the chart’s name and the announced summary describe the current settings and the bubble', () => {
  const r = answer({ schedule: 'interleaved', stages: 4, microbatches: 8, chunks: 2, forward_only: true });
  const t = bubbleTexts(r);
  assert.equal(
    t.chartLabel,
    'Pipeline timeline: Interleaved 1F1B, 4 stages × 8 microbatches in 2 chunks per GPU, ' +
      `forward half only; ${(r.bubble_fraction * 100).toFixed(1)} % of the GPU time is bubble.`,
  );
  assert.match(
    t.summary,
    /^Interleaved 1F1B, 4 stages × 8 microbatches .*: useful work \d+\.\d %, bubble \d+\.\d %\.$/,
  );
});

test('an op names its kind, the split backward and DualPipe’s entry end', () => {
  const { response, attachment } = engine.callWithAttachment({
    op: 'pipeline',
    schedule: 'dualpipe',
    stages: 4,
    microbatches: 8,
    ops_format: 'binary',
  });
  response.ops = opsFromAttachment(response, attachment);
  const last = response.ops.per_stage[0] - 1;
  const i = response.ops.kind.indexOf('B');
  assert.match(
    opText(response, i, 0),
    /^GPU 0 · microbatch \d+ · backward, input gradient \(B\) · entered at GPU [03] · from/,
  );
  assert.match(opText(response, last, 0), /W/);
});
