// Tick values for the busbw chart's two log axes. Pure.

/** For a log axis over [lo, hi]: 1-2-5 × 10^k inside it (only the 10^k when that makes more than 6), else three inside. */
export function logTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push({ v, m });
    }
  }
  const kept = out.length > 6 ? out.filter((t) => t.m === 1) : out;
  if (kept.length >= 2) return kept.map((t) => t.v);
  // a narrow range: three values a fifth, half and four fifths of the way up, off the corners where the axes' labels meet
  return [0.2, 0.5, 0.8].map((f) => Number((lo * (hi / lo) ** f).toPrecision(2)));
}

/** Powers of two over [lo, hi], at most `most` of them (every 2nd, 3rd, … power when there are more). */
export function byteTicks(lo, hi, most = 5) {
  const all = [];
  for (let e = Math.ceil(Math.log2(lo) - 1e-9); e <= Math.floor(Math.log2(hi) + 1e-9); e += 1) all.push(2 ** e);
  const every = Math.max(1, Math.ceil(all.length / most));
  return all.filter((_, i) => i % every === 0);
}
