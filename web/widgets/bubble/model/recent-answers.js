// The last few engine answers a widget drew, by request, so a slider moved back to a recent value redraws without
// asking the engine again (the engine is deterministic: the same request always gets the same answer).

/**
 * A memo of at most `size` answers, newest last. get(key) returns the answer stored for `key` (and marks it newest)
 * or undefined; add(key, answer) stores it and returns the answer it pushed out (or null), whose memory a caller may
 * reuse for the next question.
 */
export function recentAnswers(size = 2) {
  const entries = [];
  return {
    get(key) {
      const at = entries.findIndex((e) => e.key === key);
      if (at < 0) return undefined;
      const [entry] = entries.splice(at, 1);
      entries.push(entry);
      return entry.answer;
    },
    /** The answer that add() would push out next (the oldest when full), or null. */
    oldest() {
      return entries.length >= size ? entries[0].answer : null;
    },
    add(key, answer) {
      const gone = entries.length >= size ? entries.shift().answer : null;
      entries.push({ key, answer });
      return gone;
    },
    clear() {
      entries.length = 0;
    },
  };
}
