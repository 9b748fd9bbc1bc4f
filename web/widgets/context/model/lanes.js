// The timing lanes under the context figure: one layer's forward and backward attention on the busiest GPU, each
// step's compute beside its K/V transfer, the part of the transfer compute does not cover marked exposed. Every time
// is the engine's (context_ring's p2p.*.steps and all_gather); this only places them end to end. Pure.

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
 *  exposed (neither overlaps the attention it feeds); the attention itself is the same blocks the ring computes. */
function gatherRows(answer) {
  const a = answer.all_gather;
  const fc = answer.p2p.forward.compute_time;
  const bc = answer.p2p.backward.compute_time;
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

/** { rows: [forward, backward], scale }: `scale` the longest row of either variant, so switching keeps the axis. */
export function laneRows(answer, variant) {
  const ring = [ringRow('forward', answer.p2p.forward), ringRow('backward', answer.p2p.backward)];
  const gather = gatherRows(answer);
  const scale = Math.max(...ring.map((r) => r.total), ...gather.map((r) => r.total));
  return { rows: variant === 'all-gather' ? gather : ring, scale };
}
