// "What the dashboard shows": one green tile per GPU (at most MAX_TILES drawn, the rest counted), all of them busy.
import { h } from './dom.js';
import { percent } from './format.js';

const MAX_TILES = 256;

/** update(gpus, utilization) redraws; utilization (0..1, from the engine) may be null when no model of the run exists. */
export function gpuGrid() {
  const tiles = h('div', { class: 'gpu-tiles', 'aria-hidden': 'true' });
  const more = h('p', { class: 'gpu-more', 'data-out': 'gpus-more' });
  const label = h('p', { class: 'gpu-label', 'data-out': 'dashboard' });
  let drawn = -1;
  return {
    element: h('div', { class: 'gpu-grid' }, label, tiles, more),
    update(gpus, utilization) {
      const n = Math.min(gpus, MAX_TILES);
      if (n !== drawn) {
        tiles.replaceChildren(...Array.from({ length: n }, () => h('span', { class: 'gpu' })));
        drawn = n;
      }
      tiles.classList.toggle('few', n <= 64);
      more.textContent = gpus > n ? `× ${(gpus - n).toLocaleString('en-US')} more, all the same` : '';
      const busy = utilization === null ? 'busy' : `${percent(utilization, 0)} busy`;
      label.textContent = `${gpus.toLocaleString('en-US')} GPUs, each ${busy}`;
      if (utilization !== null) label.dataset.value = String(utilization);
      else delete label.dataset.value;
    },
  };
}
