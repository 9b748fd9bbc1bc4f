// The ring's cost panel and chart text from the engine's answers: every number with its unit, one link throughout.
// Texts are kept short and of bounded length so the panel keeps its height (see the ring section of widget.css).
import { bytes as formatBytes, seconds, si } from '../../../lib/format.js';
import { ringLink } from './link.js';

/** Where the ring's GPUs sit, in words: one node, across nodes, or every hop on the network by choice. */
function placement(hw, state) {
  const { link, fits, perNode } = ringLink(hw, state.gpus, state.link);
  if (!fits) return `spans nodes of ${perNode}: the network sets the pace`;
  if (link === 'intra') return `one node (it holds ${perNode})`;
  return 'every hop on the network';
}

/**
 * hw: the hardware preset; state: { gpus, hardware, link, bytes }; r: the engine's answer to readoutRequest.
 * Returns the texts of the cost panel: { link, speed, placement, sent, time, algbw, busbw, steps, formula, summary }.
 */
export function ringReadout(hw, state, r) {
  const { link, fits } = ringLink(hw, state.gpus, state.link);
  const size = formatBytes(state.bytes);
  return {
    link: r.link.name,
    speed: `${si(r.link.bandwidth, 'B/s')} one direction per GPU, ${seconds(r.link.latency)} per step`,
    placement: placement(hw, state),
    sent: `${formatBytes(r.bytes_sent_per_gpu)}`,
    time: `${seconds(r.time)} per all-reduce`,
    algbw: `${si(r.algbw, 'B/s')} (${size} ÷ time)`,
    busbw: si(r.busbw, 'B/s'),
    steps: String(r.steps),
    formula: r.formula,
    summary:
      `${seconds(r.time)} per all-reduce of ${size} per GPU, ${state.gpus} GPUs` +
      (fits ? (link === 'intra' ? ' in one node.' : ' on the network.') : ': the ring crosses the network.'),
  };
}

/** The chart's accessible name and its note under it; `marker` is { gpus, time } of the readout. */
export function ringChartText(hw, state, marker) {
  const { perNode } = ringLink(hw, state.gpus, state.link);
  const nodes = Number.isFinite(perNode) ? `${perNode}` : 'all';
  const flat =
    state.link === 'intra'
      ? `Ring and tree: ${hw.intra_link} up to ${nodes} GPUs (one node), ${hw.inter_link} beyond.`
      : `Ring and tree: ${hw.inter_link} for every N.`;
  return {
    label:
      `Time per all-reduce of ${formatBytes(state.bytes)} per GPU against GPU count, 2 to 16,384, for ring, tree ` +
      `and hierarchical on ${hw.name}, log scales. Marked: this ring of ${marker.gpus} GPUs, ${seconds(marker.time)}.`,
    note: `${flat} Hierarchical: ${hw.intra_link} inside nodes of ${nodes}, ${hw.inter_link} between them.`,
  };
}
