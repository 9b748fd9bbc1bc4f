// scripts/used-rules.mjs: a figure's embed file keeps the shared sheet's rules its code can meet, each selector whole.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { usedRules, wordsOf } from '../../scripts/used-rules.mjs';

const has =
  (...names) =>
  (name) =>
    names.includes(name);

test('a selector naming a class the code never writes goes; one naming only classes it writes stays', () => {
  const css = '/* note */\n.a {\n  color: red;\n}\n.b,\n.a .c {\n  margin: 0;\n}\n';
  assert.equal(usedRules(css, has('a', 'b', 'c')), '.a {\n  color: red;\n}\n.b,\n.a .c {\n  margin: 0;\n}\n');
  assert.equal(usedRules(css, has('a', 'b')), '.a {\n  color: red;\n}\n.b {\n  margin: 0;\n}\n');
  assert.equal(usedRules(css, has()), '');
});

test('selectors without a class, and commas inside parentheses, stay as written', () => {
  const css =
    "select,\nlabel:has(input, select),\n.x {\n  display: none;\n}\n:host(:not([theme='light'])) {\n  --a: 1;\n}\n";
  assert.equal(
    usedRules(css, has()),
    "select,\nlabel:has(input, select) {\n  display: none;\n}\n:host(:not([theme='light'])) {\n  --a: 1;\n}\n",
  );
});

test('media and container blocks keep what they hold that is used, and go when nothing is', () => {
  const css =
    '@media print {\n  .x,\n  button {\n    display: none;\n  }\n}\n@container (max-width: 420px) {\n  .x {\n    gap: 4px;\n  }\n}\n';
  assert.equal(usedRules(css, has()), '@media print {\nbutton {\n    display: none;\n  }\n}\n');
});

test('the words of code are its names and its strings’ runs of letters, digits, _ and -', () => {
  assert.deepEqual([...wordsOf("h('p',{class:`note ${k}`,'data-out':'step-zoom wide'})")].sort(), [
    'class',
    'data-out',
    'h',
    'k',
    'note',
    'p',
    'step-zoom',
    'wide',
  ]);
});

test('css/widget.css as a figure that writes every class sees it: every rule kept, none changed', async () => {
  const css = await readFile(new URL('../../web/css/widget.css', import.meta.url), 'utf8');
  const squash = (t) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, '');
  assert.equal(squash(usedRules(css, () => true)), squash(css));
});
