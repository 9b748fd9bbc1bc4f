// The editor files written from the one list of attributes (lib/model/attributes.js): types/elements.d.ts and
// types/html-custom-data.json must be what lib/model/attribute-docs.js makes of it. UPDATE=1 rewrites them.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';

import { attributeRows, customData, elementTypes } from '../../web/lib/model/attribute-docs.js';
import { ATTRIBUTES, presetValues } from '../../web/lib/model/attributes.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const TYPES = new URL('../../web/types/elements.d.ts', import.meta.url);
const DATA = new URL('../../web/types/html-custom-data.json', import.meta.url);
const wanted = { types: elementTypes(), data: `${JSON.stringify(customData(presets), null, 2)}\n` };
if (process.env.UPDATE) {
  await writeFile(TYPES, wanted.types);
  await writeFile(DATA, wanted.data);
}

test('types/elements.d.ts lists every attribute of every element, as attributes.js has them', async () => {
  assert.equal(await readFile(TYPES, 'utf8'), wanted.types);
});

test("types/html-custom-data.json (VS Code) lists every attribute with the engine's preset ids", async () => {
  assert.equal(await readFile(DATA, 'utf8'), wanted.data);
  const ring = JSON.parse(wanted.data).tags.find((t) => t.name === 'parascope-ring');
  assert.deepEqual(
    ring.attributes.find((a) => a.name === 'hardware').values.map((v) => v.name),
    presets.hardware.map((x) => x.id),
  );
});

test("the guide's table has one row per attribute, its range in words and its default", () => {
  const rows = attributeRows(presets);
  assert.equal(
    rows.length,
    Object.values(ATTRIBUTES).reduce((n, a) => n + Object.keys(a).length, 0),
  );
  assert.deepEqual(
    rows.find((r) => r[0] === 'parascope-bubble' && r[1] === 'stages'),
    ['parascope-bubble', 'stages', '1 to 32, whole', '4', 'pipeline stages (GPUs)'],
  );
});

test('the engine accepts every default and every choice the list offers for its preset-backed attributes', () => {
  for (const [tag, attributes] of Object.entries(ATTRIBUTES)) {
    for (const [name, spec] of Object.entries(attributes)) {
      // A default that depends on the preset (null, said in words) has nothing to check.
      if (spec.engine && spec.fallback !== null) {
        assert.ok(presetValues(presets, spec.engine).includes(String(spec.fallback)), `${tag} ${name}`);
      }
    }
  }
});
