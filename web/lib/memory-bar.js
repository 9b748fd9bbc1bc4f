// Memory per GPU against the GPU's capacity: weights, gradients, optimizer states and activations (engine bytes),
// red when the engine says the run does not fit.
import { h } from './dom.js';
import { bytes } from './format.js';

const PARTS = [
  ['weights', 'weights'],
  ['gradients', 'gradients'],
  ['optimizer_states', 'optimizer states'],
  ['activations', 'activations'],
];

/** update(stepResponse) redraws. */
export function memoryBar() {
  const fill = h('div', { class: 'mem-fill' });
  const capacity = h('div', { class: 'mem-capacity' });
  const headline = h('p', { class: 'mem-headline', 'data-out': 'memory' });
  const parts = h('p', { class: 'mem-parts' });
  const element = h('div', { class: 'mem' }, headline,
    h('div', { class: 'mem-track', 'aria-hidden': 'true' }, fill, capacity), parts);
  return {
    element,
    update(r) {
      const m = r.memory_per_gpu;
      const cap = r.memory_capacity;
      const scale = Math.max(m.total, cap);
      fill.replaceChildren(...PARTS.map(([key]) => {
        const seg = h('div', { class: `mem-${key}` });
        seg.style.width = `${(100 * m[key]) / scale}%`;
        return seg;
      }));
      capacity.style.left = `${(100 * cap) / scale}%`;
      capacity.hidden = !(cap > 0);
      element.classList.toggle('over', !r.fits);
      headline.dataset.fits = String(r.fits);
      headline.dataset.value = String(m.total);
      headline.textContent = cap > 0
        ? `Memory per GPU: ${bytes(m.total)} of ${bytes(cap)}${r.fits ? '' : ' — does not fit'}`
        : `Memory per GPU: ${bytes(m.total)}`;
      parts.replaceChildren(...PARTS.map(([key, label], i) => [i ? ' · ' : '',
        h('span', { class: `mem-key mem-${key}` }), `${label} ${bytes(m[key])}`]).flat());
    },
  };
}
