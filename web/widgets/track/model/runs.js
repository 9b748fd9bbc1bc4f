// The record's column-wise `runs` (web/data/track-record.json, engine/API.md) turned back into one object per run.

/**
 * The record with `runs` as [{ run, family, …, speed: { … }, memory: { … } }], one per run: `runs.count` values per
 * column, a null left out, and a nested column group (speed, memory) kept only where the run has one of its values.
 * Field names and values are the file's: nothing is computed here.
 */
export function recordRuns(record) {
  const { count, ...columns } = record.runs;
  const pick = (group, i) => {
    const out = {};
    for (const [key, column] of Object.entries(group)) {
      const value = Array.isArray(column) ? column[i] : pick(column, i);
      if (value !== null) out[key] = value;
    }
    return Object.keys(out).length > 0 ? out : null;
  };
  return { ...record, runs: Array.from({ length: count }, (_, i) => pick(columns, i) ?? {}) };
}
