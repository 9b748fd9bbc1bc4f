// The figures' list (web/widgets/index.js) is the one list: every figure's folder holds what the list says it does,
// no figure folder stands outside it, and the lists derived from it (modules, engines, attributes) name the same
// figures in the same order.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { ATTRIBUTES, ELEMENTS } from '../../web/lib/model/attributes.js';
import { WIDGET_ENGINES } from '../../web/lib/widget-engines.js';
import { WIDGET_MODULES } from '../../web/lib/widget-modules.js';
import { FIGURES, figureOf, filesOf } from '../../web/widgets/index.js';

const widgets = new URL('../../web/widgets/', import.meta.url);
const tags = FIGURES.map((f) => f.tag);

test('each figure of the list has its folder with its element, attributes and stylesheet', () => {
  for (const f of FIGURES) {
    assert.equal(f.tag, `parascope-${f.name}`);
    for (const [what, path] of Object.entries(filesOf(f))) {
      assert.ok(existsSync(new URL(path, widgets)), `${f.name}: its ${what} ${path}`);
    }
    assert.ok(existsSync(new URL(`./${f.name}/model/`, widgets)), `${f.name}: its pure view models, model/`);
  }
});

test('no figure folder stands outside the list', () => {
  const folders = readdirSync(widgets, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.deepEqual(folders.sort(), FIGURES.map((f) => f.name).sort());
});

test("the modules, the engines and the attributes are the list's figures, in its order", () => {
  assert.deepEqual(Object.keys(WIDGET_MODULES), tags);
  assert.deepEqual(Object.keys(WIDGET_ENGINES), tags);
  assert.deepEqual(ELEMENTS, tags);
  for (const f of FIGURES) assert.equal(WIDGET_ENGINES[f.tag][0], f.engine);
  // each tag loads its own figure's module (the imports are written out one by one: lib/widget-modules.js)
  for (const f of FIGURES)
    assert.match(String(WIDGET_MODULES[f.tag]), new RegExp(`'\\.\\./widgets/${f.name}/element\\.js'`));
  assert.equal(figureOf('parascope-bubble').name, 'bubble');
  assert.equal(figureOf('parascope-nope'), undefined);
});

test("lib/model/attributes.js holds each figure's own attributes file, the one the list names", async () => {
  for (const f of FIGURES) {
    const { ATTRIBUTES: own } = await import(new URL(filesOf(f).attributes, widgets));
    assert.equal(ATTRIBUTES[f.tag], own, f.tag);
  }
});
