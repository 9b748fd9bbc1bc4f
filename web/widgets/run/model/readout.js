// What the figure writes from one `run` answer: the headline numbers with their units, the wall clock cut into
// useful training, checkpoint stalls and work lost to failures, and the words under them. Pure: every number is a
// field of the engine's answer (engine/API.md, `run`), only formatted here.
import { bytes, grouped, percent, seconds } from '../../../lib/format.js';

const DAY = 86_400;

/** 4_263_693.1 -> "4.26 M"; under 10,000 grouped whole. */
export function big(value) {
  if (value >= 1e9) return `${Number((value / 1e9).toPrecision(3))} B`;
  if (value >= 1e6) return `${Number((value / 1e6).toPrecision(3))} M`;
  if (value >= 1e4) return `${Number((value / 1e3).toPrecision(3))} k`;
  return grouped(Math.round(value));
}

/** A duration in days when it is one or more, else in the nearest unit (format.js). */
export function days(s) {
  return s >= DAY ? `${Number((s / DAY).toPrecision(3))} days` : seconds(s);
}

/** The headline rows: { key, label, text, value, note } from answer `a`, in the order the figure shows them. */
export function headline(a) {
  const c = a.checkpoint;
  const f = a.failures;
  return [
    {
      key: 'days',
      label: 'Wall clock',
      value: a.wall_clock_days,
      text: days(a.wall_time),
      note: `${days(a.useful_time)} of it training`,
    },
    {
      key: 'failures',
      label: 'Expected failures',
      value: f.expected,
      text: grouped(Math.round(f.expected)),
      note: `one every ${seconds(f.mtbf)} across the job; each costs ${seconds(f.loss_per_failure)}`,
    },
    {
      key: 'checkpoint',
      label: 'Checkpoint',
      value: c.interval,
      text: `every ${seconds(c.interval)}`,
      note: `${bytes(c.size)} written in ${seconds(c.write_time)}; ${c.mode === 'async' ? 'staged in' : 'training waits'} ${seconds(c.blocking_time)}`,
    },
    {
      key: 'goodput',
      label: 'Goodput',
      value: a.goodput,
      text: percent(a.goodput),
      note: 'useful training time ÷ wall clock',
    },
    {
      key: 'effective-mfu',
      label: 'MFU × goodput',
      value: a.effective_mfu,
      text: percent(a.effective_mfu),
      note: `MFU ${percent(a.mfu)} while a step runs`,
    },
    {
      key: 'gpu-hours',
      label: 'GPU-hours',
      value: a.gpu_hours,
      text: big(a.gpu_hours),
      note: `${grouped(a.steps)} steps of ${seconds(a.step_time)}`,
    },
    {
      key: 'energy',
      label: 'Energy',
      value: a.energy.mwh,
      text: `${a.energy.mwh >= 100 ? grouped(Math.round(a.energy.mwh)) : Number(a.energy.mwh.toPrecision(3))} MWh`,
      note: `${Math.round(a.energy.average_gpu_power)} W per GPU on average, PUE ${a.energy.pue}`,
    },
    {
      key: 'cost',
      label: 'Cost',
      value: a.cost.dollars,
      text: `$${big(a.cost.dollars)}`,
      note: `at $${a.cost.price_per_gpu_hour} per GPU-hour`,
    },
  ];
}

/**
 * The wall clock in its three parts, each { key, label, seconds, share } (share of the engine's wall_time): useful
 * training, blocked on checkpoints, and lost to failures (restarts plus work redone). The engine's three add up to
 * its wall time (W = useful + checkpoints + failures · loss, engine/API.md), which tests/js/run-model.test.mjs checks.
 */
export function wallParts(a) {
  const parts = [
    ['useful', 'training', a.useful_time],
    ['checkpoint', 'checkpoint stalls', a.checkpoint.time],
    ['failures', 'lost to failures', a.failures.lost_time],
  ];
  return parts.map(([key, label, s]) => ({ key, label, seconds: s, share: s / a.wall_time }));
}

/** The sentence under the bar: where the time went, in the reader's words. */
export function wallSentence(a) {
  const [useful, ckpt, lost] = wallParts(a);
  return (
    `Of ${days(a.wall_time)} on the wall clock, ${percent(useful.share)} trains the model, ` +
    `${percent(ckpt.share)} waits for ${grouped(Math.round(a.checkpoint.count))} checkpoints and ` +
    `${percent(lost.share)} goes to ${grouped(Math.round(a.failures.expected))} failures: ` +
    `${seconds(a.failures.restart_time.total)} to notice, reschedule and reload each, plus the work since the last checkpoint.`
  );
}

/** Each run field the engine filled in itself, with its source: [field, source] (the answer's `defaults`). */
export function defaultsUsed(a) {
  return Object.entries(a.defaults ?? {});
}
