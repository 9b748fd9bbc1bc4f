// The words and numbers <parascope-mfu> shows for one `step` answer of the engine: headline, dashboard side, facts,
// accessible names and the polite announcement. Pure: engine answer in, strings out (formatting only, no engine maths).
import { percent, seconds, si } from '../../../lib/format.js';
import { deviceCount } from './devices.js';
import { shareText, shownSeconds } from './step-share.js';

/**
 * The engine's error band in a reader's words: the 10th to 90th percentile of where published runs of this stack,
 * which the model was not fitted to, landed against its prediction (engine/API.md "Error bands").
 */
export function bandText(band) {
  if (!band) return '';
  const [low, high] = band.mfu;
  // Whose runs: the engine's basis names a stack by its id ("megatron-core"), or "all stacks", or "all stacks and
  // <id>" (too few of the stack's own: both records); the figure names no stack, so say it relative to the run.
  const basis =
    band.basis === 'all stacks'
      ? 'every stack'
      : band.basis.startsWith('all stacks and ')
        ? "every stack and of this run's own"
        : "this run's software stack";
  // The engine's what-if for a GPU cluster it cannot see the network of (error_band.network).
  const network = band.network
    ? `; ${(band.network.mfu * 100).toFixed(0)} % if the network between nodes ran at half its rate`
    : '';
  // The engine widens the band where none of the stack's held-out runs ran on this chip (error_band.untried_chip).
  const untried = band.untried_chip ? ', none of its own on this chip' : '';
  return (
    `likely ${(low * 100).toFixed(0)}–${(high * 100).toFixed(0)} %: ${band.held_out_runs} held-out published runs ` +
    `of ${basis}${untried}${network}`
  );
}

/**
 * The line beside the recomputation control when choices are not offered because the engine answers the same step
 * for them as for the one chosen (`twins`: from sameStepChoices). Selective beside none is the case the engine has:
 * under FlashAttention the attention core keeps no score matrix, so selective recomputation has nothing to redo.
 */
export function recomputeHint(recompute, twins, label = (v) => v) {
  if (!twins.length) return '';
  const pair = [recompute, ...twins].sort().join(' ');
  if (pair === 'none selective') {
    const why = 'FlashAttention leaves it no attention scores to recompute';
    return recompute === 'none'
      ? `Selective is not offered: the engine answers the same step as none (${why}).`
      : `None is not offered: the engine answers the same step as selective (${why}).`;
  }
  return `Not offered: ${twins.map(label).join(', ')}, for which the engine answers the same step as this.`;
}

/**
 * Why ZeRO-3 holds more than ZeRO-2 in this run, in a reader's words, when the engine's answer carries its
 * `memory_per_gpu.note` (ZeRO-3 in a pipeline); the engine's own sentence stays in the exported JSON.
 */
export function memoryNote(r) {
  if (!r.memory_per_gpu.note) return '';
  return r.parallel.reshard_after_forward
    ? "Why it can be more than ZeRO-2: in a pipeline, ZeRO-3 keeps each microbatch's gradients whole until the last " +
        "microbatch's backward pass."
    : 'Why more than ZeRO-2: in a pipeline, ZeRO-3 keeps the gathered weights and whole gradients from the first ' +
        'microbatch to the last, rather than gathering them again for each one.';
}

/** Share of the step, "12 %", from two engine seconds (display only). */
const share = (part, r) => shareText(part, r.step_time, 0);

/**
 * r: the engine's step answer; gpus: the cluster's device count; words: { one, many } from deviceWords; kind: 'gpu'
 * or 'tpu'. Returns every text of the modelled side.
 */
export function stepView(r, { gpus, words }) {
  const b = r.breakdown;
  const comm = shownSeconds(b.tp_comm + b.cp_comm + b.pp_comm + b.dp_comm + b.ep_comm);
  const resident = percent(r.dashboard_utilization, 0);
  const devices = deviceCount(gpus, words);
  const waits = shownSeconds(b.bubble + b.other);
  const dashboard =
    `A utilization gauge shows the share of time some kernel is resident on each ${words.one}, not how ` +
    `much of its arithmetic is used. Here a kernel is resident ${resident} of the step: math kernels, communication ` +
    `(${share(comm, r)} of the step)` +
    (waits > 0
      ? ` and waiting (${share(waits, r)}: pipeline bubble and the wait for the slowest stage). Waiting reads as busy ` +
        'only because the model assumes a waiting stage sits in a posted receive kernel; a stage that waited with no ' +
        'kernel resident would read idle.'
      : '; nothing waits in this step.');
  const skipped = -r.compute_split.kernel_inefficiency;
  return {
    modelled: percent(r.mfu),
    band: bandText(r.error_band),
    gridLabel: `${devices}: the gauge reads ${resident} on each`,
    gridAria: `${devices}, each reading ${resident} utilization on a dashboard`,
    dashboardNote: dashboard,
    stepTime: seconds(r.step_time),
    tokens: `${si(r.tokens_per_second).trim()} tokens/s`,
    hfu: percent(r.hfu),
    dp: String(r.parallel.dp),
    microbatches: `${r.microbatches}, of ${r.parallel.microbatch_size} sequence${r.parallel.microbatch_size === 1 ? '' : 's'} each`,
    kernelNote:
      skipped > 0
        ? `"Kernels below peak" is drawn as 0: the kernels finish ${seconds(skipped)} per step sooner than the counted ` +
          'FLOPs would take at peak, because causal FlashAttention skips the masked half of the attention scores that ' +
          'the PaLM convention counts.'
        : '',
    formula: `FLOPs per token: ${si(r.flops_per_token, 'FLOP')}, ${r.formula}.`,
    announce:
      `Modelled MFU ${percent(r.mfu)}; step ${seconds(r.step_time)}; a dashboard reads ${resident}` +
      `${r.fits ? '' : '; does not fit in memory'}.`,
  };
}
