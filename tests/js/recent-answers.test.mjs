// The bubble's memo of recent engine answers (widgets/bubble/model/recent-answers.js): the same request gets the stored answer,
// the oldest is pushed out first, and a stored answer read again counts as newest.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { recentAnswers } from '../../web/widgets/bubble/model/recent-answers.js';

test('recent answers: found by key, oldest pushed out, a read makes an answer newest', () => {
  const memo = recentAnswers(2);
  assert.equal(memo.get('a'), undefined);
  assert.equal(memo.oldest(), null);
  assert.equal(memo.add('a', 1), null);
  assert.equal(memo.add('b', 2), null);
  assert.equal(memo.oldest(), 1);
  assert.equal(memo.get('a'), 1); // now newest: b is the oldest
  assert.equal(memo.oldest(), 2);
  assert.equal(memo.add('c', 3), 2);
  assert.equal(memo.get('b'), undefined);
  assert.equal(memo.get('a'), 1);
  assert.equal(memo.get('c'), 3);
  memo.clear();
  assert.equal(memo.get('a'), undefined);
});
