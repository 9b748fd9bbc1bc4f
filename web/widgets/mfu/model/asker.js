// Asks the engine and remembers its answers: ask(request) -> { response } or { error } (an EngineError), never throws
// for a refusal. The MFU figure asks the same step many times while it works out which control values are valid.
const LIMIT = 4000;

/** engine: { call(request) } that returns the response or throws an error carrying `code`. */
export function makeAsker(engine) {
  const memo = new Map();
  return function ask(request) {
    const key = JSON.stringify(request);
    let answer = memo.get(key);
    if (answer) return answer;
    try {
      answer = { response: engine.call(request) };
    } catch (error) {
      if (typeof error?.code !== 'string') throw error; // a bug, not a refusal
      answer = { error };
    }
    if (memo.size >= LIMIT) memo.delete(memo.keys().next().value);
    memo.set(key, answer);
    return answer;
  };
}
