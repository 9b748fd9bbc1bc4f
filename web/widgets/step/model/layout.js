// Where each GPU's lanes sit in the plot: the GPUs shown share its height, a gutter apart, each GPU's lanes share
// its share. CSS px for labels and hit testing, device px for the pixels. Pure.

/** The gap between two GPUs' lane groups, CSS px. */
export const GPU_GUTTER = 6;

/**
 * The rows of `gpus` (gpuLanes) × `lanes` ({ id, name }) in a plot `height` CSS px tall at `ratio` device px per
 * CSS px: { rows: [{ gpu, laneId, lane, compute, top, h, y0, y1 }], groups: [{ gpu, top, h }], laneH }.
 */
export function plotRows(gpus, lanes, height, ratio = 1) {
  const n = gpus.length;
  const groupH = n > 0 ? (height - GPU_GUTTER * (n - 1)) / n : 0;
  const laneH = lanes.length > 0 ? groupH / lanes.length : 0;
  const rows = [];
  const groups = [];
  gpus.forEach((gpu, g) => {
    const top = g * (groupH + GPU_GUTTER);
    groups.push({ gpu, top, h: groupH });
    lanes.forEach((l, i) => {
      const t = top + i * laneH;
      // a hairline between lanes of one GPU when they are tall enough to spare it
      const gap = laneH >= 6 && i < lanes.length - 1 ? 1 : 0;
      rows.push({
        gpu,
        laneId: l.id,
        lane: gpu.lanes.get(l.id),
        compute: l.id === 'compute',
        tails: l.id === 'compute' ? [...gpu.lanes].filter(([id]) => id !== 'compute').map(([, lane]) => lane) : [],
        top: t,
        h: laneH,
        y0: Math.round(t * ratio),
        y1: Math.round((t + laneH - gap) * ratio),
      });
    });
  });
  return { rows, groups, laneH };
}

/** The row under y (CSS px), or null (a gutter, or outside). */
export function rowAt(layout, y) {
  for (const r of layout.rows) if (y >= r.top && y < r.top + r.h) return r;
  return null;
}
