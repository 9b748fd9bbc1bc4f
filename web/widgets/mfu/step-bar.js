// One training step as a 100 % bar: useful FLOPs first, then every kind of tax, each segment an engine number
// (seconds per step) and its share of the engine's step time, with a legend in seconds per step. Pointing at a
// segment or a legend row (or focusing the row) says which cost (lib/model/focus.js) to the page's other figures of
// the same step; show(kind) marks that cost's segments when another figure points at it.
import { h } from '../../lib/dom.js';
import { seconds } from '../../lib/format.js';
import { FOCUS_KINDS, kindOfSegment } from '../../lib/model/focus.js';
import { shareText, shownSeconds } from './model/step-share.js';

/** Segments in drawing order: [key, legend label, seconds per step from a step response]. */
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
// Context and expert parallelism have no control in the figure (dense models, cp = ep = 1): their rows are left out
// while zero. Every other row stays, at 0 s when absent, so the legend keeps its height as the split moves.
const ROW_ONLY_WHEN_USED = new Set(['cp', 'ep']);

/**
 * The bar and its legend; update(response) redraws both. Every row is kept (0 s when absent): a steady height.
 * `onFocus(kind)`: the reader points at (or focuses) a cost, or at nothing (null).
 */
export function stepBar(onFocus = () => {}) {
  const caption = h('p', { class: 'step-caption', 'data-out': 'step-caption' });
  const bar = h('div', { class: 'step-bar', role: 'img' });
  const legend = h('ul', { class: 'step-legend', 'data-out': 'legend' });
  const box = h('div', { class: 'step-bar-box' }, caption, bar, legend);
  const point = (e) => onFocus(kindOfSegment(e.target.closest?.('[data-seg]')?.dataset.seg) ?? null);
  for (const type of ['pointerover', 'focusin']) box.addEventListener(type, point);
  box.addEventListener('pointerleave', () => onFocus(null));
  box.addEventListener('focusout', (e) => {
    if (!box.contains(e.relatedTarget)) onFocus(null);
  });
  let shown = null;
  const mark = () => {
    const keys = shown ? (FOCUS_KINDS[shown]?.segments ?? []) : [];
    box.toggleAttribute('data-focus', keys.length > 0);
    for (const el of box.querySelectorAll('[data-seg]')) el.classList.toggle('focused', keys.includes(el.dataset.seg));
  };
  return {
    element: box,
    /** Marks cost `kind`'s segments and rows (null: none), as another figure of the same step points at it. */
    show(kind) {
      shown = kind;
      mark();
    },
    update(r) {
      const all = STEP_SEGMENTS.map(([key, label, get]) => ({ key, label, time: shownSeconds(get(r)) }));
      const shown = all.filter((s) => s.time > 0);
      caption.textContent = `Where one step's ${seconds(r.step_time)} go (time per optimizer step)`;
      bar.setAttribute(
        'aria-label',
        `One step of ${seconds(r.step_time)}: ` +
          shown.map((s) => `${s.label} ${shareText(s.time, r.step_time, 0)}`).join(', '),
      );
      bar.replaceChildren(
        ...shown.map((s) => {
          const share = s.time / r.step_time;
          const seg = h(
            'div',
            {
              class: `seg seg-${s.key}`,
              'data-seg': s.key,
              'data-seconds': String(s.time),
              title: `${s.label}: ${seconds(s.time)} per step (${shareText(s.time, r.step_time)})`,
            },
            share >= LABEL_MIN_SHARE ? h('span', {}, shareText(s.time, r.step_time, 0)) : null,
          );
          seg.style.flexGrow = String(s.time); // flex normalizes: the bar is the sum of what is drawn
          return seg;
        }),
      );
      const rows = all.filter((s) => s.time > 0 || !ROW_ONLY_WHEN_USED.has(s.key));
      legend.replaceChildren(
        ...rows.map((s) =>
          h(
            'li',
            { 'data-seg': s.key, class: s.time > 0 ? '' : 'none' },
            h('span', { class: `swatch seg-${s.key}` }),
            // focusable (the row itself has no box): focus shows the cost in the page's other figures, as hover does
            h('span', { class: 'what', tabindex: s.time > 0 ? '0' : null }, s.label),
            h('span', { class: 'num', 'data-seconds': String(s.time) }, s.time > 0 ? seconds(s.time) : '0 s'),
            h('span', { class: 'num share' }, s.time > 0 ? shareText(s.time, r.step_time) : '—'),
          ),
        ),
      );
      mark();
    },
  };
}
