// The trace reader's classification rules have one home, engine/data/kineto-rules.json, which the native CLI embeds
// (engine/cli/kineto.cpp) and the step figure's reader imports as web/widgets/step/model/kineto-rules.js: that module
// must hold exactly the file's rules. UPDATE=1 rewrites it from the file (after a rule changes there).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';

const JSON_FILE = new URL('../../engine/data/kineto-rules.json', import.meta.url);
const JS_FILE = new URL('../../web/widgets/step/model/kineto-rules.js', import.meta.url);

const { units, ...rules } = JSON.parse(readFileSync(JSON_FILE, 'utf8'));
if (process.env.UPDATE) {
  writeFileSync(
    JS_FILE,
    '// Written from engine/data/kineto-rules.json by `UPDATE=1 node --test tests/js/kineto-rules.test.mjs`: do not\n' +
      "// edit here. How a Kineto trace's GPU events are classified; the native CLI reads the same file (--kineto).\n" +
      `export const KINETO_RULES = ${JSON.stringify(rules, null, 2)};\n`,
  );
  execFileSync(new URL('../../node_modules/.bin/prettier', import.meta.url).pathname, ['--write', JS_FILE.pathname]);
}
const { KINETO_RULES } = await import(JS_FILE);

test('the reader’s rules are engine/data/kineto-rules.json’s, all of them', () => {
  assert.ok(units.length > 100, 'the file says where its rules come from');
  assert.deepEqual(KINETO_RULES, rules);
});

test('every pattern compiles, and every kind named is one of the kinds', () => {
  const kinds = new Set(KINETO_RULES.kinds);
  for (const r of [KINETO_RULES.step_marker, KINETO_RULES.nccl.kernel, KINETO_RULES.nccl.collective])
    assert.doesNotThrow(() => new RegExp(r.pattern, r.flags));
  for (const r of KINETO_RULES.compute) {
    assert.ok(kinds.has(r.kind), r.kind);
    assert.match(r.flags, /^i?$/, 'only the i flag, which std::regex has too');
    assert.doesNotThrow(() => new RegExp(r.pattern, r.flags));
  }
  assert.ok(kinds.has(KINETO_RULES.unnamed_compute));
  assert.equal(new RegExp(KINETO_RULES.nccl.collective.pattern).source.includes('('), true, 'one captured group');
});
