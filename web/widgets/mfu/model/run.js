// "Your run" in <parascope-mfu> as pure state: the typed fields -> the engine's `mfu` answer and every text shown, or
// blanks with a hint beside the field the engine refused. Nothing from an earlier answer survives a refused input.
import { count, percent, si } from '../../../lib/format.js';
import { deviceCount } from './devices.js';

/** The figure's starting state (PaLM's own numbers: 238,300 tokens/s on 6,144 TPU v4 chips, Table 3). */
export const RUN_DEFAULTS = {
  model: 'palm-540b',
  hardware: 'tpu-v4',
  gpus: '6144',
  tokensPerSecond: '238300',
  attention: 'full',
};

const BLANK = '—';

/** A typed field as a number, or null when it is not one (empty, text, NaN, ±∞). */
export function typedNumber(text) {
  const t = String(text ?? '').trim();
  if (t === '') return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

/** The engine's `mfu` request for the typed state, or null when a field is not a number yet. */
export function runRequest(state) {
  const gpus = typedNumber(state.gpus);
  const tokens = typedNumber(state.tokensPerSecond);
  if (gpus === null || tokens === null) return null;
  return {
    op: 'mfu',
    model: state.model,
    hardware: state.hardware,
    gpus,
    tokens_per_second: tokens,
    attention: state.attention,
  };
}

/**
 * ask: (request) -> { response } | { error }; state: { model, hardware, gpus, tokensPerSecond (typed text), attention };
 * words: { one, many } for the chosen hardware. Returns { response (or null), texts, hints: { gpus, tokensPerSecond },
 * over, fill (0..1 of the bar) }.
 */
export function runView(ask, state, words) {
  const hints = { gpus: '', tokensPerSecond: '' };
  const gpus = typedNumber(state.gpus);
  const tokens = typedNumber(state.tokensPerSecond);
  if (gpus === null) hints.gpus = `Type how many ${words.many} ran, a whole number from 1.`;
  if (tokens === null) hints.tokensPerSecond = 'Type the measured throughput in tokens per second, above 0.';
  let response = null;
  const request = runRequest(state);
  if (request) {
    const answer = ask(request);
    if (answer.response) response = answer.response;
    else {
      // A sentence for the reader; the engine's own message stays in its answer (answer.error).
      const field = answer.error.field === 'gpus' ? 'gpus' : 'tokensPerSecond';
      hints[field] =
        field === 'gpus'
          ? `Not accepted: type how many ${words.many} ran, a whole number from 1 up to a real cluster's size.`
          : 'Not accepted: type the measured throughput in tokens per second, above 0 and within what a cluster can reach.';
    }
  }
  if (!response) {
    return {
      response,
      hints,
      over: false,
      fill: 0,
      texts: {
        mfu: BLANK,
        achieved: BLANK,
        peak: BLANK,
        params: BLANK,
        flops: BLANK,
        formula: '',
        dashboard: `${words.many}: no figure until the fields above are accepted`,
        barAria: 'No MFU: a field above is not accepted yet',
        announce: 'No MFU: a field is not accepted yet.',
      },
    };
  }
  const r = response;
  const over = r.mfu > 1;
  if (over) {
    hints.tokensPerSecond =
      `Above 100 %: more arithmetic than ${deviceCount(gpus, words)} can do at peak. Check ` +
      `the throughput and the ${words.one} count.`;
  }
  const mfu = percent(r.mfu);
  return {
    response,
    hints,
    over,
    fill: Math.min(1, r.mfu),
    texts: {
      mfu: over ? `${mfu}: impossible` : mfu,
      achieved: si(r.achieved_flops, 'FLOP/s'),
      peak: si(r.peak_flops, 'FLOP/s'),
      params: count(r.params),
      flops: si(r.flops_per_token, 'FLOP'),
      formula: r.formula,
      dashboard: `${deviceCount(gpus, words)}: each reads busy whenever a kernel is resident`,
      barAria: over ? `Useful FLOPs ${mfu} of peak, which is impossible` : `Useful FLOPs ${mfu} of peak`,
      announce: over ? `MFU ${mfu}, above 100 %: impossible, check the throughput.` : `MFU ${mfu}.`,
    },
  };
}
