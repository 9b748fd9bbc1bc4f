// Paints the expert panel of <parascope-axes>: load bars per expert and the facts list, from model/expert-facts.js.
import { h, svg } from '../../lib/dom.js';

const H = 90;
const LABEL_ROOM = 20;

/** Bars at 1:1 CSS pixels `width` wide: one per expert, the busiest marked, the capacity line when there is one. */
export function loadBars(bars, width) {
  const W = Math.max(120, Math.round(width));
  const loads = bars.loads;
  const max = Math.max(...loads, bars.capacity, 1);
  const bw = W / loads.length;
  const chart = svg('svg', {
    class: 'expert-bars',
    role: 'img',
    'aria-label': bars.name,
    width: W,
    height: H + LABEL_ROOM,
    viewBox: `0 0 ${W} ${H + LABEL_ROOM}`,
  });
  loads.forEach((load, e) => {
    const bh = (load / max) * H;
    chart.append(
      svg('rect', {
        x: e * bw + bw * 0.1,
        y: H - bh,
        width: Math.max(1, bw * 0.8),
        height: bh,
        class: e === bars.hot ? 'load hot' : 'load',
        'data-expert': e,
      }),
    );
  });
  if (bars.capacity > 0) {
    const y = H - (bars.capacity / max) * H;
    chart.append(svg('line', { x1: 0, x2: W, y1: y, y2: y, class: 'capacity' }));
  }
  // Label every k-th expert so labels stay 24 px apart or more (and always the busiest one).
  const every = Math.max(1, Math.ceil(24 / bw));
  loads.forEach((_, e) => {
    if (e % every !== 0 && e !== bars.hot) return;
    if (e !== bars.hot && Math.abs(e - bars.hot) * bw < 24) return;
    chart.append(
      svg('text', { x: e * bw + bw / 2, y: H + 15, class: `bar-label${e === bars.hot ? ' hot' : ''}` }, `${e}`),
    );
  });
  return chart;
}

/** The facts list (terms and values) of the expert panel. */
export function factsList(facts) {
  return h(
    'dl',
    { class: 'facts expert-facts' },
    facts.flatMap((f) => [h('dt', {}, f.term), h('dd', { 'data-out': f.key, 'data-value': String(f.value) }, f.text)]),
  );
}
