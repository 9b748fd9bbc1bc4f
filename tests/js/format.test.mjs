// Display formatting: grouped() writes integers exactly as toLocaleString('en-US') does, without starting Intl.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { grouped, seconds } from '../../web/lib/format.js';
import { seededRandom } from '../seeded-random.mjs';

test('grouped writes every kind of number as toLocaleString("en-US") does', () => {
  const random = seededRandom(12);
  const values = [
    0,
    -0,
    1,
    -1,
    999,
    1000,
    -1000,
    12345,
    999999,
    1000000,
    16384,
    262144,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 60,
    1e21,
    1.5,
    1234.5678,
    0.1234,
    -0.5,
    NaN,
    Infinity,
    -Infinity,
  ];
  for (let i = 0; i < 2000; i += 1) {
    const digits = Math.floor(random() * 16);
    values.push(Math.floor(random() * 10 ** digits) * (random() < 0.2 ? -1 : 1));
  }
  for (const v of values) assert.equal(grouped(v), v.toLocaleString('en-US'), String(v));
});

test('times read in s, min or h: 14,100 s is 3.92 h and 3,010 s is 50.2 min (issue 25, item 11)', () => {
  assert.equal(seconds(14100), '3.92 h');
  assert.equal(seconds(3010), '50.2 min');
  assert.equal(seconds(59.9), '59.9 s');
  assert.equal(seconds(60), '1 min');
  assert.equal(seconds(0.00543), '5.43 ms');
});
