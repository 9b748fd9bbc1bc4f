// The JS loader: one engine per page, JSON in and out, refusals as EngineError carrying code, message and field.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const { loadEngine, EngineError } = await import(new URL('../../dist/lib/engine.js', import.meta.url));
const engine = await nodeEngine();

test('loadEngine resolves to the same engine on every call', async () => {
  assert.equal(await loadEngine(), engine);
});

test('call takes an object and returns an object', () => {
  assert.deepEqual(engine.call({ op: 'version' }), { name: 'parascope', version: '0.1.0', max_request_bytes: 1048576 });
});

test('a refused request throws EngineError with the engine code, message and field', () => {
  assert.throws(
    () => engine.call({ op: 'mfu', model: 'gpt2-124m', hardware: 'a100-40gb', gpus: -4, tokens_per_second: 1 }),
    (err) =>
      err instanceof EngineError &&
      err.code === 'out_of_range' &&
      err.field === 'gpus' &&
      err.message === 'gpus must be an integer from 1 to 10000000; got -4',
  );
});

test('PaLM 540B at 238,300 tokens/s on 6144 TPU v4 chips reads 46.2 % MFU in wasm too', () => {
  const r = engine.call({ op: 'mfu', model: 'palm-540b', hardware: 'tpu-v4', gpus: 6144, tokens_per_second: 238300 });
  assert.equal(Math.round(r.mfu * 1000) / 10, 46.2);
});

test('hostile text never breaks the module: it answers an error and keeps answering', () => {
  const hostile = [
    '',
    '{',
    'null',
    '"op"',
    '['.repeat(500000),
    `{"op":"version","x":${'['.repeat(100000)}${']'.repeat(100000)}}`,
    '{"op":"mfu","gpus":1e999}',
    '\u0000\u0001',
    '{"op":"\ud800"}',
  ];
  for (const text of hostile) {
    const r = JSON.parse(engine.callText(text));
    assert.ok(r.error && typeof r.error.code === 'string', `no error object for ${text.slice(0, 40)}`);
  }
  assert.equal(engine.call({ op: 'version' }).name, 'parascope');
});

test('an oversized request is refused without being copied whole into the engine', () => {
  const huge = `{"op":"version","pad":"${'x'.repeat(64 << 20)}"}`; // 64 MiB of text
  const r = JSON.parse(engine.callText(huge));
  assert.equal(r.error.code, 'too_large');
  assert.throws(
    () => engine.call({ op: 'version', pad: 'x'.repeat(2 << 20) }),
    (err) => err.code === 'too_large',
  );
});

test('a request JSON cannot express is an EngineError, not a RangeError', () => {
  let deep = {};
  for (let i = 0; i < 20000; i += 1) deep = { x: deep };
  for (const request of [
    { op: 'version', deep },
    { op: 'version', big: 1n },
  ]) {
    assert.throws(
      () => engine.call(request),
      (err) => err instanceof EngineError && err.code === 'invalid_request',
    );
  }
  assert.equal(engine.call({ op: 'version' }).name, 'parascope');
});

test('NaN or Infinity in a request is refused as not_finite naming its field, not as a null of the wrong type', () => {
  const mfu = { op: 'mfu', model: 'gpt2-124m', hardware: 'h100-sxm', gpus: 8, tokens_per_second: 1 };
  for (const [request, field] of [
    [{ ...mfu, gpus: NaN }, 'gpus'],
    [{ ...mfu, tokens_per_second: Infinity }, 'tokens_per_second'],
    [{ ...mfu, hardware: { peak_flops: -Infinity } }, 'hardware.peak_flops'],
  ]) {
    assert.throws(
      () => engine.call(request),
      (err) => err instanceof EngineError && err.code === 'not_finite' && err.field === field,
      field,
    );
  }
  // A real null is still the engine's to judge (wrong_type), and a string holding "null" is no number.
  assert.throws(
    () => engine.call({ ...mfu, gpus: null }),
    (err) => err.code === 'wrong_type' && err.field === 'gpus',
  );
  assert.throws(
    () => engine.call({ ...mfu, model: 'null' }),
    (err) => err.code === 'unknown_preset',
  );
});

test('a request with no JSON text (undefined, a function) is an EngineError, not a TypeError', () => {
  for (const request of [undefined, () => {}, Symbol('x')]) {
    assert.throws(
      () => engine.call(request),
      (err) => err instanceof EngineError && err.code === 'invalid_request',
    );
  }
});

test('a NUL character ends nothing: text after it is not ignored (as natively)', () => {
  for (const text of ['{"op":"version"}\u0000junk', '{"op":"version"}\u0000']) {
    assert.equal(JSON.parse(engine.callText(text)).error?.code, 'invalid_json');
  }
});
