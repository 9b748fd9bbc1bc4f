// Every element's description in the editor files (lib/model/attribute-docs.js): each tag in the one list of
// attributes has one, the files never print "undefined", and a figure added without a description stops the
// generator with a message naming it instead of writing a blank into types/elements.d.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ABOUT, aboutOf, customData, elementTypes } from '../../web/lib/model/attribute-docs.js';
import { ATTRIBUTES } from '../../web/lib/model/attributes.js';
import { FIGURES } from '../../web/widgets/index.js';

test('every figure has a one-line description, and the generated files print none as undefined', () => {
  for (const { tag } of FIGURES) {
    assert.ok(tag in ATTRIBUTES, tag);
    assert.match(aboutOf(tag), /^[A-Z].{30,140}\.$/, `${tag}: a sentence`);
  }
  assert.doesNotMatch(elementTypes(), /undefined \*\/|\?: undefined;/);
  for (const tag of customData().tags) assert.equal(typeof tag.description, 'string', tag.name);
});

test('a figure without a description stops the generator, naming the figure', () => {
  const { 'parascope-run': _run, ...withoutRun } = ABOUT;
  assert.throws(() => elementTypes(withoutRun), /<parascope-run> has no description/);
  assert.throws(() => customData(null, withoutRun), /<parascope-run> has no description/);
  assert.throws(() => aboutOf('parascope-run', { ...ABOUT, 'parascope-run': '  ' }), /has no description/);
});
