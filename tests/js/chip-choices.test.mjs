// The chips as a select offers them (lib/model/engine-lists.js chipChoices), from the engine's presets answer: every
// name short enough to show whole in a 360 px figure's row, the whole name kept as the option's title.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ROW_CHOICE, chipChoices } from '../../web/lib/model/engine-lists.js';
import { nodeEngine } from './node-engine.mjs';

const presets = (await nodeEngine()).call({ op: 'presets' });

test('every chip of the engine, in its order, with a name a 360 px row shows whole and the whole name beside', () => {
  const choices = chipChoices(presets);
  assert.deepEqual(
    choices.map(([id]) => id),
    presets.hardware.map((x) => x.id),
  );
  for (const [id, text, whole] of choices) {
    const name = presets.hardware.find((x) => x.id === id).name;
    assert.equal(whole, name, id);
    assert.ok(text.length <= ROW_CHOICE, `${id}: "${text}" is ${text.length} characters`);
    assert.ok(name.startsWith(text), `${id}: "${text}" is the start of "${name}"`);
    if (name.length <= ROW_CHOICE) assert.equal(text, name, `${id}: a name that fits is shown as it is`);
  }
});

test('a name past a row drops its closing parenthetical; one without keeps its words', () => {
  const answer = (name) => chipChoices({ hardware: [{ id: 'x', name }] })[0][1];
  assert.equal(answer('NVIDIA GB200 NVL72 (per Blackwell GPU)'), 'NVIDIA GB200 NVL72');
  assert.equal(answer('NVIDIA B200 (HGX/DGX B200)'), 'NVIDIA B200 (HGX/DGX B200)', 'short enough: kept whole');
  assert.equal(
    answer('A name without a parenthetical that runs long'),
    'A name without a parenthetical that runs long',
  );
  assert.equal(chipChoices({ hardware: [{ id: 'y' }] })[0][1], 'y', 'no name: the id');
});
