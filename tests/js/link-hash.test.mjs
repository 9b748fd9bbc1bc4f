// lib/model/link-hash.js: each widget reads and writes its own keys of the URL hash, and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_HASH, firstKey, hashNames, readHash, writeHash } from '../../web/lib/model/link-hash.js';

test("readHash returns the raw values under a widget's key, first one winning", () => {
  const got = readHash('#bubble.stages=8&ring.gpus=4&bubble.stages=9&bubble.schedule=1f1b', 'bubble');
  assert.deepEqual(
    [...got],
    [
      ['stages', '8'],
      ['schedule', '1f1b'],
    ],
  );
  assert.deepEqual([...readHash('#bubble.stages=8', 'bubble-2')], []);
});

test('an empty key reads the bare names of an embed and none of the dotted ones', () => {
  assert.deepEqual(
    [...readHash('#widget=bubble&stages=8&ring.gpus=4', '')],
    [
      ['widget', 'bubble'],
      ['stages', '8'],
    ],
  );
});

test('a heading anchor, empty names and undecodable text are not values', () => {
  assert.deepEqual([...readHash('#mfu&bubble.=3&bubble.stages=%E0%A4%A', 'bubble')], [['stages', '\uFFFD%A']]);
  assert.equal(hashNames('#bubble', 'bubble'), false);
});

test('a hash longer than MAX_HASH is read only up to it', () => {
  const hash = `#${'x'.repeat(MAX_HASH)}&bubble.stages=8`;
  assert.equal(hashNames(hash, 'bubble'), false);
});

test("writeHash puts the widget's values first, keeps the other widgets' and drops empty ones", () => {
  const hash = writeHash('#ring.gpus=4&bubble.stages=2', 'bubble', {
    schedule: 'zb-h1',
    stages: 8,
    chunks: null,
    'forward-only': false,
    flag: true,
  });
  assert.equal(hash, '#bubble.schedule=zb-h1&bubble.stages=8&bubble.flag=true&ring.gpus=4');
});

test('writeHash encodes what it writes, so reading it back gives the same text', () => {
  const hash = writeHash('', 'mfu', { model: 'a&b=c #d' });
  assert.equal(readHash(hash, 'mfu').get('model'), 'a&b=c #d');
});

test("writeHash with an empty key keeps the embed's widget name in front", () => {
  assert.equal(writeHash('#widget=ring&gpus=4', '', { gpus: 8 }, { keep: ['widget'] }), '#widget=ring&gpus=8');
});

test('a seeded walk of writes by several widgets: each reads back exactly its own last values', async () => {
  const { seededRandom } = await import('../seeded-random.mjs');
  const random = seededRandom(13);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const keys = ['bubble', 'bubble-2', 'ring', 'deep', ''];
  const names = ['stages', 'microbatches', 'schedule', 'gpus', 'forward-only', 'tokens-per-second'];
  const values = ['8', '1f1b', '', ' ', '&', '=', '#x', '%', '<b>', 'a b', '1e400', 'ü', '..', 'x'.repeat(50)];
  let hash = '';
  const last = new Map();
  for (let step = 0; step < 400; step += 1) {
    const key = pick(keys);
    const state = {};
    for (const name of names) if (random() < 0.5) state[name] = pick(values);
    hash = writeHash(hash, key, state, { keep: key === '' ? ['widget'] : [] });
    last.set(key, state);
    for (const [k, wanted] of last) {
      assert.deepEqual(
        Object.fromEntries(readHash(hash, k)),
        wanted,
        `step ${step}: widget "${k}" after "${key}" wrote`,
      );
    }
    assert.ok(
      hash === '' || hash.startsWith(`#${key ? `${key}.` : ''}`) || Object.keys(state).length === 0,
      `step ${step}: the writer's values come first`,
    );
  }
});

test('firstKey names the widget whose values come first: the figure a copied link opens at', () => {
  assert.equal(firstKey('#ring.gpus=6&axes.axis=tensor&bubble.stages=6'), 'ring');
  assert.equal(firstKey('#mfu&bubble-2.stages=5&bubble.stages=4'), 'bubble-2');
  assert.equal(firstKey('#widget=ring&gpus=6'), null);
  assert.equal(firstKey('#bubble.=3'), null);
  assert.equal(firstKey(''), null);
});
