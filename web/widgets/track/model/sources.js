// The held-out error per publication, for the figure's table: each source's runs (every run of a source was predicted
// with the constants fitted without that source: the file's held-out ratios), grouped, with their median and worst.
import { familyLabel } from './families.js';
import { median } from './stats.js';

/** The publications' names as a reader knows them (engine/API.md's table); the record's id for any other. */
const NAMES = {
  bloom: 'BLOOM (Megatron-DeepSpeed)',
  'korthikanti-2022': 'Korthikanti 2022 Table 5',
  'narayanan-2021-t1': 'Narayanan 2021 Table 1',
  'narayanan-2021-t2': 'Narayanan 2021 Table 2',
  'megatron-bridge': 'Megatron-Bridge 25.11/26.02',
  'nemo-24.07': 'NeMo 24.07',
  'llm-foundry': 'llm-foundry (A100, H100)',
  'torchtitan-asynctp': 'torchtitan async TP (H100)',
  'torchtitan-h100-202412': 'torchtitan Dec 2024 (H100 96 GB, 500 W)',
  'torchtitan-perf': 'torchtitan performance.md (A100, H100)',
  'torchtitan-trainy': 'torchtitan Trainy (H200)',
  maxtext: 'MaxText (TPU v5p)',
};

/** The name of publication `id`. */
export function sourceName(id) {
  return NAMES[id] ?? id;
}

/**
 * One row per publication with points in `points` (model/points.js), in the families' then the names' order:
 * { publication, name, family, familyName, runs, median (measured / predicted), error (median |error|: speed in MFU
 * points, memory in percent of the prediction), worst (the largest |error|, same unit) }.
 */
export function sourceRows(points, view) {
  const groups = new Map();
  for (const p of points) groups.set(p.publication, [...(groups.get(p.publication) ?? []), p]);
  const errorOf = view === 'speed' ? (p) => Math.abs(p.y - p.x) : (p) => Math.abs(p.ratio - 1) * 100;
  return [...groups.entries()]
    .map(([publication, ps]) => {
      const errors = ps.map(errorOf);
      return {
        publication,
        name: sourceName(publication),
        family: ps[0].family,
        familyName: familyLabel(ps[0].family),
        runs: ps.length,
        median: median(ps.map((p) => p.ratio)),
        error: median(errors),
        worst: Math.max(...errors),
      };
    })
    .sort((a, b) => a.family.localeCompare(b.family) || a.name.localeCompare(b.name));
}

/** The citations of a source's tables (web/data/track-record.json `sources`, keyed by table), each once. */
export function citationsOf(record, points, publication) {
  const tables = new Set(points.filter((p) => p.publication === publication).map((p) => p.table));
  return [...new Set([...tables].map((t) => record.sources[t]).filter(Boolean))];
}
