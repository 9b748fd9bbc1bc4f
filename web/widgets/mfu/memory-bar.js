// Memory per device against its capacity: weights, gradients, optimizer states, activations, the peak's workspace, the
// allocator's reserve and the runtime outside it (engine bytes, summing to its total), red
// when the engine says the run does not fit ("does not fit" is a figure state, not a refusal); under it, in a reader's
// words, why ZeRO-3 holds more than ZeRO-2 when the engine's answer says so.
import { h } from '../../lib/dom.js';
import { bytes } from '../../lib/format.js';
import { memoryNote } from './model/step-view.js';

const PARTS = [
  ['weights', 'weights'],
  ['gradients', 'gradients'],
  ['optimizer_states', 'optimizer states'],
  ['activations', 'activations'],
  ['transient', 'peak workspace'],
  ['allocator_reserve', 'allocator reserve'],
  ['runtime', 'CUDA context and NCCL'],
];

/** update(stepResponse, words) redraws; words: { one } names the device ("GPU", "TPU chip"). */
export function memoryBar() {
  const fill = h('div', { class: 'mem-fill' });
  const capacity = h('div', { class: 'mem-capacity' });
  const headline = h('p', { class: 'mem-headline', 'data-out': 'memory' });
  const parts = h('p', { class: 'mem-parts' });
  const note = h('p', { class: 'mem-note', 'data-out': 'memory-note' });
  const track = h('div', { class: 'mem-track', role: 'img' }, fill, capacity);
  // Parts and note share one reserved block (widgets/mfu/mfu.css): the note never moves what is below the figure.
  const element = h('div', { class: 'mem' }, headline, track, h('div', { class: 'mem-words' }, parts, note));
  return {
    element,
    update(r, words) {
      const m = r.memory_per_gpu;
      const cap = r.memory_capacity;
      const scale = Math.max(m.total, cap);
      fill.replaceChildren(
        ...PARTS.map(([key]) => {
          const seg = h('div', { class: `mem-${key}` });
          seg.style.width = `${(100 * m[key]) / scale}%`;
          return seg;
        }),
      );
      capacity.style.left = `${(100 * cap) / scale}%`;
      capacity.hidden = !(cap > 0);
      element.classList.toggle('over', !r.fits);
      headline.dataset.fits = String(r.fits);
      headline.dataset.value = String(m.total);
      const where = `Memory per ${words.one} (most loaded pipeline stage)`;
      headline.textContent =
        cap > 0
          ? `${where}: ${bytes(m.total)} of ${bytes(cap)}${r.fits ? '' : ' — does not fit'}`
          : `${where}: ${bytes(m.total)}`;
      track.setAttribute(
        'aria-label',
        `${headline.textContent}. ` + PARTS.map(([key, label]) => `${label} ${bytes(m[key])}`).join(', '),
      );
      parts.replaceChildren(
        ...PARTS.map(([key, label], i) => [
          i ? ' · ' : '',
          h('span', { class: `mem-key mem-${key}` }),
          `${label} ${bytes(m[key])}`,
        ]).flat(),
      );
      note.textContent = memoryNote(r);
    },
  };
}
