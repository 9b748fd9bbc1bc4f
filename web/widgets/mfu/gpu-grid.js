// "What the dashboard shows": one tile per device (at most MAX_TILES drawn, the rest counted) in a square of fixed
// size, so the figure keeps its height whatever the count. Texts come from the caller (model/).
import { h } from '../../lib/dom.js';
import { grouped } from '../../lib/format.js';

const MAX_TILES = 256;

/** update({ count, label, aria, more }) redraws: `count` devices, `label` above, `aria` the tiles' accessible name. */
export function gpuGrid() {
  const tiles = h('div', { class: 'gpu-tiles', role: 'img' });
  const more = h('p', { class: 'gpu-more', 'data-out': 'gpus-more' });
  const label = h('p', { class: 'gpu-label', 'data-out': 'dashboard' });
  let drawn = -1;
  return {
    element: h('div', { class: 'gpu-grid' }, label, tiles, more),
    update({ count, label: text, aria, utilization = null }) {
      const n = Math.max(0, Math.min(count, MAX_TILES));
      if (n !== drawn) {
        tiles.replaceChildren(...Array.from({ length: n }, () => h('span', { class: 'gpu' })));
        const side = Math.max(1, Math.ceil(Math.sqrt(n)));
        tiles.style.gridTemplateColumns = `repeat(${side}, 1fr)`;
        tiles.style.gridTemplateRows = `repeat(${side}, 1fr)`;
        tiles.classList.toggle('few', n <= 64);
        drawn = n;
      }
      more.textContent = count > n ? `+ ${grouped(count - n)} more, all the same` : '';
      label.textContent = text;
      tiles.setAttribute('aria-label', aria);
      if (utilization !== null) label.dataset.value = String(utilization);
      else delete label.dataset.value;
    },
  };
}
