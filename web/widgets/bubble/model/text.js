// Every sentence the bubble widget shows, from an engine "pipeline" answer: gauges, formulas, the known closed form
// beside the simulation, activations, the op readout and the accessible names.
import { grouped, percent } from '../../../lib/format.js';
import { scheduleLabel } from './state.js';

/** Numbers as the reader sees them: whole numbers plainly, others with up to 4 significant digits. */
export const num = (x) => (Number.isInteger(x) ? grouped(x) : String(Number(x.toPrecision(4))));

const KIND_NAMES = { F: 'forward', B: 'backward', W: 'weight gradient' };

export function kindName(kind, splitBackward = false) {
  return kind === 'B' && splitBackward ? 'backward, input gradient' : (KIND_NAMES[kind] ?? kind);
}

/** The time unit of the chart and the readouts. */
function timeUnit(r) {
  return `time unit: one forward pass${r.chunks > 1 ? ' of one chunk' : ''}`;
}

/** "GPipe, 4 stages × 8 microbatches, forward half only". */
export function settingsPhrase(r) {
  return (
    `${scheduleLabel(r.schedule)}, ${r.stages} stage${r.stages === 1 ? '' : 's'} × ${r.microbatches} ` +
    `microbatch${r.microbatches === 1 ? '' : 'es'}${r.chunks > 1 ? ` in ${r.chunks} chunks per GPU` : ''}` +
    `${r.forward_only ? ', forward half only' : ''}`
  );
}

/** The known closed form beside the simulated value: they agree, or the sentence says when the form holds. */
export function closedFormText(r) {
  const cf = r.closed_form;
  const measured = r[cf.measure];
  const steady = cf.measure === 'steady_bubble_fraction';
  const what = steady ? 'idle time inside each GPU’s own span (its first op to its last)' : 'bubble';
  const symbolic = /[a-zA-Z]/.test(cf.formula);
  if (cf.value === null) {
    return (
      `Known form (${cf.source}): ${what} = ${cf.formula}, which holds when ${cf.condition}; these settings fall ` +
      `outside that, so only the simulation applies: ${percent(measured)}.`
    );
  }
  const worked = [cf.formula];
  if (cf.substituted && cf.substituted !== cf.formula) worked.push(cf.substituted);
  if (symbolic) worked.push(percent(cf.value));
  const ends = steady
    ? ` The slanted start and end (the ${percent(r.bubble_fraction)} bubble in the gauge) are left to the neighbouring ` +
      'steps, which fill them once the optimizer step no longer waits for the whole pipeline.'
    : '';
  return `Known form (${cf.source}): ${what} = ${worked.join(' = ')}; simulated here: ${percent(measured)}.${ends}`;
}

/** Peak activations per GPU, in words. */
export function activationsText(r) {
  const peak = r.peak_activations;
  const unit = r.chunks > 1 ? 'chunk activations' : 'microbatches’ activations';
  const most = Math.max(...peak);
  const least = Math.min(...peak);
  const spread = most === least ? `${most} ${unit} on every GPU` : `from ${most} down to ${least} ${unit}`;
  return (
    `Activations in flight (peak per GPU, the grey column): ${spread}` +
    `${r.forward_only ? ' (forward half only: no backward has freed any yet)' : ''}.`
  );
}

/** What the "GPU busy" gauge rests on, for this answer. */
export function dashboardNote(r) {
  if (r.dashboard_utilization === 1) {
    return `counts the ${percent(r.bubble_fraction)} bubble as busy: a waiting GPU sits in a posted receive kernel`;
  }
  return 'the bubble reads as idle here: the stages wait on the host, not in a kernel';
}

/** Every text of the figure for one engine answer (the op readout aside). */
export function bubbleTexts(r) {
  return {
    efficiency: percent(r.efficiency),
    dashboard: percent(r.dashboard_utilization, 0),
    dashboardNote: dashboardNote(r),
    formula:
      `Useful work = busy time ÷ (stages × makespan) = ${num(r.useful_time)} ÷ (${r.stages} × ` +
      `${num(r.makespan)}) = ${percent(r.efficiency)}; the other ${percent(r.bubble_fraction)} is bubble ` +
      `(${timeUnit(r)}).`,
    closedForm: closedFormText(r),
    activations: activationsText(r),
    // No numbers here: the readout is announced as it changes, and the summary already announces them.
    idleReadout: 'Point at an op, or focus the chart and use the arrow keys, to read which op it is and when it runs.',
    chartLabel: `Pipeline timeline: ${settingsPhrase(r)}; ${percent(r.bubble_fraction)} of the GPU time is bubble.`,
    summary: `${settingsPhrase(r)}: useful work ${percent(r.efficiency)}, bubble ${percent(r.bubble_fraction)}.`,
  };
}

/** The readout for op i of the answer (its ops decoded), on `stage`. */
export function opText(r, i, stage) {
  const { microbatch, kind, chunk, start, end } = r.ops;
  const k = kind[i];
  const split = r.times.w > 0;
  // DualPipe's chunk says which end the microbatch entered: chunk 0 at GPU 0, chunk 1 at the last GPU.
  const where =
    r.schedule === 'dualpipe'
      ? ` · entered at GPU ${chunk[i] === 0 ? 0 : r.stages - 1}`
      : r.chunks > 1
        ? ` · chunk ${chunk[i]}`
        : '';
  return (
    `GPU ${stage} · microbatch ${microbatch[i]} · ${kindName(k, split)} (${k})` +
    `${where} · from ${num(start[i])} ` +
    `to ${num(end[i])}`
  );
}
