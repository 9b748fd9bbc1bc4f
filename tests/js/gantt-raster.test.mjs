// The bubble's pixel raster (widgets/bubble/gantt.js) equals the per-pixel rule it stands for: an op's colour where an op covers
// the pixel (its darker first column where wide enough), else the idle hatch ((x + y) mod period), gutters between rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { drawGantt, indexStages } = await import(new URL('widgets/bubble/gantt.js', dist));
const { chartColours } = await import(new URL('widgets/bubble/model/colours.js', dist));
const { opsFromAttachment } = await import(new URL('widgets/bubble/op-columns.js', dist));

const palette = {
  f: [79, 127, 214],
  b: [60, 160, 110],
  w: [150, 110, 200],
  idle: [217, 130, 43],
  bg: [247, 248, 251],
  fg: [29, 35, 48],
  muted: [107, 115, 133],
};
const colours = chartColours(palette);

/** A canvas stand-in: keeps the last image put, ignores vector drawing. */
function fakeCanvas() {
  const ctx = new Proxy(
    {
      createImageData: (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
      putImageData(image) {
        ctx.put = new Uint32Array(image.data.buffer.slice(0));
        ctx.putWidth = image.width;
      },
    },
    {
      get: (t, k) => (k in t ? t[k] : () => {}),
      set: (t, k, v) => {
        t[k] = v;
        return true;
      },
    },
  );
  return { width: 0, height: 0, style: {}, getContext: () => ctx, ctx };
}

/** The rule, pixel by pixel (the slow way the raster used to be painted). */
function reference(result, { width, height, ratio }) {
  const plotW = Math.max(40, width - 44);
  const rowH = (height - 20) / result.stages;
  const w = Math.max(1, Math.round(plotW * ratio));
  const h = Math.max(1, Math.round(result.stages * rowH * ratio));
  const px = new Uint32Array(w * h);
  const period = Math.max(4, Math.round(8 * ratio));
  const line = Math.max(1, Math.round(ratio));
  const k = (plotW / result.makespan) * ratio;
  const { ranges } = indexStages(result.ops);
  const { microbatch, kind, start, end } = result.ops;
  const scan = new Uint32Array(w);
  for (let s = 0; s < result.stages; s += 1) {
    scan.fill(0);
    for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
      if (end[i] <= start[i]) continue;
      const x0 = Math.round(start[i] * k);
      const x1 = Math.min(w, Math.max(x0 + 1, Math.round(end[i] * k)));
      if (x0 >= w) continue;
      scan.fill(colours.op(kind[i], microbatch[i]), x0, x1);
      if (x1 - x0 >= 4 * line) scan.fill(colours.edge(kind[i], microbatch[i]), x0, x0 + line);
    }
    const top = Math.round(s * rowH * ratio);
    const bottom = Math.round((s + 1) * rowH * ratio);
    const gutter = bottom - top >= 5 * line && s < result.stages - 1 ? line : 0;
    for (let y = top; y < bottom; y += 1) {
      for (let x = 0; x < w; x += 1) {
        px[y * w + x] =
          y >= bottom - gutter
            ? colours.gutter
            : scan[x] !== 0
              ? scan[x]
              : (x + y) % period < line
                ? colours.hatch
                : colours.back;
      }
    }
  }
  return px;
}

test('the raster is the per-pixel rule, at every size and pixel ratio the bubble draws', async () => {
  const engine = await nodeEngine();
  const cases = [
    { schedule: 'interleaved', stages: 32, microbatches: 128, chunks: 4, forward_only: false },
    { schedule: '1f1b', stages: 4, microbatches: 8 },
    { schedule: 'gpipe', stages: 8, microbatches: 3 },
    { schedule: 'zb-h1', stages: 6, microbatches: 12 },
  ];
  for (const request of cases) {
    const { response, attachment } = engine.callWithAttachment({ op: 'pipeline', ...request, ops_format: 'binary' });
    const result = { ...response, ops: opsFromAttachment(response, attachment) };
    for (const [width, height, ratio] of [
      [956, 420, 1],
      [360, 300, 2],
      [700, 380, 1.5],
    ]) {
      globalThis.devicePixelRatio = ratio;
      const canvas = fakeCanvas();
      drawGantt(canvas, result, { width, height, colours });
      drawGantt(canvas, result, { width, height, colours }); // again: the cached image and hatch must not leak
      const want = reference(result, { width, height, ratio });
      assert.equal(canvas.ctx.put.length, want.length, `${request.schedule} ${width}x${height}@${ratio}`);
      assert.ok(
        canvas.ctx.put.every((v, i) => v === want[i]),
        `${request.schedule} ${width}x${height}@${ratio}: pixels differ`,
      );
    }
  }
});

test('a redraw sets the canvas font only when it changes (in Chromium each set lays out the whole page first)', async () => {
  const engine = await nodeEngine();
  const draw = (canvas, request, width) => {
    const { response, attachment } = engine.callWithAttachment({ op: 'pipeline', ...request, ops_format: 'binary' });
    drawGantt(canvas, { ...response, ops: opsFromAttachment(response, attachment) }, { width, height: 420, colours });
  };
  globalThis.devicePixelRatio = 1;
  const canvas = fakeCanvas();
  const fonts = [];
  Object.defineProperty(canvas.ctx, 'font', {
    set: (v) => fonts.push(v),
    get: () => fonts.at(-1) ?? '10px sans-serif',
  });
  const slider = (chunks) => ({ schedule: 'interleaved', stages: 32, microbatches: 128, chunks, forward_only: false });
  draw(canvas, slider(4), 956);
  assert.equal(fonts.length, 1, 'the first draw sets the one font it uses');
  for (const chunks of [3, 4, 3, 2]) draw(canvas, slider(chunks), 956);
  assert.equal(fonts.length, 1, 'slider steps at the same size set no font');
  draw(canvas, slider(2), 700); // a resize resets the context: its font is set again
  assert.equal(fonts.length, 2);
  draw(canvas, { schedule: '1f1b', stages: 4, microbatches: 8 }, 700); // rows tall enough for op letters: two fonts
  draw(canvas, { schedule: '1f1b', stages: 4, microbatches: 9 }, 700);
  assert.ok(fonts.length <= 2 + 4, `at most two font changes per draw with letters (got ${fonts.length - 2})`);
});
