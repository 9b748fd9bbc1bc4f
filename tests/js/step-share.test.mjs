// The step bar's share texts: a part above zero never reads as 0 %.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shareText, shownSeconds } from '../../web/widgets/mfu/model/step-share.js';

test('a share that rounds to nothing but is above zero reads "< 0.1 %" (or "< 1 %")', () => {
  assert.equal(shareText(0.00275, 17.5), '< 0.1 %');
  assert.equal(shareText(0.00275, 17.5, 0), '< 1 %');
  assert.equal(shareText(0.03, 17.5, 0), '< 1 %');
});

test('other shares read as percent() writes them; zero stays zero', () => {
  assert.equal(shareText(8.14, 17.5), '46.5 %');
  assert.equal(shareText(3.31, 17.5, 0), '19 %');
  assert.equal(shareText(0.01, 17.5), '0.1 %');
  assert.equal(shareText(0, 17.5), '0.0 %');
  assert.equal(shareText(0, 17.5, 0), '0 %');
  assert.equal(shareText(1, 0), '0.0 %');
});

test("a time per step under 1 ns is float noise left in the engine's sums: shown as none", () => {
  assert.equal(shownSeconds(2.842170943040401e-14), 0);
  assert.equal(shownSeconds(-1e-12), 0);
  assert.equal(shownSeconds(0), 0);
  assert.equal(shownSeconds(1e-6), 1e-6);
  assert.equal(shownSeconds(0.00275), 0.00275);
});
