// css/embed.css names every figure and holds each one's reserved height as widgets/index.js lists them: the file must be
// what lib/model/embed-css.js makes of it. UPDATE=1 rewrites it (after a figure joins FIGURES or a reserve is retuned).
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';

import { embedCss } from '../../web/lib/model/embed-css.js';
import { FIGURES } from '../../web/widgets/index.js';

const FILE = new URL('../../web/css/embed.css', import.meta.url);
const css = await readFile(FILE, 'utf8');
if (process.env.UPDATE) await writeFile(FILE, embedCss(css));

test('css/embed.css lists the figures and their reserved heights as widgets/index.js has them', async () => {
  assert.equal(await readFile(FILE, 'utf8'), embedCss(css));
});

/** How often `tag` stands in `text` as a whole tag (not as the start of a longer one). */
const count = (text, tag) => text.split(new RegExp(`${tag}(?![a-z-])`)).length - 1;

test('every figure of FIGURES is in each of its selector lists, and has its reserved height', () => {
  const written = embedCss(css);
  const times = FIGURES.map(({ tag }) => count(written, tag));
  assert.ok(times[0] >= 6, 'several selector lists, a comment and a rule');
  assert.deepEqual(
    times,
    FIGURES.map(() => times[0]),
    'each list names every figure',
  );
  for (const { tag, reserve } of FIGURES) {
    assert.match(
      written,
      new RegExp(`${tag} \\{\\n  --reserve-narrow: ${reserve.narrow};\\n  --reserve-wide: ${reserve.wide};`),
    );
  }
});

test('a figure added to FIGURES is written into the file (the lists are not copied by hand)', () => {
  FIGURES.push({ name: 'extra', tag: 'parascope-extra', reserve: { narrow: 11, wide: 7 } });
  try {
    const written = embedCss(css);
    assert.match(written, /parascope-nccl,\nparascope-extra \{/);
    assert.match(written, /parascope-extra \{\n {2}--reserve-narrow: 11;\n {2}--reserve-wide: 7;\n\}/);
    assert.equal(count(written, 'parascope-extra'), count(written, 'parascope-axes'), 'in every list, with its block');
  } finally {
    FIGURES.pop();
  }
});

test("one figure's rules (its own embed's: scripts/bundle.mjs) name it alone, the rest of the file as it is", () => {
  const memory = FIGURES.find((f) => f.name === 'memory');
  const alone = embedCss(css, [memory]);
  for (const { tag } of FIGURES) {
    if (tag === memory.tag) assert.ok(count(alone, tag) >= 4, `${tag} in every list and its block`);
    else assert.equal(count(alone, tag), 0, `${tag} is not in the memory figure's rules`);
  }
  const { narrow, wide } = memory.reserve;
  assert.ok(alone.includes(`parascope-memory {\n  --reserve-narrow: ${narrow};\n  --reserve-wide: ${wide};\n}`));
  const rest = (text) => text.replace(/parascope-[a-z]+/g, '').replace(/[\s,]+/g, ' ');
  const blockless = (text) => text.replace(/\/\* <parascope-[a-z]+> \*\/\n[^}]*\}\n\n/g, '');
  assert.equal(rest(blockless(alone)), rest(blockless(css)), 'only the lists and blocks change');
});
