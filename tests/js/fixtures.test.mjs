// The wasm engines answer every shared fixture byte for byte as recorded (the native engine is held to the same file):
// the planner's module every case, the figures' module every case but the plan op's, which it refuses by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixtureCases, isPlanRequest, nodeEngine, nodePlannerEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const planner = await nodePlannerEngine();
const cases = await fixtureCases();

test('there are fixtures for every first op', () => {
  const ops = new Set(cases.map((c) => c.request.match(/"op":"([a-z_]+)"/)?.[1]).filter(Boolean));
  for (const op of ['version', 'presets', 'mfu']) assert.ok(ops.has(op), `no fixture for ${op}`);
});

test('there are plan fixtures, and every other case is not one', () => {
  assert.ok(cases.filter((c) => isPlanRequest(c.request)).length >= 5);
  assert.ok(cases.filter((c) => !isPlanRequest(c.request)).length >= 50);
});

for (const c of cases) {
  test(`${c.file}: ${c.name}`, () => {
    assert.equal(planner.callText(c.request), c.response, "the planner's module");
    if (!isPlanRequest(c.request)) assert.equal(engine.callText(c.request), c.response, "the figures' module");
    else
      assert.match(
        engine.callText(c.request),
        /^\{"error":\{"code":"unknown_op","field":"op","message":"the plan op is answered by the parascope-planner engine/,
      );
  });
}
