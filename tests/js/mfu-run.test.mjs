// "Your run" over the real engine: a refused or unfinished field blanks the figure and says why beside the field; MFU
// above 100 % is called impossible beside the throughput (issue 10 item 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { deviceWords } from '../../web/widgets/mfu/model/devices.js';
import { RUN_DEFAULTS, runView } from '../../web/widgets/mfu/model/run.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const words = deviceWords(presets, 'tpu-v4');

test("PaLM's own numbers read 46.2 %, with no hint", () => {
  const v = runView(makeAsker(engine), { ...RUN_DEFAULTS }, words);
  assert.equal(v.texts.mfu, '46.2 %');
  assert.deepEqual(v.hints, { gpus: '', tokensPerSecond: '' });
  assert.match(v.texts.dashboard, /^6,144 TPU chips:/);
});

test('5,000,000 tokens/s reads 970.0 %, called impossible beside the throughput; then 0 leaves no figure', () => {
  const ask = makeAsker(engine);
  const over = runView(ask, { ...RUN_DEFAULTS, tokensPerSecond: '5000000' }, words);
  assert.equal(over.texts.mfu, '970.0 %: impossible');
  assert.equal(over.over, true);
  assert.equal(over.fill, 1);
  assert.match(over.hints.tokensPerSecond, /^Above 100 %: more arithmetic than 6,144 TPU chips can do at peak\./);
  const zero = runView(ask, { ...RUN_DEFAULTS, tokensPerSecond: '0' }, words);
  assert.equal(zero.response, null);
  assert.equal(zero.texts.mfu, '—', 'no stale 970 %');
  assert.equal(zero.fill, 0);
  assert.equal(
    zero.hints.tokensPerSecond,
    'Not accepted: type the measured throughput in tokens per second, above 0 and within what a cluster can reach.',
  );
  assert.doesNotMatch(zero.hints.tokensPerSecond, /tokens_per_second|1e\+18/, 'no engine wording (issue 25, item 11)');
  assert.equal(zero.hints.gpus, '');
});

test('a GPU count of 0, 1.5 or nothing blanks the figure with a hint beside the count', () => {
  const ask = makeAsker(engine);
  for (const gpus of ['0', '1.5', '', '20000000']) {
    const v = runView(ask, { ...RUN_DEFAULTS, gpus }, words);
    assert.equal(v.response, null, gpus);
    assert.equal(v.texts.mfu, '—');
    assert.notEqual(v.hints.gpus, '', gpus);
    assert.doesNotMatch(v.hints.gpus, /must be an integer|10000000/, gpus);
    assert.equal(v.hints.tokensPerSecond, '');
  }
});

test("the device is named from the engine's hardware kind: TPU chips for TPUs, GPUs otherwise (item 5)", () => {
  assert.deepEqual(deviceWords(presets, 'tpu-v4'), { one: 'TPU chip', many: 'TPU chips' });
  assert.deepEqual(deviceWords(presets, 'h100-sxm'), { one: 'GPU', many: 'GPUs' });
  for (const hw of presets.hardware) assert.ok(['gpu', 'tpu'].includes(hw.kind), hw.id);
});
