// The chart's pixels, written straight into an RGBA buffer (a Uint32Array over ImageData): tens of thousands of
// fillRect calls would take far longer than a frame. Each lane's events in view are laid into one scan line (O(events
// in view + pixels)); every pixel row of the lane is then that line copied. A collective's hidden part (under the
// kernels) is drawn light, its exposed tail solid; the compute stream's gaps before the step's end are hatched as the
// bubble figure hatches idle time. Pure: pixels in, pixels out.
import { visibleRange } from './lanes.js';

/**
 * The hatch as one long run of pixels: row y shows band[x + y % period] at x, so a gap's hatch is a slice of it.
 * `cache` keeps it while its inputs hold.
 */
function hatchBand(cache, width, period, line, hatch, back) {
  const key = `${width} ${period} ${line} ${hatch} ${back}`;
  if (cache.bandKey !== key) {
    cache.band = new Uint32Array(width + period);
    for (let j = 0; j < cache.band.length; j += 1) cache.band[j] = j % period < line ? hatch : back;
    cache.bandKey = key;
  }
  return cache.band;
}

/**
 * Lays the exposed tails of `lane`'s events (the seconds the compute stream waits for them) into `scan`, solid: on
 * the compute row a wait for a collective shows in that collective's colour, so the row reads as the GPU's step
 * breakdown and only true idle time is left to hatch.
 */
function layTails(scan, lane, t0, t1, k, width, solid) {
  const [from, to] = visibleRange(lane, t0, t1);
  const { end, exposed, piece } = lane;
  for (let i = from; i < to; i += 1) {
    const e = end[i];
    if (!(exposed[i] > 0) || e < t0) continue;
    const x0 = px((e - exposed[i] - t0) * k, width);
    let x1 = px((e - t0) * k, width);
    if (x1 <= x0) x1 = x0 + 1;
    if (x0 >= width || x1 <= 0) continue;
    scan.fill(solid[piece[i]], x0, x1 > width ? width : x1);
  }
}

/**
 * x (device px, a float) as a whole pixel, rounded, held to [-1, width + 1] before it is made an integer (a window
 * zoomed to 1 µs puts a second-long event billions of px away, beyond int32).
 */
function px(x, width) {
  if (x < -1) return -1;
  if (x > width + 1) return width + 1;
  return (x + 0.5) | 0;
}

/** Lays `lane`'s events in [t0, t1] into `scan`; returns how many it touched. */
function layLane(scan, lane, t0, t1, k, width, colours, solidOnly) {
  const [from, to] = visibleRange(lane, t0, t1);
  const { start, end, exposed, piece } = lane;
  const { solid, light, edge } = colours;
  let n = 0;
  for (let i = from; i < to; i += 1) {
    const e = end[i];
    if (e < t0) continue;
    n += 1;
    let x0 = px((start[i] - t0) * k, width);
    let x1 = px((e - t0) * k, width);
    if (x1 <= x0) x1 = x0 + 1;
    if (x0 >= width || x1 <= 0) continue;
    if (x0 < 0) x0 = 0;
    if (x1 > width) x1 = width;
    const p = piece[i];
    if (x1 - x0 === 1 && solidOnly) {
      scan[x0] = solid[p]; // most events at a wide window: one pixel
      continue;
    }
    let xh = x0; // where the exposed tail starts
    if (!solidOnly) {
      xh = px((e - exposed[i] - t0) * k, width);
      if (xh < x0) xh = x0;
      if (xh > x1) xh = x1;
      if (xh > x0) scan.fill(light[p], x0, xh);
    }
    if (x1 - xh <= 8) for (let x = xh; x < x1; x += 1) scan[x] = solid[p];
    else scan.fill(solid[p], xh, x1);
    if (solidOnly && x1 - x0 >= 5) scan[x0] = edge[p];
  }
  return n;
}

/**
 * Paints `rows` ({ lane (gpuLanes' lane or undefined), compute (its gaps are idle time), tails (the compute row: the
 * GPU's other lanes, whose exposed seconds it shows), y0, y1 (device px) }) into
 * `px` (width × height, prefilled here with colours.bg) for the window view = { t0, t1 } (s); `end` is the step's end
 * (s): the compute stream's gaps before it are hatched. colours: { solid, light, edge (Uint32Array per piece index),
 * hatch, back (the hatch's two colours), lane (an empty lane), bg }. `cache` keeps buffers between frames. Returns the
 * number of events laid (those overlapping the window).
 */
export function rasterise(px, width, height, rows, view, end, colours, cache, ratio = 1) {
  px.fill(colours.bg);
  if (!cache.scan || cache.scan.length !== width) {
    cache.scan = new Uint32Array(width);
    cache.gaps = new Int32Array(width + 2);
  }
  const { scan, gaps } = cache;
  const period = Math.max(4, Math.round(8 * ratio));
  const line = Math.max(1, Math.round(ratio));
  const band = hatchBand(cache, width, period, line, colours.hatch, colours.back);
  const { t0, t1 } = view;
  const k = width / (t1 - t0);
  const idleFrom = Math.max(0, Math.round((0 - t0) * k));
  const idleTo = Math.min(width, Math.round((end - t0) * k));
  let laid = 0;
  for (const row of rows) {
    scan.fill(0);
    for (const other of row.tails ?? []) layTails(scan, other, t0, t1, k, width, colours.solid);
    if (row.lane) laid += layLane(scan, row.lane, t0, t1, k, width, colours, row.compute);
    let runs = 0;
    for (let x = 0; x < width; x += 1) {
      if (scan[x] !== 0) continue;
      const from = x;
      while (x < width && scan[x] === 0) x += 1;
      if (row.compute) {
        // idle only inside the step: hatched; before 0 or after the step's end, the empty lane colour
        const a = Math.max(from, idleFrom);
        const b = Math.min(x, idleTo);
        if (a < b) {
          gaps[runs] = a;
          gaps[runs + 1] = b;
          runs += 2;
        }
      }
      scan.fill(colours.lane, from, x);
    }
    const y0 = Math.max(0, row.y0);
    const y1 = Math.min(height, row.y1);
    for (let y = y0; y < y1; y += 1) {
      const at = y * width;
      px.set(scan, at);
      const shift = y % period;
      for (let g = 0; g < runs; g += 2) px.set(band.subarray(gaps[g] + shift, gaps[g + 1] + shift), at + gaps[g]);
    }
  }
  return laid;
}
