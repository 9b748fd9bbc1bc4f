// The bubble chart's colours: one per op kind (what the legend shows), microbatch shades that stay close to it, the
// idle hatch never the colour of an op, labels that read on every op, in the light and the dark palette.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const dist = new URL('../../dist/', import.meta.url);
const { chartColours, contrast, parseColour, pack, SHADES } = await import(
  new URL('widgets/bubble/model/colours.js', dist)
);

const css = await readFile(new URL('widgets/bubble/bubble.css', dist), 'utf8');
const variable = (name) => parseColour(new RegExp(`${name}:\\s*([^;]+);`).exec(css)?.[1]);
const series = { f: variable('--bubble-f'), b: variable('--bubble-b'), w: variable('--bubble-w') };
const light = {
  ...series,
  idle: [0xd9, 0x82, 0x2b],
  bg: [0xf7, 0xf8, 0xfb],
  fg: [0x1d, 0x23, 0x30],
  muted: [0x6b, 0x73, 0x85],
};
const dark = {
  ...series,
  idle: [0xe5, 0x9a, 0x4a],
  bg: [0x16, 0x1a, 0x21],
  fg: [0xe4, 0xe7, 0xee],
  muted: [0x9a, 0xa3, 0xb5],
};

test('colours parse from the forms a page hands over', () => {
  assert.deepEqual(parseColour('#4f7fd6'), [0x4f, 0x7f, 0xd6]);
  assert.deepEqual(parseColour('#fff'), [255, 255, 255]);
  assert.deepEqual(parseColour('rgb(1, 2, 3)'), [1, 2, 3]);
  assert.deepEqual(parseColour('rgba(1, 2, 3, 0.5)'), [1, 2, 3]);
  assert.equal(parseColour(''), null);
});

test('the widget stylesheet defines the three series colours the legend and the chart share', () => {
  for (const [kind, colour] of Object.entries(series)) assert.ok(colour, `--bubble-${kind}`);
});

for (const [name, palette] of [
  ['light', light],
  ['dark', dark],
]) {
  test(`${name}: an op is coloured by its kind, its microbatch only shades it; the legend colour is microbatch 0’s`, () => {
    const c = chartColours(palette);
    for (const kind of ['F', 'B', 'W']) {
      const base = palette[kind.toLowerCase()];
      assert.equal(c.op(kind, 0), pack(base));
      assert.equal(c.kindCss(kind, 0), `rgb(${base.join(' ')})`);
      for (let mb = 0; mb < 8; mb += 1) {
        assert.equal(c.op(kind, mb), c.op(kind, mb + SHADES.length), 'the shade cycles, the colour stays the kind’s');
      }
      assert.notEqual(c.op(kind, 0), c.op(kind, 1), 'neighbouring microbatches differ');
    }
    assert.notEqual(c.op('F', 0), c.op('B', 0));
    assert.notEqual(c.op('B', 0), c.op('W', 0));
  });

  test(`${name}: the hatch, the row gutter and op edges are never one another`, () => {
    const c = chartColours(palette);
    const ops = ['F', 'B', 'W'].flatMap((k) => [0, 1, 2, 3].flatMap((mb) => [c.op(k, mb), c.edge(k, mb)]));
    for (const idle of [c.hatch, c.back]) assert.ok(!ops.includes(idle));
    assert.ok(!ops.includes(c.gutter));
  });

  test(`${name}: op blocks stand out from the background and their letters read (contrast ≥ 3)`, () => {
    const c = chartColours(palette);
    for (const kind of ['F', 'B', 'W']) {
      assert.ok(contrast(palette[kind.toLowerCase()], palette.bg) >= 2.2, `${kind} on the ${name} background`);
      for (let mb = 0; mb < SHADES.length; mb += 1) {
        const fill = parseColour(c.kindCss(kind, mb));
        const text = parseColour(c.label(kind, mb));
        assert.ok(contrast(fill, text) >= 3, `${kind}${mb}: ${contrast(fill, text).toFixed(2)}`);
      }
    }
  });
}
