// The engine requests behind the ring figure: the readout's all-reduce, its round-by-round trace, the chart's curves.
import { ringLink } from './link.js';

/** GPU counts on the chart: 2, 4, .. 16,384. */
export const CHART_GPUS = Array.from({ length: 14 }, (_, i) => 2 ** (i + 1));
export const ALGORITHMS = ['ring', 'tree', 'hierarchical'];

/** The all-reduce of `bytes` per GPU over `gpus` GPUs on the link the ring really uses (see ringLink). */
export function allreduceRequest(hw, { hardware, link, bytes }, gpus, algorithm = 'ring') {
  if (algorithm === 'hierarchical') return { op: 'allreduce', algorithm, gpus, bytes, link: hardware };
  return { op: 'allreduce', algorithm, gpus, bytes, link: hardware, link_kind: ringLink(hw, gpus, link).link };
}

/** The readout's request for the current state; `trace` adds the rounds (buffers that really sum). */
export function readoutRequest(hw, state, trace = false) {
  const request = allreduceRequest(hw, state, state.gpus);
  return trace ? { ...request, trace: true } : request;
}

/** Every N the ring's own slider reaches, so the flat curves pass through the readout at any N and show the step
 *  where the ring leaves the node. */
const SLIDER_GPUS = Array.from({ length: 15 }, (_, i) => i + 2);

/** One request per chart point: [{ algorithm, gpus, request, dot }], `dot` for the labelled powers of two. Flat ring
 *  and tree follow the same link rule as the readout (inside one node while it fits, the network beyond) at every N
 *  from 2 to 16 and at each power of two; hierarchical uses nodes of the preset's size, at the powers of two. */
export function chartRequests(hw, state) {
  const flat = [...new Set([...SLIDER_GPUS, ...CHART_GPUS])].sort((a, b) => a - b);
  // Hierarchical runs in whole nodes (or inside one): with a 72-GPU NVLink domain (GB200 NVL72) the powers of two
  // beyond 64 are not whole nodes, so that curve stops at one node.
  const perNode = hw.gpus_per_node > 0 ? hw.gpus_per_node : Infinity;
  const whole = CHART_GPUS.filter((gpus) => gpus <= perNode || gpus % perNode === 0);
  return ALGORITHMS.flatMap((algorithm) =>
    (algorithm === 'hierarchical' ? whole : flat).map((gpus) => ({
      algorithm,
      gpus,
      dot: CHART_GPUS.includes(gpus),
      request: allreduceRequest(hw, state, gpus, algorithm),
    })),
  );
}
