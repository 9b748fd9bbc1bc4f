// The wasm engines answer every shared fixture byte for byte as recorded (the native engine is held to the same file):
// the planner's module every case, the figures' module every case but the planner's own ops' (plan, config_import),
// which it refuses by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixtureCases, isPlanRequest, nodeEngine, nodePlannerEngine, plannerOnlyOp } from './node-engine.mjs';

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
    const only = plannerOnlyOp(c.request);
    if (!only) assert.equal(engine.callText(c.request), c.response, "the figures' module");
    else {
      const refusal =
        '{"error":{"code":"unknown_op","field":"op","message":' +
        `"the ${only} op is answered by the parascope-planner engine`;
      assert.ok(engine.callText(c.request).startsWith(refusal), `the figures' module refuses ${only} by name`);
    }
  });
}
