// One training step as a 100 % bar: useful FLOPs first, then every kind of tax, each segment an engine number
// (seconds) and its share of the engine's step time, with a legend in seconds.
import { h } from './dom.js';
import { percent, seconds } from './format.js';

/** Segments in drawing order: [key, legend label, seconds from a step response]. */
export const STEP_SEGMENTS = [
  ['useful', 'useful model FLOPs, at peak', (r) => r.compute_split.useful_at_peak],
  ['recompute', 'recomputed forward, at peak', (r) => r.compute_split.recompute_at_peak],
  // Below zero when kernels skip FLOPs the MFU convention counts (causal FlashAttention): drawn as 0, with a note.
  ['kernels', 'kernels below peak', (r) => Math.max(0, r.compute_split.kernel_inefficiency)],
  ['memory', 'memory-bound kernels', (r) => r.breakdown.memory_bound],
  ['tp', 'tensor-parallel communication', (r) => r.breakdown.tp_comm],
  ['cp', 'context-parallel communication', (r) => r.breakdown.cp_comm],
  ['pp', 'pipeline sends and receives', (r) => r.breakdown.pp_comm],
  ['dp', 'data-parallel gradient reduction', (r) => r.breakdown.dp_comm],
  ['ep', 'expert all-to-all', (r) => r.breakdown.ep_comm],
  ['bubble', 'pipeline bubble', (r) => r.breakdown.bubble],
  ['optimizer', 'optimizer step', (r) => r.breakdown.optimizer],
  ['other', 'waiting on the slowest stage', (r) => r.breakdown.other],
];

const LABEL_MIN_SHARE = 0.07; // narrower segments carry their share in the legend only

/** The bar and its legend; update(response) redraws both. */
export function stepBar() {
  const bar = h('div', { class: 'step-bar', 'aria-hidden': 'true' });
  const legend = h('ul', { class: 'step-legend', 'data-out': 'legend' });
  return {
    element: h('div', { class: 'step-bar-box' }, bar, legend),
    update(r) {
      const shown = STEP_SEGMENTS.map(([key, label, get]) => ({ key, label, time: get(r) })).filter((s) => s.time > 0);
      bar.replaceChildren(...shown.map((s) => {
        const share = s.time / r.step_time;
        const seg = h('div', { class: `seg seg-${s.key}`, 'data-seg': s.key, 'data-seconds': String(s.time),
          title: `${s.label}: ${seconds(s.time)} (${percent(share)})` },
        share >= LABEL_MIN_SHARE ? h('span', {}, percent(share, 0)) : null);
        seg.style.flexGrow = String(s.time); // flex normalizes: the bar is the sum of what is drawn
        return seg;
      }));
      legend.replaceChildren(...shown.map((s) => h('li', { 'data-seg': s.key },
        h('span', { class: `swatch seg-${s.key}` }), h('span', { class: 'what' }, s.label),
        h('span', { class: 'num', 'data-seconds': String(s.time) }, seconds(s.time)),
        h('span', { class: 'num share' }, percent(s.time / r.step_time)))));
    },
  };
}
