// The wasm engine answers every shared fixture byte for byte as recorded (the native engine is held to the same file).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixtureCases, nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const cases = await fixtureCases();

test('there are fixtures for every first op', () => {
  const ops = new Set(cases.map((c) => c.request.match(/"op":"([a-z_]+)"/)?.[1]).filter(Boolean));
  for (const op of ['version', 'presets', 'mfu']) assert.ok(ops.has(op), `no fixture for ${op}`);
});

for (const c of cases) {
  test(`${c.file}: ${c.name}`, () => {
    assert.equal(engine.callText(c.request), c.response);
  });
}
