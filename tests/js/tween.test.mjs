// lib/tween.js, the eased move the ring and context figures animate with, on a hand-driven frame clock: it starts at
// 0 and arrives at exactly 1, eases in and out, resolves true on arrival and false when cancelled, and draws no frame
// after a cancel.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const queue = new Map();
let nextId = 0;
globalThis.requestAnimationFrame = (fn) => {
  nextId += 1;
  queue.set(nextId, fn);
  return nextId;
};
globalThis.cancelAnimationFrame = (id) => queue.delete(id);
/** Runs the frames waiting, at `ms` after now. */
const frameAt = (ms) => {
  const due = [...queue.values()];
  queue.clear();
  for (const fn of due) fn(performance.now() + ms);
};

const { tween } = await import('../../web/lib/tween.js');

test('a move draws from 0 to exactly 1, slow at both ends, and resolves true on arrival', async () => {
  const drawn = [];
  const move = tween(100, (e) => drawn.push(e));
  for (const ms of [0, 10, 50, 90, 100, 200]) frameAt(ms);
  assert.equal(await move.done, true);
  assert.ok(drawn[0] < 0.01, `starts at 0 (${drawn[0]})`);
  assert.ok(drawn[1] < 0.1 && Math.abs(drawn[2] - 0.5) < 0.01, `eases in (${drawn[1]}), half way at half time`);
  assert.ok(1 - drawn[3] < 0.1, `eases out (${drawn[3]})`);
  assert.equal(drawn.at(-1), 1);
  assert.equal(drawn.length, 5, 'no frame after arrival');
});

test('a cancelled move resolves false and draws nothing more', async () => {
  const drawn = [];
  const move = tween(100, (e) => drawn.push(e));
  frameAt(20);
  move.cancel();
  frameAt(100);
  assert.equal(await move.done, false);
  assert.equal(drawn.length, 1);
  assert.equal(queue.size, 0, 'no frame left asked for');
});
