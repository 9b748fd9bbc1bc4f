// The step chart's key: a swatch per kind of event the drawn GPUs have (the engine's `pieces`, named as it names
// them), then what light and hatched mean. Its swatches are painted by step.css from the variables the canvas reads.
import { h } from '../../lib/dom.js';

/** The legend; update(head, gpus) lists the pieces that occur on `gpus`. */
export function stepLegend() {
  const element = h('ul', { class: 'lanes-legend', 'data-out': 'legend' });
  return {
    element,
    update(head, gpus) {
      const used = new Set();
      for (const g of gpus) for (const p of g.events.piece) used.add(p);
      const items = head.pieces
        .map((p, i) => ({ ...p, i }))
        .filter((p) => used.has(p.i))
        .map((p) => h('li', { 'data-piece': p.id }, h('span', { class: `swatch piece-${p.id}` }), p.name));
      element.replaceChildren(
        ...items,
        h('li', { 'data-piece': 'hidden' }, h('span', { class: 'swatch hidden' }), 'light: hidden under kernels'),
        h(
          'li',
          { 'data-piece': 'idle' },
          h('span', { class: 'swatch idle' }),
          'idle (bubble, waiting for a neighbour)',
        ),
      );
    },
  };
}
