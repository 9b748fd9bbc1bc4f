// The track record's runs as points of the scatter: predicted on x, measured on y, in the view's unit (speed: MFU in
// percent, the engine's FLOP convention; memory: GiB per GPU), exactly the numbers of web/data/track-record.json.

/** What each view plots: its axis unit and the run's predicted and measured values (null where the run has none). */
export const VIEWS = {
  speed: {
    unit: '% MFU',
    predicted: (run) => (run.speed ? run.speed.predicted_mfu * 100 : null),
    measured: (run) => (run.speed ? run.speed.measured_mfu * 100 : null),
    ratio: (run) => run.speed?.measured_over_predicted ?? null,
  },
  memory: {
    unit: 'GiB per GPU',
    predicted: (run) => run.memory?.predicted_gib ?? null,
    measured: (run) => run.memory?.measured_gib ?? null,
    ratio: (run) => (run.memory ? run.memory.measured_gib / run.memory.predicted_gib : null),
  },
};

/**
 * The points of `view` ('speed' | 'memory') for family `stack` ('all' or a family id): one per run that has both
 * numbers, sorted by predicted value (the order the keyboard walks them), each
 * { index, run, family, software, publication (the record's source), table, hardware, gpus, x (predicted), y (measured), ratio (measured /
 * predicted; speed: the held-out one the file records), calledFits, outcome }.
 */
export function trackPoints(record, view, stack = 'all') {
  const v = VIEWS[view];
  return record.runs
    .filter((run) => stack === 'all' || run.family === stack)
    .map((run) => ({ run, x: v.predicted(run), y: v.measured(run), ratio: v.ratio(run) }))
    .filter((p) => p.x !== null && p.y !== null)
    .sort((a, b) => a.x - b.x || a.y - b.y)
    .map(({ run, x, y, ratio }, index) => ({
      index,
      run: run.run,
      family: run.family,
      software: run.software,
      publication: run.source,
      table: run.table,
      hardware: run.hardware,
      gpus: run.gpus,
      x,
      y,
      ratio,
      calledFits: run.called_fits,
      outcome: run.outcome,
    }));
}

/** The runs the view cannot plot (e.g. a run that ran out of memory has no throughput): [{ run, outcome }]. */
export function unplotted(record, view, stack = 'all') {
  const v = VIEWS[view];
  return record.runs
    .filter(
      (run) => (stack === 'all' || run.family === stack) && (v.predicted(run) === null || v.measured(run) === null),
    )
    .map((run) => ({ run: run.run, outcome: run.outcome, calledFits: run.called_fits }));
}
