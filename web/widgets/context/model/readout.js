// The context figure's readouts in words, from the engine's `context_ring` answer: balance, K/V per step, the link,
// exposed time, activations saved and the break-even point. Formatting only; every number is the answer's. Pure.
import { bytes, grouped, seconds, si } from '../../../lib/format.js';

const ratio = (x) => `${Number(x.toFixed(2))}×`;
const tokens = (n) => `${grouped(Math.round(n))} tokens`;
/** An exposed time: "nothing" when the engine says 0 (the transfer is wholly hidden). */
const exposedText = (t) => (t > 0 ? seconds(t) : 'nothing');

/** The link in words: its name, rate and whether the cp group crosses nodes. */
export function linkText(link) {
  const where = link.crosses_nodes ? 'the cp group spans nodes' : 'the cp group sits in one node';
  const measured = link.measured ? ', as your nccl-tests measured it' : '';
  return `${link.name}: ${si(link.bandwidth, 'B/s')} one direction per GPU${measured}; ${where}`;
}

/** Where the ring starts to hide its transfers, in a sentence (break_even). */
export function breakEvenText(answer) {
  const be = answer.break_even;
  const at = `On ${answer.link.name} a forward step's attention covers its K/V transfer from ${tokens(be.sequence)}`;
  const here =
    be.bandwidth > 0
      ? `at ${tokens(answer.sequence)} any link from ${si(be.bandwidth, 'B/s')} would do.`
      : `at ${tokens(answer.sequence)} no link is fast enough: the latency alone outlasts a step's attention.`;
  return `${at}; ${here}`;
}

/**
 * The facts panel: [{ key, label, text, value }] (value: the engine's number, for data-value and the tests) for the
 * answer, the split and the variant shown.
 */
export function facts(answer, { split, variant }) {
  const b = answer.balance;
  const p2p = answer.p2p;
  const ag = answer.all_gather;
  const zig = split === 'zigzag';
  const ring = variant === 'p2p';
  return [
    {
      key: 'balance',
      label: 'Busiest GPU',
      text:
        `${ratio(zig ? b.zigzag_max_over_mean : b.contiguous_max_over_mean)} the mean attention FLOPs ` +
        `(zig-zag ${ratio(b.zigzag_max_over_mean)}, contiguous ${ratio(b.contiguous_max_over_mean)}); ` +
        `contiguous chunks make the ring ${ratio(b.contiguous_slowdown)} longer`,
      value: zig ? b.zigzag_max_over_mean : b.contiguous_max_over_mean,
    },
    {
      key: 'kv',
      label: ring ? 'K/V per step' : 'K/V gathered',
      text: ring
        ? `${bytes(answer.kv_bytes)} forward, ${bytes(p2p.backward.steps[0].transfer_bytes)} backward (with gradients)`
        : `${bytes(ag.gather_bytes)} sent per GPU; ${bytes(ag.gathered_bytes)} held during attention`,
      value: ring ? answer.kv_bytes : ag.gather_bytes,
    },
    { key: 'link', label: 'Link', text: linkText(answer.link), value: answer.link.bandwidth },
    {
      key: 'exposed',
      label: 'Exposed',
      text:
        ring && !zig
          ? `${exposedText(p2p.contiguous.exposed)} per layer, forward and backward (zig-zag: ` +
            `${exposedText(p2p.exposed)}); the cost model prices the zig-zag ring, ` +
            `${exposedText(p2p.exposed_per_step)} per sequence over all layers`
          : `${exposedText(ring ? p2p.exposed : ag.exposed)} per layer, forward and backward; ` +
            `${exposedText(ring ? p2p.exposed_per_step : ag.exposed_per_step)} per sequence over all layers ` +
            `(${ring ? 'all-gather' : 'ring'}: ${exposedText(ring ? ag.exposed_per_step : p2p.exposed_per_step)})`,
      value: ring ? p2p.exposed_per_step : ag.exposed_per_step,
    },
    {
      key: 'activations',
      label: 'Activations',
      text:
        `${bytes(answer.activations.per_layer)} per layer instead of ${bytes(answer.activations.per_layer_without_cp)}: ` +
        `${bytes(answer.activations.saved_per_layer)} saved on each GPU`,
      value: answer.activations.saved_per_layer,
    },
    {
      key: 'break-even',
      label: 'Break-even',
      text: breakEvenText(answer),
      value: answer.break_even.sequence,
    },
  ];
}

/** The ring's or the all-gather's exposed seconds per layer (forward and backward) under the split shown. */
export function exposedPerLayer(answer, { split, variant }) {
  if (variant !== 'p2p') return answer.all_gather.exposed;
  return split === 'contiguous' ? answer.p2p.contiguous.exposed : answer.p2p.exposed;
}

/**
 * The note under the lanes: what the attention costs on the busiest GPU under the split and variant shown, each
 * time the engine's (the contiguous ring's steps, the all-gather's one kernel), beside the other split's.
 */
export function lanesNote(answer, { split, variant }) {
  const zig = split === 'zigzag';
  const b = answer.balance;
  if (variant === 'all-gather') {
    const ag = answer.all_gather;
    const [fwd, bwd] = zig
      ? [ag.forward_compute_time, ag.backward_compute_time]
      : [ag.contiguous_forward_compute_time, ag.contiguous_backward_compute_time];
    const other = zig ? ag.contiguous_forward_compute_time : ag.forward_compute_time;
    return (
      `The attention on the gathered keys and values, one kernel on the busiest GPU: ${seconds(fwd)} forward, ` +
      `${seconds(bwd)} backward (${zig ? 'contiguous' : 'zig-zag'}: ${seconds(other)} forward).`
    );
  }
  if (zig)
    return 'Per layer and sequence; the backward sends keys, values and their gradients beside twice the compute.';
  return (
    `Contiguous chunks: each step waits for its busiest GPU, ${b.contiguous_ring_blocks} blocks on the critical ` +
    `path against zig-zag's ${b.zigzag_ring_blocks}; the forward's attention takes ` +
    `${seconds(answer.p2p.contiguous.forward.compute_time)} against ${seconds(answer.p2p.forward.compute_time)}.`
  );
}

/** The headline above the figure: the model, the split of the sequence and the exposed time per layer. */
export function summary(answer, { split, variant }, names) {
  const ring = variant === 'p2p';
  const exposed = exposedPerLayer(answer, { split, variant });
  const how = ring ? 'passed around a ring' : 'all-gathered';
  return (
    `${names.model}, ${tokens(answer.sequence)} over ${answer.cp} GPUs (${names.hardware}): ` +
    `${answer.chunks} chunks of ${grouped(answer.chunk_tokens)}, ${split === 'zigzag' ? 'zig-zag' : 'contiguous'}, ` +
    `keys and values ${how}; ${exposed > 0 ? `${seconds(exposed)} exposed per layer` : 'the link wholly hidden'}.`
  );
}
