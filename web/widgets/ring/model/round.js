// What the ring shows after k completed rounds of the engine's trace: buffers, the cells the last round changed, text.

/**
 * trace: the engine's traced ring all-reduce ({ initial, rounds: [{ phase, transfers, buffers }] }); k: rounds done.
 * Returns { round, rounds, phase, buffers, final, changed: { "g,c": "add" | "copy" }, status, label }: `status` is
 * the line above the figure, `label` the figure's accessible description of this moment.
 */
export function ringRound(trace, k) {
  const n = trace.initial.length;
  const rounds = trace.rounds.length;
  const half = rounds / 2;
  const buffers = k === 0 ? trace.initial : trace.rounds[k - 1].buffers;
  const final = rounds ? trace.rounds[rounds - 1].buffers : trace.initial;
  const phase = k === 0 ? 'start' : trace.rounds[k - 1].phase;
  const changed = {};
  if (k > 0) {
    for (const t of trace.rounds[k - 1].transfers)
      changed[`${t.to},${t.chunk}`] = phase === 'scatter-reduce' ? 'add' : 'copy';
  }
  let status;
  if (k === 0) status = `Start: each GPU holds its own array, cut into ${n} chunks. ${rounds} rounds to go.`;
  else if (k <= half) status = `Scatter-reduce, round ${k} of ${half}`;
  else status = `All-gather, round ${k - half} of ${half}`;
  if (k === rounds && k > 0) status += ': done, every GPU holds the full sum.';
  else if (k === half && k > 0) status += ': every GPU now holds one complete sum, a different chunk each.';
  else if (k > 0 && k < half) status += ': each GPU adds the chunk it received from its neighbour.';
  else if (k > half) status += ': each GPU passes on a finished chunk, replacing its copy.';
  const label = `Ring all-reduce of ${n} GPUs, round ${k} of ${rounds}. ${status}`;
  return { round: k, rounds, phase, buffers, final, changed, status, label };
}
