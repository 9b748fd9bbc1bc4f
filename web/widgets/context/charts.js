// The context figure's two small charts as SVG: attention FLOPs per GPU under both splits (the engine's gpus[]),
// and a ring step's attention and K/V transfer times against the sequence length, the break-even marked.
import { setAttributes, svg } from '../../lib/dom.js';
import { grouped, seconds, si } from '../../lib/format.js';

const W = 400;

/** Bars per GPU: contiguous and zig-zag attention FLOPs of one forward pass; the shown split's bars strong. */
export function balanceSvg(answer, split, label) {
  const H = 130;
  const x0 = 8;
  const y0 = 28;
  const base = 104;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'context-balance', role: 'img', 'aria-label': label });
  const most = Math.max(...answer.gpus.flatMap((g) => [g.zigzag_flops, g.contiguous_flops]));
  const group = (W - x0) / answer.gpus.length;
  const bw = Math.min(18, group / 2 - 2);
  const every = group >= 26 ? 1 : group >= 13 ? 2 : 4;
  root.append(
    svg('text', { x: x0, y: 12, class: 'context-label axis start' }, `${si(most, 'FLOP')} per layer forward`),
    svg('line', { x1: x0, x2: W, y1: base, y2: base, class: 'context-lane-line' }),
  );
  answer.gpus.forEach((g, i) => {
    const cx = x0 + i * group + group / 2;
    [
      ['contiguous', g.contiguous_flops, cx - bw - 1],
      ['zigzag', g.zigzag_flops, cx + 1],
    ].forEach(([kind, flops, x]) => {
      const h = most > 0 ? ((base - y0) * flops) / most : 0;
      root.append(
        svg(
          'rect',
          { x, y: base - h, width: bw, height: h, class: `context-flops ${kind}${kind === split ? ' shown' : ''}` },
          svg('title', {}, `GPU ${g.gpu}, ${kind}: ${si(flops, 'FLOP')}`),
        ),
      );
    });
    if (i % every === 0) root.append(svg('text', { x: cx, y: base + 16, class: 'context-label' }, String(g.gpu)));
  });
  return root;
}

const k = (n) => (n >= 1024 * 1024 ? `${n / 1024 / 1024}M` : `${n / 1024}k`);

/**
 * Compute and transfer time per forward ring step against sequence length, log-log; the crossing and the answer's
 * length marked. The <svg> returned has mark(seq), which moves that mark (the curves depend on the rest only).
 */
export function breakEvenSvg(points, answer, label) {
  const H = 170;
  const box = { x0: 74, x1: W - 16, y0: 22, y1: 140 };
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'context-curve', role: 'img', 'aria-label': label });
  root.mark = () => {};
  if (points.length < 2) return root;
  const xs = points.map((p) => p.seq);
  const ys = points.flatMap((p) => [p.compute, p.transfer]).filter((v) => v > 0);
  const [lx0, lx1] = [Math.log(Math.min(...xs)), Math.log(Math.max(...xs))];
  const [ly0, ly1] = [Math.log(Math.min(...ys)), Math.log(Math.max(...ys))];
  const X = (v) => box.x0 + ((Math.log(v) - lx0) / (lx1 - lx0 || 1)) * (box.x1 - box.x0);
  const Y = (v) => box.y1 - ((Math.log(Math.max(v, Math.exp(ly0))) - ly0) / (ly1 - ly0 || 1)) * (box.y1 - box.y0);
  root.append(svg('line', { x1: box.x0, x2: box.x1, y1: box.y1, y2: box.y1, class: 'context-lane-line' }));
  const be = answer.break_even.sequence;
  if (be >= xs[0] && be <= xs[xs.length - 1]) {
    root.append(
      svg('line', { x1: X(be), x2: X(be), y1: box.y0, y2: box.y1, class: 'context-break-even' }),
      svg(
        'text',
        {
          x: X(be) + (X(be) < W / 2 ? 4 : -4),
          y: box.y0 - 8,
          class: `context-label axis ${X(be) < W / 2 ? 'start' : 'end'}`,
        },
        `break-even ${grouped(Math.round(be))}`,
      ),
    );
  }
  for (const kind of ['transfer', 'compute']) {
    const d = points
      .filter((p) => p[kind] > 0)
      .map((p, i) => `${i ? 'L' : 'M'}${X(p.seq).toFixed(1)},${Y(p[kind]).toFixed(1)}`)
      .join(' ');
    root.append(svg('path', { d, class: `context-series ${kind}` }));
  }
  const dots = ['compute', 'transfer'].map((kind) => {
    const dot = svg('circle', { r: 4.5, class: `context-dot ${kind}` });
    root.append(dot);
    return dot;
  });
  /** Marks sequence length `seq` on both curves (hidden where the chart has no point for it). */
  const mark = (seq) => {
    const here = points.find((p) => p.seq === seq);
    ['compute', 'transfer'].forEach((kind, i) => {
      const show = Boolean(here && here[kind] > 0);
      dots[i].toggleAttribute('hidden', !show);
      setAttributes(dots[i], { visibility: show ? 'visible' : 'hidden' });
      if (show) setAttributes(dots[i], { cx: X(here.seq).toFixed(1), cy: Y(here[kind]).toFixed(1) });
    });
  };
  mark(answer.sequence);
  root.mark = mark;
  xs.filter((_, i) => i % 2 === 0).forEach((v) =>
    root.append(svg('text', { x: X(v), y: box.y1 + 16, class: 'context-label' }, k(v))),
  );
  root.append(
    svg('text', { x: box.x0 - 6, y: box.y0, class: 'context-label axis end' }, seconds(Math.exp(ly1))),
    svg('text', { x: box.x0 - 6, y: box.y1, class: 'context-label axis end' }, seconds(Math.exp(ly0))),
  );
  return root;
}
