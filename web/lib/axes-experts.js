// The expert tab of <parascope-axes>: per-expert load bars from the engine's moe_route answer, the hot expert and GPU.
import { h, svg } from './dom.js';
import { seconds } from './format.js';

/** A bar per expert (its token assignments), the hot one marked, with the capacity line when there is one. */
export function loadBars(route) {
  const loads = route.expert_load;
  const max = Math.max(...loads, route.capacity, 1);
  const W = 400;
  const H = 90;
  const bw = W / loads.length;
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H + 14}`, class: 'expert-bars', role: 'img',
    'aria-label': `token assignments per expert; expert ${route.hot_expert} is the busiest` });
  loads.forEach((load, e) => {
    const bh = (load / max) * H;
    chart.append(svg('rect', { x: e * bw + bw * 0.1, y: H - bh, width: bw * 0.8, height: bh,
      class: e === route.hot_expert ? 'load hot' : 'load', 'data-expert': e }));
  });
  if (route.capacity > 0) {
    const y = H - (route.capacity / max) * H;
    chart.append(svg('line', { x1: 0, x2: W, y1: y, y2: y, class: 'capacity' }));
  }
  if (loads.length <= 32) {
    loads.forEach((_, e) => chart.append(svg('text', { x: e * bw + bw / 2, y: H + 12, class: 'bar-label' }, `${e}`)));
  }
  return chart;
}

/** The facts line: hot expert, hot GPU, all-to-all time against a balanced router. */
export function expertFacts(route, hotGpus) {
  return h('dl', { class: 'facts expert-facts' },
    h('dt', {}, 'Busiest expert'), h('dd', { 'data-out': 'hot-expert' },
      `expert ${route.hot_expert}: ${Number(route.max_over_mean.toPrecision(3))}× the mean load`),
    h('dt', {}, 'Busiest GPU'), h('dd', { 'data-out': 'hot-rank' },
      `EP rank ${route.hot_rank}${hotGpus.length ? ` (GPU ${hotGpus.join(', ')} in the grid)` : ''}`),
    h('dt', {}, 'All-to-all (dispatch)'), h('dd', { 'data-out': 'a2a-time', 'data-value': String(route.time) },
      `${seconds(route.time)} (a balanced router: ${seconds(route.balanced_time)})`),
    h('dt', {}, 'Dropped'), h('dd', { 'data-out': 'dropped', 'data-value': String(route.dropped) },
      route.capacity > 0 ? `${route.dropped} assignments over capacity ${route.capacity}` : 'none (dropless)'));
}
