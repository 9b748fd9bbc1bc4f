// The ring of GPUs as SVG: each GPU a box of N chunk cells, arrows clockwise, and chunks that travel along the arc.
import { svg } from './dom.js';

const TAU = Math.PI * 2;

/** Cell size and grid for N chunks: one row up to 4, then a square-ish grid. */
function cellLayout(n) {
  const cols = n <= 4 ? n : Math.ceil(Math.sqrt(n));
  const size = n <= 4 ? 30 : n <= 9 ? 26 : 21;
  return { cols, rows: Math.ceil(n / cols), size };
}

/** The display colour of chunk c of n (a hue per chunk); `strong` for a cell that holds its final sum. */
export function chunkColour(c, n, strong = false) {
  const hue = Math.round((360 * c) / n + 200) % 360;
  return strong ? `hsl(${hue} 62% 42%)` : `hsl(${hue} 70% 88%)`;
}

/**
 * Builds the ring for n GPUs. Returns { element, cells, show(buffers, final, changed), animate(round, before, ms) }.
 * `cells[g][c]` are <g> groups with data-gpu, data-chunk and a <text> holding the value.
 */
export function ringFigure(n) {
  const { cols, rows, size } = cellLayout(n);
  const pad = 5;
  const boxW = cols * size + 2 * pad;
  const boxH = rows * size + 2 * pad + 16;
  const radius = Math.max(130, (n * (Math.max(boxW, boxH) + 10)) / TAU);
  const half = radius + Math.hypot(boxW, boxH) / 2 + 6;
  const centre = (g) => {
    const a = -Math.PI / 2 + (TAU * g) / n;
    return [half + radius * Math.cos(a), half + radius * Math.sin(a)];
  };

  const root = svg('svg', { viewBox: `0 0 ${2 * half} ${2 * half}`, class: 'ring-svg', role: 'img',
    'aria-label': `${n} GPUs on a ring; each sends to its clockwise neighbour` });
  root.append(svg('defs', {}, svg('marker', { id: 'ring-arrow', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'ring-arrowhead' }))));
  root.append(svg('circle', { cx: half, cy: half, r: radius, class: 'ring-track' }));
  // One arrowhead halfway between neighbours, pointing clockwise.
  for (let g = 0; g < n; g += 1) {
    const a0 = -Math.PI / 2 + (TAU * (g + 0.5)) / n;
    const a1 = a0 + 0.01;
    root.append(svg('path', { class: 'ring-dir', 'marker-end': 'url(#ring-arrow)',
      d: `M${half + radius * Math.cos(a0)},${half + radius * Math.sin(a0)} L${half + radius * Math.cos(a1)},${half + radius * Math.sin(a1)}` }));
  }

  const cells = [];
  for (let g = 0; g < n; g += 1) {
    const [x, y] = centre(g);
    const box = svg('g', { class: 'ring-gpu', 'data-gpu': g, transform: `translate(${x - boxW / 2},${y - boxH / 2})` });
    box.append(svg('rect', { width: boxW, height: boxH, rx: 6, class: 'ring-box' }));
    box.append(svg('text', { x: boxW / 2, y: 12, class: 'ring-gpu-label' }, `GPU ${g}`));
    const row = [];
    for (let c = 0; c < n; c += 1) {
      const cx = pad + (c % cols) * size;
      const cy = 16 + pad + Math.floor(c / cols) * size;
      const text = svg('text', { x: size / 2, y: size / 2 + 1, class: 'ring-value' });
      const rect = svg('rect', { width: size - 2, height: size - 2, x: 1, y: 1, rx: 3, class: 'ring-cell-bg' });
      const cell = svg('g', { class: 'ring-cell', 'data-gpu': g, 'data-chunk': c, transform: `translate(${cx},${cy})` },
        rect, text);
      cell.style.setProperty('--size', `${size}px`);
      row.push(cell);
      box.append(cell);
    }
    cells.push(row);
    root.append(box);
  }
  const packets = svg('g', { class: 'ring-packets' });
  root.append(packets);
  root.append(svg('text', { x: half, y: half, class: 'ring-centre' }, 'clockwise'));
  let raf = 0;
  let arrive = null;

  /** Shows buffers[g][c]; cells equal to final[g][c] are drawn strong; changed = {key "g,c": "add"|"copy"}. */
  function show(buffers, final, changed = {}) {
    for (let g = 0; g < n; g += 1) {
      for (let c = 0; c < n; c += 1) {
        const cell = cells[g][c];
        const value = buffers[g][c];
        const done = value === final[g][c];
        cell.lastChild.textContent = String(value);
        cell.dataset.value = String(value);
        cell.firstChild.setAttribute('fill', chunkColour(c, n, done));
        cell.classList.toggle('done', done);
        const how = changed[`${g},${c}`];
        cell.classList.toggle('added', how === 'add');
        cell.classList.toggle('copied', how === 'copy');
      }
    }
  }

  /** Moves one packet per transfer along the arc to the next GPU over `ms`; resolves true on arrival, false if cancelled. */
  function animate(round, before, ms) {
    cancel();
    const add = round.phase === 'scatter-reduce';
    const moving = round.transfers.map((t) => {
      const label = `${add ? '+' : ''}${before[t.from][t.chunk]}`;
      const p = svg('g', { class: 'ring-packet' },
        svg('rect', { x: -17, y: -11, width: 34, height: 22, rx: 5, fill: chunkColour(t.chunk, n, true) }),
        svg('text', { x: 0, y: 1 }, label));
      packets.append(p);
      return { p, a0: -Math.PI / 2 + (TAU * t.from) / n };
    });
    const step = TAU / n;
    return new Promise((resolve) => {
      arrive = resolve;
      const start = performance.now();
      const frame = (now) => {
        const f = Math.min(1, (now - start) / ms);
        const e = f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2;
        for (const { p, a0 } of moving) {
          const a = a0 + e * step;
          p.setAttribute('transform', `translate(${half + radius * Math.cos(a)},${half + radius * Math.sin(a)})`);
        }
        if (f < 1) {
          raf = requestAnimationFrame(frame);
        } else {
          packets.replaceChildren();
          arrive = null;
          resolve(true);
        }
      };
      raf = requestAnimationFrame(frame);
    });
  }

  /** Stops any packet in flight. */
  function cancel() {
    cancelAnimationFrame(raf);
    packets.replaceChildren();
    arrive?.(false);
    arrive = null;
  }

  return { element: root, cells, show, animate, cancel };
}
