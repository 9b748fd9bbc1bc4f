// The MFU widget's published runs all ran, so each preset, as its source describes it, must fit in its GPUs' memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS } from '../../web/widgets/mfu/model/presets.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const GiB = 2 ** 30;

test('every MFU preset fits in memory, as the published run did', () => {
  for (const p of PRESETS) {
    const r = engine.call({ op: 'step', ...p.run });
    assert.ok(
      r.fits,
      `${p.id}: ${(r.memory_per_gpu.total / GiB).toFixed(1)} GiB per GPU of ` +
        `${(r.memory_capacity / GiB).toFixed(1)}`,
    );
  }
});
