// lib/model/export-heading.js: an exported figure's heading says what the figure does not say itself. The titles are
// the shapes the figures export (web/widgets/*/element.js, exportFigure): a prefix and the figure's own headline
// (memory, run, nccl), the headline alone (context), or a sentence the figure never shows (bubble, ring).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { exportHeading } from '../../web/lib/model/export-heading.js';

const CONFIG = 'Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB, tp 4 · pp 8 · dp 2, 64 sequences of 8,192 tokens a step.';

test('a title that ends with the figure’s headline keeps only what comes before it', () => {
  assert.equal(
    exportHeading(`Memory through one step: ${CONFIG}`, ['Model', CONFIG, '80 GiB']),
    'Memory through one step',
  );
  assert.equal(
    exportHeading('nccl-tests fitted: all-reduce, 16 GPUs on 2 nodes of 8 (from line 23)', [
      'all-reduce, 16 GPUs on 2 nodes of 8 (from line 23)',
    ]),
    'nccl-tests fitted',
  );
});

test('a title the figure shows whole leaves no heading; white space does not hide a repeat', () => {
  const summary = 'Llama 3 8B, 32,768 tokens over 4 GPUs: 8 chunks of 4,096, zig-zag; the link wholly hidden.';
  assert.equal(exportHeading(summary, [summary]), '');
  assert.equal(exportHeading(summary, [`\n  ${summary.replace(/ /g, '\n   ')} `]), '');
});

test('a title the figure does not repeat stays whole, and a short text ending it is no headline', () => {
  const title = 'Ring all-reduce of 1 GiB per GPU over 4 × NVIDIA H100 SXM5 80GB: 3.6 ms per all-reduce';
  assert.equal(exportHeading(title, ['GPUs on the ring', '4', 'per all-reduce', '3.6 ms per all-reduce']), title);
  assert.equal(
    exportHeading('GPipe: 4 stages, useful work 72.7 %', ['72.7 %', 'GPipe']),
    'GPipe: 4 stages, useful work 72.7 %',
  );
  assert.equal(exportHeading('Plain title', []), 'Plain title');
});

test('of two texts ending the title, the longer one is cut', () => {
  const title = `The whole run: ${CONFIG}`;
  assert.equal(exportHeading(title, ['64 sequences of 8,192 tokens a step.', CONFIG]), 'The whole run');
});
