// The article's ring section says what NCCL does in our own words: it chooses among algorithms per call; the ring is
// not "its default" (issue 10, item 5).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const html = await readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
const section = html.slice(html.indexOf('<h2 id="ring"'), html.indexOf('<h2 id="bubble"')); // the section, not its line in the contents

test("the ring section does not call the ring NCCL's default; it says NCCL picks per call", () => {
  assert.doesNotMatch(section, /default for large arrays is a ring/);
  assert.match(section, /picks one for each call/);
});

test('the caption says a ring larger than a server crosses the network and gives times per all-reduce', () => {
  assert.match(section, /a ring of more spans servers/);
  assert.match(section, /per all-reduce/);
});
