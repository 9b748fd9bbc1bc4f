// Where the memory chart's two labels go so that neither covers the other nor leaves the plot: the capacity's (right
// of the plot, just above its dashed line) stays put; the peak's (beside the peak's line, at the plot's top) takes the
// first place of a short list that is clear of it. Pure: boxes in px, text widths estimated from the words.

/** The chart's label text size (memory.css `.mem-chart text`), px. */
export const LABEL_PX = 12;

/** An upper estimate of a 12 px label's width: 0.62 em a character (0.66 bold), wider than digits and lower case run. */
export function labelWidth(words, bold = false) {
  return Math.ceil(words.length * LABEL_PX * (bold ? 0.66 : 0.62));
}

/** A label's box from its anchor x, baseline y, width and anchor ('start' or 'end'): { left, right, top, bottom }. */
export function labelBox(x, y, width, anchor) {
  const left = anchor === 'end' ? x - width : x;
  return { left, right: left + width, top: y - LABEL_PX * 0.8, bottom: y + LABEL_PX * 0.25 };
}

/** Whether two boxes come closer than `gap` px (they overlap, or nearly touch). */
export function collide(a, b, gap = 3) {
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}

/**
 * The two labels' places. plot: { left, right, top } px (the chart keeps 14 px above the plot's top); cap: { y (the
 * line's px), words }; peak: { x (the line's px), words }. Returns { cap: { x, y, anchor }, peak: { x, y, anchor } }
 * (x the anchor, y the baseline). The peak's label tries, in turn: the plot's top on its side of the line (left of it
 * past 70 % of the plot), then the other side, then the same two in the margin just above the plot (atop the peak's
 * line), then just under the capacity line; when none is clear, the last that keeps inside the plot; when neither side
 * has room, under the line, slid inside the plot.
 */
export function placeLabels({ plot, cap, peak }) {
  const capAt = { x: plot.right - 4, y: cap.y - 5, anchor: 'end' };
  const capBox = labelBox(capAt.x, capAt.y, labelWidth(cap.words), 'end');
  const width = labelWidth(peak.words, true);
  const leftFirst = peak.x > plot.left + (plot.right - plot.left) * 0.7;
  const sides = leftFirst ? ['end', 'start'] : ['start', 'end'];
  const rows = [plot.top + 10, plot.top - 2, cap.y + 5 + LABEL_PX];
  const candidates = rows.flatMap((y) =>
    sides.map((anchor) => ({ x: peak.x + (anchor === 'end' ? -6 : 6), y, anchor })),
  );
  const inside = candidates.filter((c) => {
    const box = labelBox(c.x, c.y, width, c.anchor);
    return box.left >= plot.left && box.right <= plot.right;
  });
  const clear = inside.find((c) => !collide(labelBox(c.x, c.y, width, c.anchor), capBox));
  const shifted = { x: Math.max(plot.left, Math.min(peak.x + 6, plot.right - width)), y: rows.at(-1), anchor: 'start' };
  return { cap: capAt, peak: clear ?? inside.at(-1) ?? shifted };
}
