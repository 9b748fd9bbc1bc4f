// The widgets' own modules have no Embind (wasm/exports.cpp; lib/engine.js wraps their C functions): through them a
// request answers exactly as through the figures' Embind module: non-ASCII and lone-surrogate text, refusals, and the
// numbers attached beside an answer (the bubble's binary ops).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine, nodeModuleEngine } from './node-engine.mjs';

const figures = await nodeEngine();
const bubble = await nodeModuleEngine('parascope-bubble-engine');
const step = await nodeModuleEngine('parascope-step-engine');

test('a widget module without Embind answers text exactly as the Embind module', () => {
  const texts = [
    '{"op":"version"}',
    '{"op":"mfu","model":"llama3-8b","hardware":"h100-sxm","cluster":{"gpus":8},"tokens_per_second":1e5,"x":"é 🚀"}',
    '{"op":"mfu","model":"no such model ✓"}',
    '{"op":"version","x":"\uD800"}', // a lone surrogate: WTF-8 bytes, refused as invalid_json
    '{"op":"version"',
    `{"op":"version","pad":"${'x'.repeat(1 << 20)}"}`, // over the 1 MiB limit
  ];
  for (const text of texts) {
    assert.equal(step.callText(text), figures.callText(text), text.slice(0, 80));
  }
});

test('a widget module without Embind attaches the same numbers as the Embind module', () => {
  const request = {
    op: 'pipeline',
    schedule: 'interleaved',
    stages: 4,
    microbatches: 8,
    chunks: 2,
    ops_format: 'binary',
  };
  const a = figures.callWithAttachment(request);
  const b = bubble.callWithAttachment(request);
  assert.deepEqual(b.response, a.response);
  assert.ok(b.attachment instanceof Float64Array && b.attachment.length > 0);
  assert.deepEqual([...b.attachment], [...a.attachment]);
  const reused = bubble.callWithAttachment(request, b.attachment);
  assert.equal(reused.attachment.buffer, b.attachment.buffer);
  assert.deepEqual([...reused.attachment], [...a.attachment]);
});
