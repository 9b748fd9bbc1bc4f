// lib/model/link-hash.js: each widget reads and writes its own keys of the URL hash, and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_HASH, hashNames, readHash, writeHash } from '../../web/lib/model/link-hash.js';

test('readHash returns the raw values under a widget\'s key, first one winning', () => {
  const got = readHash('#bubble.stages=8&ring.gpus=4&bubble.stages=9&bubble.schedule=1f1b', 'bubble');
  assert.deepEqual([...got], [['stages', '8'], ['schedule', '1f1b']]);
  assert.deepEqual([...readHash('#bubble.stages=8', 'bubble-2')], []);
});

test('an empty key reads the bare names of an embed and none of the dotted ones', () => {
  assert.deepEqual([...readHash('#widget=bubble&stages=8&ring.gpus=4', '')], [['widget', 'bubble'], ['stages', '8']]);
});

test('a heading anchor, empty names and undecodable text are not values', () => {
  assert.deepEqual([...readHash('#mfu&bubble.=3&bubble.stages=%E0%A4%A', 'bubble')], [['stages', '\uFFFD%A']]);
  assert.equal(hashNames('#bubble', 'bubble'), false);
});

test('a hash longer than MAX_HASH is read only up to it', () => {
  const hash = `#${'x'.repeat(MAX_HASH)}&bubble.stages=8`;
  assert.equal(hashNames(hash, 'bubble'), false);
});

test('writeHash puts the widget\'s values first, keeps the other widgets\' and drops empty ones', () => {
  const hash = writeHash('#ring.gpus=4&bubble.stages=2', 'bubble',
    { schedule: 'zb-h1', stages: 8, chunks: null, 'forward-only': false, flag: true });
  assert.equal(hash, '#bubble.schedule=zb-h1&bubble.stages=8&bubble.flag=true&ring.gpus=4');
});

test('writeHash encodes what it writes, so reading it back gives the same text', () => {
  const hash = writeHash('', 'mfu', { model: 'a&b=c #d' });
  assert.equal(readHash(hash, 'mfu').get('model'), 'a&b=c #d');
});

test('writeHash with an empty key keeps the embed\'s widget name in front', () => {
  assert.equal(writeHash('#widget=ring&gpus=4', '', { gpus: 8 }, { keep: ['widget'] }), '#widget=ring&gpus=8');
});
