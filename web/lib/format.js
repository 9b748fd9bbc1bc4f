// Display formatting only (units and rounding for the reader); every number formatted here comes from the engine.
const SI = [
  [1e18, 'E'],
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** 0.4623 -> "46.2 %". */
export function percent(fraction, digits = 1) {
  return `${(fraction * 100).toFixed(digits)} %`;
}

/** 7.81e17, "FLOP/s" -> "781 PFLOP/s" (three significant digits). */
export function si(value, unit = '') {
  const [scale, prefix] = SI.find(([s]) => Math.abs(value) >= s) ?? [1, ''];
  return `${(value / scale).toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, '$1')} ${prefix}${unit}`;
}

/**
 * 1234567 -> "1,234,567": exactly what toLocaleString('en-US') writes, without starting Intl for integers (its first
 * use costs a page 50-80 ms on the way to the first figure). Other numbers still go through toLocaleString.
 */
export function grouped(value) {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${digits}` : digits;
}

/** Parameter counts: 540358649856 -> "540 B". */
export function count(value) {
  if (value >= 1e9) return `${(value / 1e9).toPrecision(3)} B`;
  if (value >= 1e6) return `${(value / 1e6).toPrecision(3)} M`;
  return grouped(value);
}

/** Bytes in binary units: 85899345920 -> "80 GiB". */
export function bytes(value) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  while (Math.abs(value) >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${Number(value.toPrecision(3))} ${units[i]}`;
}

/** Seconds in a readable unit: 3.4e-6 -> "3.4 µs", 3010 -> "50.2 min", 14100 -> "3.92 h". */
export function seconds(value) {
  if (value >= 3600) return `${Number((value / 3600).toPrecision(3))} h`;
  if (value >= 60) return `${Number((value / 60).toPrecision(3))} min`;
  if (value >= 1) return `${Number(value.toPrecision(3))} s`;
  if (value >= 1e-3) return `${Number((value * 1e3).toPrecision(3))} ms`;
  if (value >= 1e-6) return `${Number((value * 1e6).toPrecision(3))} µs`;
  return `${Number((value * 1e9).toPrecision(3))} ns`;
}
