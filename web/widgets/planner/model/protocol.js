// The planner worker's message protocol, as pure state: which messages still matter (only the newest search's) and how
// big the next search chunk is, so each chunk takes about CHUNK_MS and progress and cancelling stay prompt.

/** Time one chunk of the search should take in the worker (ms). */
export const CHUNK_MS = 25;

/** The size of the next chunk: scaled toward `target` ms from how long the last one took, within [500, 1,000,000]. */
export function nextChunk(size, tookMs, target = CHUNK_MS) {
  const scale = tookMs > 0 ? Math.min(4, Math.max(0.25, target / tookMs)) : 4;
  return Math.max(500, Math.min(1_000_000, Math.round(size * scale)));
}

/**
 * A search's state after a worker message: { phase: "searching"|"done"|"error", evaluated, total, answer, error },
 * or null when the message belongs to an older search (a stale answer must never replace the newest inputs' figure).
 */
export function afterMessage(current, message) {
  if (!message || message.id !== current.id) return null;
  if (message.type === 'progress')
    return { ...current, phase: 'searching', evaluated: message.evaluated, total: message.total };
  if (message.type === 'done') return { ...current, phase: 'done', answer: message.answer };
  if (message.type === 'error') return { ...current, phase: 'error', error: message.error };
  return null;
}

/** A new search's state. */
export function started(id, request) {
  return { id, request, phase: 'searching', evaluated: 0, total: 0, answer: null, error: null };
}
