// The embed guide's and the README's prose about the figures agrees with the one list of them (lib/widget-modules.js):
// how many the package registers and types, and which ones the iframe route names.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { WIDGET_MODULES } from '../../web/lib/widget-modules.js';

const guide = (await readFile(new URL('../../web/guide.html', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
const readme = (await readFile(new URL('../../README.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
const names = Object.keys(WIDGET_MODULES).map((tag) => tag.replace(/^parascope-/, ''));
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

test('the guide says the package registers as many elements as there are figures', () => {
  const said = guide.match(/registers the (\w+) elements/);
  assert.ok(said, 'the guide says how many elements the package registers');
  assert.equal(said[1], WORDS[names.length]);
});

test('the iframe section names every figure the embed route can show', () => {
  const section = guide.slice(guide.indexOf('id="iframe"'), guide.indexOf('id="npm"'));
  const listed = section.match(/\(<code>widget=axes<\/code>[^)]*\)/)?.[0] ?? '';
  for (const name of names) assert.match(listed, new RegExp(`<code>(widget=)?${name}</code>`), name);
});

test('the README counts the elements the package registers and types as the guide does: one per figure', () => {
  const counts = [...readme.matchAll(/\b(\w+) (elements|tags)\b/g)].filter(([, word]) => WORDS.includes(word));
  assert.ok(counts.length >= 2, 'the README says how many elements are registered and typed');
  for (const [said, word] of counts) assert.equal(word, WORDS[names.length], said);
});
