// One list per fact: the engine's lists (presets op) reach the web and the package's types only from the engine.
// dist/types/presets.d.ts is what scripts/presets-types.mjs makes of the built engine's presets answer, and no
// hand-written copy of a list stands in web/: no union of two or more of a list's values in a .d.ts, no array of
// two or more of them in a module.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';

import { UNIONS, presetsTypes } from '../../scripts/presets-types.mjs';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const web = new URL('../../web/', import.meta.url);

/** Every file under web/ with its text (the test pages left out: they are not shipped). */
async function webFiles() {
  const names = (await readdir(web, { recursive: true })).filter(
    (n) => /\.(m?js|d\.ts)$/.test(n) && !n.startsWith('tests/'),
  );
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(new URL(name, web), 'utf8') })));
}

/** The values of presets list `list` as they would be written in code ('h100-sxm', 3). */
const valuesOf = (list) => presets[list].map((x) => (typeof x === 'object' ? x.id : x));

/**
 * The places in `text` where values of one list stand as a hand-written copy of it: an array literal of plain values
 * (`['gpipe', '1f1b']`; of quoted values: arrays of small numbers are too common) or a union (`'a' | 'b'`, `0 | 1`),
 * with two or more different members, every one of them from the list.
 */
function handLists(text, values) {
  const known = new Set(values.map(String));
  const isCopy = (members) => new Set(members).size >= 2 && members.every((m) => known.has(m));
  const unquote = (m) => m.trim().replace(/^['"]|['"]$/g, '');
  const hits = [];
  for (const m of text.matchAll(/\[\s*((?:'[^']*'|"[^"]*"|\d+)(?:\s*,\s*(?:'[^']*'|"[^"]*"|\d+))*)\s*,?\s*\]/g)) {
    const members = m[1].split(',').filter((x) => x.trim());
    if (members.some((x) => /['"]/.test(x)) && isCopy(members.map(unquote))) hits.push(m[0].slice(0, 80)); // not [0, 0, 0]
  }
  for (const m of text.matchAll(/(?:(?:'[^']*'|\b\d+\b)\s*\|\s*)+(?:'[^']*'|\b\d+\b)/g)) {
    if (isCopy(m[0].split('|').map(unquote))) hits.push(m[0].slice(0, 80));
  }
  return hits;
}

test("types/presets.d.ts in dist is the built engine's presets answer, one union per list", async () => {
  const built = await readFile(new URL('../../dist/types/presets.d.ts', import.meta.url), 'utf8');
  assert.equal(built, presetsTypes(presets));
  assert.match(built, /export type HardwareId = 'a100-40gb' \| .*'mi325x'/, 'every chip, the newest too');
  for (const [name] of UNIONS) assert.match(built, new RegExp(`^export type ${name} = `, 'm'));
});

test('types/engine.d.ts takes the unions from presets.d.ts and writes none of its own', async () => {
  const text = await readFile(new URL('types/engine.d.ts', web), 'utf8');
  for (const [name] of UNIONS) {
    assert.doesNotMatch(text, new RegExp(`export type ${name} =`), `${name} is generated, not written here`);
    assert.match(text, new RegExp(`\\b${name}\\b[^;]*from './presets.js'`, 's'));
  }
});

for (const [name, list] of UNIONS) {
  test(`no hand-written copy of the engine's ${list} (${name}) anywhere in web/`, async () => {
    const values = valuesOf(list);
    const found = (await webFiles()).flatMap(({ name: file, text }) =>
      handLists(text, values).map((h) => `${file}: ${h}`),
    );
    assert.deepEqual(found, []);
  });
}

test('the check finds a hand copy when there is one', () => {
  assert.equal(handLists("const S = ['gpipe', '1f1b'];", valuesOf('schedules')).length, 1);
  assert.equal(handLists('type Z = 0 | 1 | 2 | 3;', valuesOf('zero')).length, 1);
  assert.equal(handLists("type H = 'h100-sxm' | 'b200';", valuesOf('hardware')).length, 1);
  assert.deepEqual(handLists("schedule: '1f1b', hardware: 'h100-sxm'", valuesOf('schedules')), []);
  assert.deepEqual(
    handLists("preset: 'palm-540b' | 'gpt3-175b' | 'custom'", valuesOf('models')),
    [],
    'not only models',
  );
});
