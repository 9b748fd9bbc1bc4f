// The context figure as SVG, drawn from model/layout.js: the sequence bar, the ring strip of GPUs with the keys and
// values each holds (chips that travel to the next GPU), and the causal attention matrix filling in step by step.
import { setAttributes, svg } from '../../lib/dom.js';
import { tween } from '../../lib/tween.js';
import { FONT, VIEW_H, VIEW_W, chipAt, contextLayout } from './model/layout.js';

/** A layout box { x, y, w, h } as SVG rect attributes. */
const rect = ({ x, y, w, h }) => ({ x, y, width: w, height: h });

/** GPU g's colour of n: a hue each, mid-tone so it reads on light and dark. */
export function gpuColour(g, n) {
  return `hsl(${Math.round((360 * g) / n + 205) % 360} 62% 48%)`;
}

/** Builds the figure for cp GPUs; returns { element, show(view), animate(view, ms), cancel() }. */
export function contextFigure(cp) {
  const L = contextLayout(cp);
  const root = svg('svg', { viewBox: `0 0 ${VIEW_W} ${VIEW_H}`, class: 'context-svg', role: 'img' });
  for (const t of L.titles) root.append(svg('text', { x: t.x, y: t.y, class: 'context-title' }, t.text));
  const bar = L.bar.map((b, c) =>
    root.appendChild(svg('rect', { ...rect(b), class: 'context-chunk', 'data-chunk': c }, svg('title', {}))),
  );
  for (const l of L.barLabels) root.append(svg('text', { x: l.x, y: l.y, class: 'context-label' }, l.text));
  root.append(svg('path', { d: L.wrap, class: 'context-wrap' }));
  const chips = [];
  L.boxes.forEach((b, g) => {
    root.append(
      svg('rect', { ...rect(b), rx: 4, class: 'context-box', stroke: gpuColour(g, cp) }),
      svg('text', { x: b.x + b.w / 2, y: b.y + FONT - 1, class: 'context-label gpu' }, L.labelText(g)),
    );
    if (g < cp - 1) {
      const x = b.x + b.w + 1;
      const y = b.y + b.h / 2;
      root.append(svg('path', { d: `M${x},${y - 4} L${x + 6},${y} L${x},${y + 4} z`, class: 'context-arrow' }));
    }
  });
  const chipLayer = svg('g', { class: 'context-chips' });
  root.append(chipLayer);
  for (let g = 0; g < cp; g += 1) {
    const c = L.chip(g);
    const chip = svg('g', { class: 'context-chip', transform: `translate(${c.x},${c.y})` });
    chipLayer.append(chip);
    chips.push(chip);
  }
  for (const l of L.colLabels) root.append(svg('text', { x: l.x, y: l.y, class: 'context-label' }, l.text));
  for (const l of L.rowLabels) root.append(svg('text', { x: l.x, y: l.y, class: 'context-label row' }, l.text));
  const swatches = Array.from({ length: L.chunks }, (_, q) => root.appendChild(svg('rect', rect(L.swatch(q)))));
  const cells = new Map();
  for (let q = 0; q < L.chunks; q += 1) {
    for (let k = 0; k < L.chunks; k += 1) {
      const { x, y, s } = L.cells(q, k);
      const shape =
        q === k
          ? svg('path', { d: `M${x},${y} L${x},${y + s} L${x + s},${y + s} z` })
          : svg('rect', { x, y, width: s, height: s });
      const base = `context-cell${q < k ? ' masked' : ''}${q === k ? ' diagonal' : ''}`;
      const g = svg('g', { class: base, 'data-base': base, 'data-q': q, 'data-k': k }, shape);
      if (q === k) g.prepend(svg('rect', { x, y, width: s, height: s, class: 'context-cell-frame' }));
      root.append(g);
      cells.set(q * L.chunks + k, g);
    }
  }
  const drawn = new Map([...cells.keys()].map((at) => [at, '|null'])); // block -> its look as last written (as built)
  let shownOwners = '';
  let motion = null; // the chips' move in flight (lib/tween.js)

  const chipsDrawn = []; // each chip's keys and values as last drawn
  function drawChips(view) {
    view.gpus.forEach((g, i) => {
      const c = L.chip(i);
      setAttributes(chips[i], { transform: `translate(${c.x},${c.y})` });
      // A chip holding the same keys and values keeps its blocks (a sequence press leaves every chip as it was).
      const kv = g.kv.join();
      if (chipsDrawn[i] === kv) return;
      chipsDrawn[i] = kv;
      const w = c.w / g.kv.length;
      chips[i].replaceChildren(
        ...g.kv.map((from, j) =>
          svg(
            'rect',
            { x: j * w, y: 0, width: w, height: c.h, rx: 2, fill: gpuColour(from, cp) },
            svg('title', {}, `keys and values of GPU ${from}`),
          ),
        ),
      );
    });
  }

  /** Shows `view` (model/step-view.js stepView): owners, chips, the blocks computed so far. */
  function show(view) {
    const owners = view.owners.join();
    if (owners !== shownOwners) {
      shownOwners = owners;
      bar.forEach((rect, c) => {
        const owner = view.owners[c];
        rect.setAttribute('fill', gpuColour(owner, cp));
        rect.firstChild.textContent = `chunk ${c}: queries on GPU ${owner}`;
      });
      swatches.forEach((rect, q) => rect.setAttribute('fill', gpuColour(view.owners[q], cp)));
    }
    drawChips(view);
    // Only the blocks whose look changed are written (a step changes 4cp of the 4cp² blocks).
    const next = new Map();
    for (const c of view.cells) {
      const wasted = c.masked && c.weight > 0 ? ' wasted' : '';
      next.set(c.q * L.chunks + c.k, [` done ${c.current ? 'current' : 'past'}${wasted}`, gpuColour(c.gpu, cp)]);
    }
    for (const [at, g] of cells) {
      const [cls, fill] = next.get(at) ?? ['', null];
      const key = `${cls}|${fill}`;
      if (drawn.get(at) === key) continue;
      drawn.set(at, key);
      g.setAttribute('class', g.dataset.base + cls);
      // The outline of a block done at an earlier step is its GPU's colour too (currentColor, context.css).
      if (fill) {
        g.setAttribute('fill', fill);
        g.setAttribute('color', fill);
      } else {
        g.removeAttribute('fill');
        g.removeAttribute('color');
      }
    }
  }

  /** Moves each GPU's chip to the next GPU over `ms` (the ring's transfer for the step after `view`). */
  function animate(view, ms) {
    cancel();
    motion = tween(ms, (e) => {
      for (let g = 0; g < cp; g += 1) {
        const [x, y] = chipAt(L, g, (g + 1) % cp, e);
        chips[g].setAttribute('transform', `translate(${x},${y})`);
      }
    });
    return motion.done;
  }

  function cancel() {
    motion?.cancel();
    motion = null;
  }

  return { element: root, show, animate, cancel };
}
