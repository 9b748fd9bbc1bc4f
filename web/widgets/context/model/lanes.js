// The timing lanes under the context figure: one layer's forward and backward attention on the busiest GPU, each
// step's compute beside its K/V transfer, the part of the transfer compute does not cover marked exposed. Every time
// is the engine's (context_ring's p2p.*.steps, p2p.contiguous.*.steps and all_gather); this only places them end to
// end. Pure.

/** One P2P pass: a step lasts its compute plus its exposed transfer (engine/API.md: exposed = max(0, t − c)). */
function ringRow(name, pass) {
  const bars = [];
  let t = 0;
  pass.steps.forEach((s, i) => {
    bars.push({ kind: 'compute', step: i, start: t, end: t + s.compute_time });
    if (s.transfer_time > 0) bars.push({ kind: 'transfer', step: i, start: t, end: t + s.transfer_time });
    if (s.exposed > 0)
      bars.push({ kind: 'exposed', step: i, start: t + s.compute_time, end: t + s.compute_time + s.exposed });
    t += s.compute_time + s.exposed;
  });
  return { name, bars, total: t, exposed: pass.exposed, compute: pass.compute_time };
}

/** The all-gather variant: the gather before the forward's attention, the reduce-scatter after the backward's, both
 *  exposed (neither overlaps the attention it feeds); the attention on the gathered K/V is the engine's time for the
 *  busiest GPU under the split (all_gather.*_compute_time: one kernel over the whole pass, no ring steps). */
function gatherRows(answer, split) {
  const a = answer.all_gather;
  const zig = split !== 'contiguous';
  const fc = zig ? a.forward_compute_time : a.contiguous_forward_compute_time;
  const bc = zig ? a.backward_compute_time : a.contiguous_backward_compute_time;
  return [
    {
      name: 'forward',
      bars: [
        { kind: 'transfer', step: 0, start: 0, end: a.gather_time },
        { kind: 'exposed', step: 0, start: 0, end: a.gather_time },
        { kind: 'compute', step: 1, start: a.gather_time, end: a.gather_time + fc },
      ],
      total: a.gather_time + fc,
      exposed: a.gather_time,
      compute: fc,
    },
    {
      name: 'backward',
      bars: [
        { kind: 'compute', step: 1, start: 0, end: bc },
        { kind: 'transfer', step: 1, start: bc, end: bc + a.scatter_time },
        { kind: 'exposed', step: 1, start: bc, end: bc + a.scatter_time },
      ],
      total: bc + a.scatter_time,
      exposed: a.scatter_time,
      compute: bc,
    },
  ];
}

/** The P2P ring's passes for a split: zig-zag's p2p.forward/backward, or the contiguous ring's (p2p.contiguous). */
export const ringPasses = (answer, split) => (split === 'contiguous' ? answer.p2p.contiguous : answer.p2p);

/**
 * { rows: [forward, backward], scale }: `scale` the longest row of either variant under either split, so switching
 * the variant or the split keeps the axis (the contiguous ring's longer steps then show as longer).
 */
export function laneRows(answer, variant, split = 'zigzag') {
  const ringOf = (sp) => [
    ringRow('forward', ringPasses(answer, sp).forward),
    ringRow('backward', ringPasses(answer, sp).backward),
  ];
  const all = ['zigzag', 'contiguous'].flatMap((sp) => [...ringOf(sp), ...gatherRows(answer, sp)]);
  const scale = Math.max(...all.map((r) => r.total));
  return { rows: variant === 'all-gather' ? gatherRows(answer, split) : ringOf(split), scale };
}
