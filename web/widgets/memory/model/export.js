// The figure's legend and CSV from one `memory_timeline` answer. Pure: fields of the answer, laid out.
import { PARTS, moment, segmentCount } from './stack.js';

/** Each part at the peak: [{ key, words, bytes }] (the bytes of the peak's segment; they add up to peak.total). */
export function legendParts(t) {
  const m = moment(t, t.peak.segment);
  return PARTS.map(([key, words]) => ({ key, words, bytes: m.parts[key] }));
}

/** The CSV rows: one per stretch of constant memory, every part in bytes. */
export function exportTable(t) {
  const rows = [
    [
      'start (s)',
      'end (s)',
      'kind',
      'microbatch',
      'chunk',
      'sets',
      ...PARTS.map(([k]) => `${k} (bytes)`),
      'total (bytes)',
    ],
  ];
  for (let i = 0; i < segmentCount(t); i += 1) {
    const m = moment(t, i);
    rows.push([m.start, m.end, m.kind, m.microbatch, m.chunk, m.sets, ...PARTS.map(([k]) => m.parts[k]), m.total]);
  }
  return rows;
}
