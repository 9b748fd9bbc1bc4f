// What the context figure shows at one position of its stepper, from the engine's `context_ring` answer: which
// chunks each GPU's queries are, whose keys and values it holds, and the attention blocks computed so far. Pure.

/** How many positions the stepper has: cp ring steps (P2P), or gather then attend (all-gather). */
export const positionsOf = (answer, variant) => (variant === 'all-gather' ? 2 : answer.cp);

/** chunk -> the GPU whose queries it is, under the split (the engine's zigzag_chunks or contiguous_chunks). */
export function chunkOwners(answer, split) {
  const owners = new Array(answer.chunks).fill(-1);
  for (const g of answer.gpus) for (const c of g[`${split}_chunks`]) owners[c] = g.gpu;
  return owners;
}

/**
 * One block of the causal attention matrix (query chunk q against key chunk k) as the kernel sees it: below the
 * diagonal whole (1), on it its lower half (0.5), above it masked (0), skipped by a fused kernel; an unfused kernel
 * computes every block whole (`masked` says the result is thrown away). This is the picture the engine counts
 * (its `ring[].zigzag_blocks`), and tests/js/context-model.test.mjs holds the two equal.
 */
export function block(q, k, causalSkip) {
  const masked = q < k;
  const weight = q > k ? 1 : q === k ? 0.5 : 0;
  return { weight: causalSkip ? weight : 1, masked, diagonal: q === k };
}

/**
 * The view at `position` (0-based): { position, positions, owners, gpus: [{ gpu, queries, kv: [from GPUs],
 * blocks }], cells: [{ q, k, gpu, step, current, weight, masked, diagonal }], status, label }. `cells` lists the
 * blocks computed up to this position (`current`: at it); `blocks` is the engine's count for the current step.
 */
export function stepView(answer, { split, variant }, position) {
  const positions = positionsOf(answer, variant);
  const p = Math.max(0, Math.min(positions - 1, position));
  const owners = chunkOwners(answer, split);
  const queriesOf = (g) => answer.gpus[g][`${split}_chunks`];
  const cells = [];
  const gpus = answer.gpus.map((g) => ({ gpu: g.gpu, queries: queriesOf(g.gpu), kv: [], blocks: 0 }));
  const add = (g, from, step) => {
    for (const q of queriesOf(g))
      for (const k of queriesOf(from))
        cells.push({ q, k, gpu: g, step, current: step === p, ...block(q, k, answer.causal_skip) });
  };
  if (variant === 'all-gather') {
    for (const g of gpus) {
      g.kv = p === 0 ? [g.gpu] : answer.gpus.map((x) => x.gpu);
      g.blocks = p === 0 ? 0 : answer.gpus[g.gpu][`${split}_blocks`];
      if (p === 1) for (const x of answer.gpus) add(g.gpu, x.gpu, 1);
    }
  } else {
    for (let i = 0; i <= p; i += 1) {
      const ring = answer.ring[i];
      for (const g of gpus) add(g.gpu, ring.kv_from[g.gpu], i);
    }
    for (const g of gpus) {
      g.kv = [answer.ring[p].kv_from[g.gpu]];
      g.blocks = answer.ring[p][`${split}_blocks`][g.gpu];
    }
  }
  const status = statusOf(answer, { split, variant }, p, positions, gpus);
  return { position: p, positions, owners, gpus, cells, status, label: `Position ${p + 1} of ${positions}. ${status}` };
}

/** "2" or "2.5": block counts are halves. */
const blocks = (n) => String(n);

function statusOf(answer, { split, variant }, p, positions, gpus) {
  const counts = gpus.map((g) => g.blocks);
  const most = Math.max(...counts);
  const least = Math.min(...counts);
  const even =
    most === least
      ? `every GPU computes ${blocks(most)} blocks`
      : `the GPUs compute ${blocks(least)} to ${blocks(most)} blocks, and all wait for the busiest`;
  if (variant === 'all-gather') {
    if (p === 0)
      return `Gather: every GPU receives the keys and values of all ${answer.cp}, and nothing can start until they arrive.`;
    return `Attend: with the whole sequence's keys and values in hand, ${even}.`;
  }
  const head = `Ring step ${p + 1} of ${positions}: `;
  if (p === 0) return `${head}each GPU attends its own keys and values; ${even}. Meanwhile they pass to the next GPU.`;
  const sends = p < positions - 1 ? ' while passing them on' : '; nothing left to pass';
  return `${head}each GPU holds the keys and values of the GPU ${p} place${p > 1 ? 's' : ''} back on the ring${sends}; ${even}.`;
}
