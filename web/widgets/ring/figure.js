// The ring of GPUs as SVG, drawn from ringLayout: boxes on a circle (or a GPU × chunk grid from 9 GPUs), one cell per
// chunk, and chunks that travel to the next GPU. Colours come from the palette (CSS) or mid-tone hues that read on both.
import { svg } from '../../lib/dom.js';
import { tween } from '../../lib/tween.js';
import { VIEW, packetAt, ringLayout } from './model/layout.js';

/** The colour of chunk c of n: a hue per chunk; `strong` for a cell that holds its final sum (white text on it). */
export function chunkColour(c, n, strong = false) {
  const hue = Math.round((360 * c) / n + 200) % 360;
  return strong ? `hsl(${hue} 62% 40%)` : `hsl(${hue} 65% 52% / 0.28)`;
}

/**
 * Builds the figure for n GPUs whose cells show numbers up to maxValue. onPick(g) is called when a GPU is clicked.
 * Returns { element, layout, cells, show(view, watched), animate(round, before, ms), cancel() }.
 */
export function ringFigure(n, maxValue, { onPick } = {}) {
  const layout = ringLayout(n, maxValue);
  const root = svg('svg', { viewBox: `0 0 ${VIEW} ${VIEW}`, class: `ring-svg ${layout.kind}`, role: 'img' });
  root.append(
    svg(
      'defs',
      {},
      svg(
        'marker',
        {
          id: 'ring-arrow',
          viewBox: '0 0 10 10',
          refX: 5,
          refY: 5,
          markerWidth: 6,
          markerHeight: 6,
          orient: 'auto-start-reverse',
        },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'ring-arrowhead' }),
      ),
    ),
  );
  if (layout.kind === 'circle') {
    const { cx, cy, r } = layout.track;
    root.append(svg('circle', { cx, cy, r, class: 'ring-track' }));
    for (let g = 0; g < n; g += 1) {
      // one arrowhead halfway between neighbours, pointing clockwise
      const a0 = -Math.PI / 2 + (2 * Math.PI * (g + 0.5)) / n;
      const a1 = a0 + 0.01;
      root.append(
        svg('path', {
          class: 'ring-dir',
          'marker-end': 'url(#ring-arrow)',
          d: `M${cx + r * Math.cos(a0)},${cy + r * Math.sin(a0)} L${cx + r * Math.cos(a1)},${cy + r * Math.sin(a1)}`,
        }),
      );
    }
  } else {
    root.append(svg('path', { d: layout.wrap, class: 'ring-wrap', 'marker-end': 'url(#ring-arrow)' }));
  }

  const boxes = [];
  const cells = [];
  for (let g = 0; g < n; g += 1) {
    const b = layout.boxes[g];
    const box = svg('g', { class: 'ring-gpu', 'data-gpu': g });
    box.append(
      svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: layout.kind === 'circle' ? 6 : 3, class: 'ring-box' }),
    );
    if (onPick) box.addEventListener('click', () => onPick(g));
    const row = layout.cells[g].map(({ x, y, s }, c) => {
      const cell = svg(
        'g',
        { class: 'ring-cell', 'data-gpu': g, 'data-chunk': c },
        svg('rect', { x: x + 1, y: y + 1, width: s - 2, height: s - 2, rx: 3, class: 'ring-cell-bg' }),
        layout.showValues ? svg('text', { x: x + s / 2, y: y + s / 2 + 1, class: 'ring-value' }) : null,
        svg('title', {}),
      );
      box.append(cell);
      return cell;
    });
    boxes.push(box);
    cells.push(row);
    root.append(box);
  }
  for (const l of layout.labels) {
    root.append(svg('text', { x: l.x, y: l.y, class: `ring-label ${l.kind}`, 'text-anchor': l.anchor }, l.text));
  }
  const packets = svg('g', { class: 'ring-packets' });
  root.append(packets);
  let motion = null; // the chunks' move in flight (lib/tween.js)

  /**
   * Shows view.buffers (see ringRound); cells equal to view.final are strong; `watched` GPU's box is outlined. Only
   * what differs from the previous call is written (a round changes n of the n² cells), so playing at 16 GPUs does not
   * restyle 256 cells per round.
   */
  const shown = []; // per cell: "value done how" as last written
  let watchedBox = -1;
  function show(view, watched) {
    if (watched !== watchedBox) {
      boxes[watchedBox]?.classList.remove('watched');
      boxes[watched]?.classList.add('watched');
      watchedBox = watched;
    }
    for (let g = 0; g < n; g += 1) {
      for (let c = 0; c < n; c += 1) {
        const value = view.buffers[g][c];
        const done = value === view.final[g][c];
        const how = view.changed[`${g},${c}`];
        const key = `${value} ${done} ${how}`;
        const at = g * n + c;
        if (shown[at] === key) continue;
        shown[at] = key;
        const cell = cells[g][c];
        const bg = cell.firstChild;
        if (layout.showValues) cell.children[1].textContent = String(value);
        cell.lastChild.textContent = `GPU ${g}, chunk ${c}: ${value}${done ? ' (the full sum)' : ''}`;
        cell.dataset.value = String(value);
        bg.setAttribute('fill', chunkColour(c, n, done));
        cell.classList.toggle('done', done);
        cell.classList.toggle('added', how === 'add');
        cell.classList.toggle('copied', how === 'copy');
      }
    }
  }

  /** Moves one chunk per transfer to the next GPU over `ms`; resolves true on arrival, false if cancelled. */
  function animate(round, before, ms) {
    cancel();
    const add = round.phase === 'scatter-reduce';
    const { w, h, text } = layout.packet;
    const moving = round.transfers.map((t) => {
      const p = svg(
        'g',
        { class: 'ring-packet' },
        svg('rect', { x: -w / 2, y: -h / 2, width: w, height: h, rx: 4, fill: chunkColour(t.chunk, n, true) }),
        text ? svg('text', { x: 0, y: 1 }, `${add ? '+' : ''}${before[t.from][t.chunk]}`) : null,
      );
      const [x, y] = packetAt(layout, t.from, t.to, t.chunk, 0);
      p.setAttribute('transform', `translate(${x},${y})`);
      packets.append(p);
      return { p, t };
    });
    motion = tween(ms, (e) => {
      for (const { p, t } of moving) {
        const [x, y] = packetAt(layout, t.from, t.to, t.chunk, e);
        p.setAttribute('transform', `translate(${x},${y})`);
      }
    });
    return motion.done.then((arrived) => {
      if (arrived) packets.replaceChildren();
      return arrived;
    });
  }

  /** Stops any chunk in flight. */
  function cancel() {
    motion?.cancel();
    motion = null;
    packets.replaceChildren();
  }

  return { element: root, layout, cells, show, animate, cancel };
}
