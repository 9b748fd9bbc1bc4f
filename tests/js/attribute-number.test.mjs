// Widget attribute numbers are plain decimal text: hex, binary, octal, a plus sign or spaces are refused (NaN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeNumber } from '../../web/lib/model/attribute-number.js';

test('whole-number attributes take decimal digits with an optional minus and nothing else', () => {
  assert.equal(attributeNumber('16', { whole: true }), 16);
  assert.equal(attributeNumber('007', { whole: true }), 7);
  assert.equal(attributeNumber('-3', { whole: true }), -3);
  for (const raw of [
    '0x10',
    '0b101',
    '0o7',
    '+4',
    '1e3',
    '4.0',
    '4.',
    ' 4',
    '4 ',
    '',
    '-',
    'Infinity',
    'NaN',
    '٤',
    '4_000',
    '1,000',
  ]) {
    assert.ok(Number.isNaN(attributeNumber(raw, { whole: true })), `${JSON.stringify(raw)} must be refused`);
  }
});

test('other number attributes take a decimal with an optional fraction and exponent', () => {
  assert.equal(attributeNumber('2.5'), 2.5);
  assert.equal(attributeNumber('.5'), 0.5);
  assert.equal(attributeNumber('1e9'), 1e9);
  assert.equal(attributeNumber('1.5E-3'), 1.5e-3);
  assert.equal(attributeNumber('-0.25'), -0.25);
  for (const raw of [
    '0x10',
    '0b101',
    '+4',
    '+1e3',
    ' 2.5',
    '2.5 ',
    '',
    '.',
    'e3',
    '1e',
    'Infinity',
    '-Infinity',
    '1e3.5',
    '2,5',
  ]) {
    assert.ok(Number.isNaN(attributeNumber(raw)), `${JSON.stringify(raw)} must be refused`);
  }
});

test('anything that is not a string is refused', () => {
  for (const raw of [null, undefined, 4, {}]) assert.ok(Number.isNaN(attributeNumber(raw)));
});
