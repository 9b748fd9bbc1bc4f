// Order statistics of a list of numbers, for display only (the engine's own bands come from its answers).

/** The q-quantile (0 ≤ q ≤ 1) of `values` with linear interpolation between order statistics; NaN when empty. */
export function quantile(values, q) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  return quantile(values, 0.5);
}
