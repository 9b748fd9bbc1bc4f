// The figure's words: an event's numbers for the readout, the step in one sentence, a GPU's label, and the engine's
// refusals in a reader's words (never its message). Every number comes from the engine's answer. Pure.
import { bytes, grouped, seconds, si } from '../../../lib/format.js';

const OPS = { F: 'forward', B: 'backward', W: 'weight gradient' };

/** "GPU 24 · stage 3", with "(slowest)" on the stage that sets the pipeline's pace. */
export const gpuLabel = (g) => `GPU ${grouped(g.gpu)} · stage ${g.stage}${g.slowest ? ' (slowest)' : ''}`;

/** An event's amount in its unit ("22.6 TFLOP", "18 GiB"), or '' for none. */
function amountText(kind, amount) {
  if (!(amount > 0)) return '';
  if (kind === 'flops') return `${si(amount, 'FLOP')}`;
  if (kind === 'bytes') return bytes(amount);
  return '';
}

/**
 * The readout for event `k` of lane `laneId` on GPU `g` (gpuLanes), `head` the answer's step-wide fields (pieces,
 * lanes): what it is, where it sits, how long, how much of it the stream waited for, what it moves or computes.
 */
export function eventText(g, laneId, k, head) {
  const lane = g.lanes.get(laneId);
  const i = lane.ids[k];
  const ev = g.events;
  const piece = head.pieces[ev.piece[i]];
  const laneInfo = head.lanes.find((l) => l.id === laneId);
  const op = ev.op[i];
  const where = [
    OPS[op] ? `${OPS[op]} of microbatch ${ev.microbatch[i]}` : '',
    ev.chunk[i] > 0 ? `chunk ${ev.chunk[i]}` : '',
    ev.to_stage[i] >= 0 ? `to stage ${ev.to_stage[i]}` : '',
  ].filter(Boolean);
  const dur = ev.end[i] - ev.start[i];
  const exposed = ev.exposed[i];
  const compute = laneId === 'compute' || laneId === 'optimizer';
  const split =
    compute || piece.id === 'send'
      ? ''
      : exposed >= dur * (1 - 1e-12)
        ? '; all of it exposed (the compute stream waits)'
        : exposed > 0
          ? `; ${seconds(exposed)} exposed (the compute stream waits), ${seconds(dur - exposed)} hidden under kernels`
          : '; all of it hidden under kernels';
  const amount = amountText(piece.amount, ev.amount[i]);
  const link = laneInfo?.link && !compute ? ` over ${laneInfo.link}` : '';
  return (
    `${gpuLabel(g)}, ${laneInfo?.name ?? laneId}: ${piece.name}${where.length ? `, ${where.join(', ')}` : ''}. ` +
    `${seconds(dur)}, from ${ms(ev.start[i])} to ${ms(ev.end[i])}${split}` +
    `${amount ? `; ${amount}${link}` : ''}.`
  );
}

/** Seconds as milliseconds with three significant digits at least ("103 ms", "1,234.5 ms"). */
export function ms(t) {
  const v = t * 1e3;
  const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 2 : 4;
  return `${v.toLocaleString('en-US', { maximumFractionDigits: digits })} ms`;
}

/** The step in a sentence: its time, where the pipeline ends, what follows it. */
export function stepSentence(head) {
  const tail = head.step_time - head.pipeline_makespan;
  return (
    `One step takes ${seconds(head.step_time)}: the pipeline's last op ends at ${seconds(head.pipeline_makespan)}` +
    (tail > 0
      ? `, then ${seconds(tail)} of data-parallel reduction and optimizer before the next step can start.`
      : '.')
  );
}

/** "Stages 0–7 of 64 drawn (each stage's first GPU), 2,612 events in view." */
export function drawnSentence(stages, pp, inView) {
  const which =
    stages.length === pp
      ? `All ${pp} ${pp === 1 ? 'stage' : 'stages'} drawn`
      : `Stages ${stages[0]}–${stages[stages.length - 1]} of ${pp} drawn`;
  return `${which} (each stage's first GPU); ${grouped(inView)} events in view.`;
}

/** A GPU's exposed seconds as the engine sums them, for its label's title. */
export function exposedText(g) {
  const e = g.exposed;
  const parts = [
    ['compute', e.compute],
    ['memory-bound', e.memory_bound],
    ['TP', e.tp_comm],
    ['EP', e.ep_comm],
    ['CP', e.cp_comm],
    ['waiting on the slowest stage', e.other],
    ['idle', e.idle],
    ['DP', e.dp_comm],
    ['optimizer', e.optimizer],
  ].filter(([, v]) => v > 0);
  return `${gpuLabel(g)}: ${parts.map(([k, v]) => `${k} ${seconds(v)}`).join(', ')}`;
}

/**
 * The sentence for a refused `timeline` request (error `e`: { code, field }; `schedule`: the one asked for, if any):
 * the knob the engine names and the rule it breaks, in a reader's words (never the engine's message).
 */
export function timelineErrorText(e, schedule = null) {
  const field = e?.field ?? '';
  if (e?.code === 'too_large')
    return 'This step has too many events for the engine to draw at once: show fewer stages, or use fewer microbatches.';
  if (field.startsWith('memory') || e?.code === 'out_of_memory')
    return 'This configuration does not fit in the GPU’s memory, so it has no step to draw.';
  if (field === 'parallel.tp')
    return 'Tensor parallelism splits the attention heads, and this model’s do not divide by this tp: pick a smaller tp.';
  if (field === 'parallel.pp' || field === 'parallel.vpp')
    return 'Each pipeline stage needs whole layers, and this model has too few for so many (or the schedule wants an even count): pick fewer stages.';
  if ((field === 'parallel.global_batch' || field === 'parallel.microbatch_size') && schedule === 'dualpipe')
    return 'DualPipe needs at least two microbatches per stage: pick more microbatches or fewer stages.';
  if (field === 'parallel.global_batch' || field === 'parallel.microbatch_size')
    return 'The batch must split into whole microbatches on every replica, and the schedule needs enough of them.';
  if (field.startsWith('parallel.schedule'))
    return 'This schedule cannot run this split: pick another schedule or pipeline size.';
  if (field === 'parallel.cp') return 'Context parallelism must cut the sequence into equal chunks; pick another size.';
  if (field === 'parallel.ep' || field === 'parallel.etp')
    return 'Expert parallelism needs a mixture-of-experts model whose experts it divides, and enough GPUs beside it.';
  if (field === 'parallel.offload_optimizer')
    return 'The engine knows no host link or host memory speed for this chip (the TPUs), so it cannot draw the optimizer stepped on the host.';
  if (field.startsWith('parallel') || field.startsWith('cluster'))
    return 'This split does not run on this many GPUs: tp × pp × cp must divide them.';
  if (field === 'model' || field === 'hardware') return 'The engine does not know this model or accelerator.';
  return 'The engine cannot draw this step as set; change the configuration.';
}
