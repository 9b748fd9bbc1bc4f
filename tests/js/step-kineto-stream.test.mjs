// The streamed trace reader (web/widgets/step/model/kineto-stream.js, what the step figure's worker runs): the events it
// hands over equal JSON.parse's, however the text is cut into pieces; every step of our fixtures (plain and gzipped,
// tests/fixtures/kineto/) gets exactly traceStep's answer on the parsed trace; malformed, truncated and eventless text
// is refused as JSON.parse and traceStep refuse it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { collectedStep, traceStep } from '../../web/widgets/step/model/kineto.js';
import { collectTrace, eventTokenizer } from '../../web/widgets/step/model/kineto-stream.js';

const fixture = (name) => readFileSync(new URL(`../fixtures/kineto/${name}`, import.meta.url));

/** A ReadableStream of `text` cut into pieces of `size` characters. */
const piecesOf = (text, size) =>
  new ReadableStream({
    start(controller) {
      for (let i = 0; i < text.length; i += size) controller.enqueue(text.slice(i, i + size));
      controller.close();
    },
  });

/** What the tokenizer hands over for `text` pushed in pieces of `size`: { shape, top, events } or the error thrown. */
function tokens(text, size) {
  const out = { shape: null, top: {}, events: [] };
  const t = eventTokenizer({
    shape: (s) => (out.shape = s),
    top: (k, v) => (out.top[k] = v),
    event: (e) => out.events.push(e),
  });
  for (let i = 0; i < text.length; i += size) t.push(text.slice(i, i + size));
  t.end();
  return out;
}

const SIZES = [1, 2, 3, 7, 64, 1000, 1 << 16];

test('each event equals JSON.parse’s, whatever the cut', () => {
  for (const name of ['two-steps.json', 'array-no-steps.json']) {
    const text = fixture(name).toString('utf8');
    const whole = JSON.parse(text);
    const events = Array.isArray(whole) ? whole : whole.traceEvents;
    for (const size of SIZES) {
      const got = tokens(text, size);
      assert.deepEqual(got.events, events, `${name} in pieces of ${size}`);
      assert.equal(got.shape, Array.isArray(whole) ? 'array' : 'object');
      if (!Array.isArray(whole)) assert.deepEqual(got.top.distributedInfo, whole.distributedInfo);
    }
  }
});

test('strings holding quotes, backslashes, brackets and non-ASCII text, and every kind of value', () => {
  const events = [
    {
      ph: 'X',
      name: 'a "quoted" name \\ with } and ] and { [',
      ts: 1,
      dur: 2.5e-3,
      args: { x: [1, [2, { y: null }]] },
    },
    { ph: 'i', name: 'é ✓ 😀 \\"', ts: -2, flag: true, other: false, n: null, e: 1e21, s: '' },
    { ph: 'X', name: '\\\\', ts: 3, dur: 0, args: {} },
  ];
  const text = JSON.stringify({ a: 'x', traceEvents: events, deep: { b: [1, '}'] }, n: -1.5e-7 }, null, 2);
  for (const size of SIZES) {
    const got = tokens(text, size);
    assert.deepEqual(got.events, events, `pieces of ${size}`);
    assert.deepEqual(got.top, { a: 'x', traceEvents: [], deep: { b: [1, '}'] }, n: -1.5e-7 });
  }
});

test('every step of the fixtures: the streamed answer is traceStep’s, gzipped too', async () => {
  const cases = [
    ['two-steps.json', [undefined, 0, 1]],
    ['array-no-steps.json', [undefined]],
  ];
  for (const [name, picks] of cases) {
    const text = fixture(name).toString('utf8');
    for (const size of [1, 13, 1 << 16]) {
      const collected = await collectTrace(piecesOf(text, size));
      for (const pick of picks) assert.deepEqual(collectedStep(collected, pick), traceStep(JSON.parse(text), pick));
    }
  }
  const gz = new Blob([fixture('two-steps.json.gz')]).stream().pipeThrough(new DecompressionStream('gzip'));
  const collected = await collectTrace(gz.pipeThrough(new TextDecoderStream()));
  assert.deepEqual(collectedStep(collected), traceStep(JSON.parse(fixture('two-steps.json'))));
});

test('malformed or truncated text is refused as JSON.parse refuses it (not_json); no events list is no_events', async () => {
  const text = fixture('two-steps.json').toString('utf8').replace(/\s+/g, '');
  for (let cut = 0; cut < text.length; cut += 37) {
    assert.throws(() => JSON.parse(text.slice(0, cut)));
    assert.throws(() => tokens(text.slice(0, cut), 5), { code: 'not_json' }, `cut at ${cut}`);
  }
  const bad = ['{"traceEvents":[{"ph":"X",}]}', '{"traceEvents":[1 2]}', '{"a":1}x', '{"a" 1}', '[1,]', '{,}', 'nul'];
  for (const t of bad) {
    assert.throws(() => JSON.parse(t), t);
    assert.throws(() => tokens(t, 3), { code: 'not_json' }, t);
  }
  for (const t of ['{"traceEvents": 5}', '{}', '5', '"x"']) {
    await assert.rejects(collectTrace(piecesOf(t, 2)), { code: 'no_events' }, t);
    assert.throws(() => traceStep(JSON.parse(t)), { code: 'no_events' }, t);
  }
  const empty = await collectTrace(piecesOf('[]', 1));
  assert.throws(() => collectedStep(empty), { code: 'no_gpu_events' });
});

test('a stream that fails while read is unreadable, not not_json', async () => {
  const broken = new Blob([fixture('two-steps.json').subarray(0, 500)])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'))
    .pipeThrough(new TextDecoderStream());
  await assert.rejects(collectTrace(broken), { code: 'unreadable' });
});
