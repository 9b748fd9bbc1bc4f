// <parascope-track>'s view models on the real record (web/data/track-record.json, written by scripts/calibrate): every
// run is drawn once with the file's own numbers, and the held-out medians per publication are the ones engine/API.md
// publishes ("Error bands and the held-out track record"), so the figure and the documentation cannot drift apart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { bandOf, bandRequest } from '../../web/widgets/track/model/bands.js';
import { FAMILIES } from '../../web/widgets/track/model/families.js';
import { trackPoints, unplotted } from '../../web/widgets/track/model/points.js';
import { pointText, viewSummary } from '../../web/widgets/track/model/readout.js';
import { recordRuns } from '../../web/widgets/track/model/runs.js';
import { nearest, scatterScale } from '../../web/widgets/track/model/scale.js';
import { citationsOf, sourceName, sourceRows } from '../../web/widgets/track/model/sources.js';
import { median, quantile } from '../../web/widgets/track/model/stats.js';

const file = JSON.parse(readFileSync(new URL('../../web/data/track-record.json', import.meta.url), 'utf8'));
const record = recordRuns(file);
const api = readFileSync(new URL('../../engine/API.md', import.meta.url), 'utf8');

/** Runs (one object each) back into the file's columns: the inverse of recordRuns, written here to check it. */
function columnsOf(runs) {
  const columns = { count: runs.length };
  const put = (group, key, i, value) => {
    group[key] ??= Array(runs.length).fill(null);
    group[key][i] = value;
  };
  runs.forEach((run, i) => {
    for (const [key, value] of Object.entries(run)) {
      if (value !== null && typeof value === 'object')
        for (const [inner, v] of Object.entries(value)) put((columns[key] ??= {}), inner, i, v);
      else put(columns, key, i, value);
    }
  });
  return columns;
}

test('the file’s runs are columns of `count` values each, one per run', () => {
  const { count, ...columns } = file.runs;
  assert.ok(Number.isInteger(count) && count > 400, String(count));
  const lengths = Object.entries(columns).flatMap(([key, c]) =>
    Array.isArray(c) ? [[key, c.length]] : Object.entries(c).map(([k, inner]) => [`${key}.${k}`, inner.length]),
  );
  assert.ok(lengths.length >= 16, lengths.map(([k]) => k).join());
  for (const [key, length] of lengths) assert.equal(length, count, key);
  // Every field a run always has is never null; speed and memory only where the source measured them.
  for (const key of ['run', 'source', 'table', 'family', 'software', 'hardware', 'gpus', 'called_fits'])
    assert.ok(!columns[key].includes(null), key);
  assert.ok(columns.speed.measured_mfu.includes(null) && columns.memory.measured_gib.includes(null));
});

test('recordRuns turns the columns into one object per run and back, nothing lost or made up', () => {
  assert.equal(record.runs.length, file.runs.count);
  assert.deepEqual(columnsOf(record.runs), file.runs);
  assert.deepEqual(record.sources, file.sources);
  for (const run of record.runs) {
    assert.ok(!Object.values(run).includes(null), run.run);
    if (run.speed) assert.ok(['measured_mfu', 'predicted_mfu', 'measured_over_predicted'].every((k) => k in run.speed));
    if (run.memory) assert.deepEqual(Object.keys(run.memory).sort(), ['kind', 'measured_gib', 'predicted_gib']);
  }
  const shipped = record.runs.filter((r) => r.speed && 'shipped_measured_over_predicted' in r.speed);
  assert.ok(
    shipped.length > 0 &&
      shipped.every((r) => r.speed.shipped_measured_over_predicted !== r.speed.measured_over_predicted),
  );
});

test('every column of the record is a field engine/API.md describes', () => {
  const start = api.indexOf('### Error bands and the held-out track record');
  const section = api.slice(start, api.indexOf('\n### ', start + 1));
  const { count, ...columns } = file.runs;
  const keys = Object.entries(columns).flatMap(([key, c]) => (Array.isArray(c) ? [key] : [key, ...Object.keys(c)]));
  for (const key of ['count', ...keys]) assert.ok(section.includes(`\`${key}\``), `engine/API.md does not name ${key}`);
});

test('speed: every run with a throughput is one point, its numbers the file’s, in percent', () => {
  const points = trackPoints(record, 'speed');
  const withSpeed = record.runs.filter((r) => r.speed);
  assert.equal(points.length, withSpeed.length);
  assert.ok(points.length > 300);
  const pairs = (xs) => xs.map((a) => a.join(' ')).sort();
  assert.deepEqual(
    pairs(points.map((p) => [p.run, p.table, p.x, p.y, p.ratio])),
    pairs(
      withSpeed.map((r) => [
        r.run,
        r.table,
        r.speed.predicted_mfu * 100,
        r.speed.measured_mfu * 100,
        r.speed.measured_over_predicted,
      ]),
    ),
  );
  for (let i = 1; i < points.length; i += 1) assert.ok(points[i - 1].x <= points[i].x);
  assert.deepEqual(
    points.map((p) => p.index),
    points.map((_, i) => i),
  );
  // Runs with no throughput (out of memory, or memory read alone) are listed beside the plot, with the engine's
  // verdict.
  const without = record.runs.filter((r) => !r.speed);
  assert.ok(without.some((r) => r.outcome === 'out of memory'));
  assert.deepEqual(
    unplotted(record, 'speed'),
    without.map((r) => ({ run: r.run, outcome: r.outcome, calledFits: r.called_fits })),
  );
});

test('memory: the runs with a published peak, in GiB; a stack filter keeps only its family', () => {
  const points = trackPoints(record, 'memory');
  assert.equal(points.length, record.runs.filter((r) => r.memory).length);
  for (const p of points) assert.ok(p.x > 0 && p.y > 0 && Math.abs(p.ratio - p.y / p.x) < 1e-12);
  for (const f of FAMILIES) {
    const own = trackPoints(record, 'speed', f.id);
    assert.ok(own.length > 0, f.id);
    assert.ok(own.every((p) => p.family === f.id));
  }
  assert.equal(
    FAMILIES.reduce((n, f) => n + trackPoints(record, 'speed', f.id).length, 0),
    trackPoints(record, 'speed').length,
    'every family of the record is listed',
  );
});

/** engine/API.md's held-out table: family | source | runs | share | measured / predicted | median |pts| | worst | … */
function apiRows() {
  const start = api.indexOf('| family | held-out source |');
  return api
    .slice(start)
    .split('\n')
    .slice(2)
    .filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('|')))
    .map((l) => l.split('|').map((c) => c.trim()))
    .map((c) => ({
      family: c[1],
      name: c[2],
      runs: Number(c[3]),
      median: Number(c[5]),
      error: Number(c[6]),
      worst: Number(c[7]),
    }));
}

test('the held-out medians per publication are the ones engine/API.md publishes', () => {
  const rows = sourceRows(trackPoints(record, 'speed'), 'speed');
  const published = apiRows();
  assert.equal(rows.length, published.length);
  for (const want of published) {
    const got = rows.find((r) => r.name === want.name);
    assert.ok(got, `no row named ${want.name} (model/sources.js NAMES)`);
    assert.equal(got.family, want.family, want.name);
    assert.equal(got.runs, want.runs, want.name);
    // the file keeps 3-decimal ratios and 4-decimal MFU: the medians agree to their last digit
    assert.ok(Math.abs(got.median - want.median) <= 0.0015, `${want.name}: ${got.median} vs ${want.median}`);
    assert.ok(Math.abs(got.error - want.error) <= 0.06, `${want.name}: ${got.error} vs ${want.error}`);
    assert.ok(Math.abs(got.worst - want.worst) <= 0.06, `${want.name}: ${got.worst} vs ${want.worst}`);
  }
});

test('memory per publication: the medians engine/API.md states', () => {
  const rows = sourceRows(trackPoints(record, 'memory'), 'memory');
  const want = { 'torchtitan-h100-202412': 1.054, bloom: 0.993, 'torchtitan-trainy': 0.95 };
  assert.deepEqual(rows.map((r) => r.publication).sort(), Object.keys(want).sort());
  for (const r of rows) assert.ok(Math.abs(r.median - want[r.publication]) < 0.0015, `${r.publication}: ${r.median}`);
});

test('every point names its publication and the citation of its table', () => {
  const points = trackPoints(record, 'speed');
  for (const p of points) {
    assert.notEqual(sourceName(p.publication), p.publication, `model/sources.js has no name for ${p.publication}`);
    const cites = citationsOf(record, points, p.publication);
    assert.ok(cites.length >= 1 && cites.every((c) => c.length > 20), p.publication);
    const t = pointText(p, 'speed');
    assert.match(t.numbers, /^Predicted MFU \d+\.\d %, measured \d+\.\d %: measured \/ predicted \d\.\d{3}/);
    assert.ok(t.label.includes(p.run) && t.label.includes(sourceName(p.publication)));
  }
});

test('the band is the answer’s range over its own prediction', () => {
  assert.deepEqual(bandRequest('xla').software, 'xla');
  const answer = {
    mfu: 0.5,
    memory_per_gpu: { total: 80 },
    error_band: {
      basis: 'pytorch',
      held_out_runs: 253,
      mfu: [0.36, 0.59],
      median_measured_over_predicted: 1.031,
      memory_total: { range: [67.2, 96.8], held_out_runs: 44, median_measured_over_predicted: 0.907 },
    },
  };
  const speed = bandOf(answer, 'speed');
  assert.ok(Math.abs(speed.low - 0.72) < 1e-12 && Math.abs(speed.high - 1.18) < 1e-12);
  assert.equal(speed.basis, 'PyTorch-native', 'the stack as the legend names it, not the engine id');
  const pooled = { ...answer, error_band: { ...answer.error_band, basis: 'all stacks and deepspeed' } };
  assert.equal(bandOf(pooled, 'speed').basis, 'all stacks and Megatron-DeepSpeed');
  const memory = bandOf(answer, 'memory');
  assert.ok(Math.abs(memory.low - 0.84) < 1e-12 && Math.abs(memory.high - 1.21) < 1e-12);
  assert.equal(memory.runs, 44);
});

test('the scale holds every point and the band, and the nearest point is found', () => {
  const points = trackPoints(record, 'speed');
  const s = scatterScale(points, 1.2);
  assert.ok(s.max >= Math.max(...points.map((p) => Math.max(p.x * 1.2, p.y))));
  assert.equal(s.ticks[0], 0);
  assert.equal(s.ticks.at(-1), s.max);
  const p = points[100];
  assert.equal(nearest(points, s, s.px(p.x), s.py(p.y)).index !== undefined, true);
  const q = nearest(points, s, s.px(p.x), s.py(p.y));
  assert.ok((s.px(q.x) - s.px(p.x)) ** 2 + (s.py(q.y) - s.py(p.y)) ** 2 < 1e-9 || q.index === p.index);
  assert.equal(nearest(points, s, -1000, -1000), null);
});

test('median and quantiles', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  assert.equal(quantile([0, 10], 0.9), 9);
  assert.ok(Number.isNaN(median([])));
});

test('the summary counts runs and publications in the singular when there is one', () => {
  const points = trackPoints(record, 'speed', 'deepspeed');
  const rows = sourceRows(points, 'speed');
  assert.equal(rows.length, 1, 'one publication of Megatron-DeepSpeed runs');
  assert.match(viewSummary(points, rows, 'speed', 1), /^\d+ published runs from 1 publication: /);
  assert.match(viewSummary(points.slice(0, 1), rows, 'memory', 1), /^1 published run from 1 publication: /);
  assert.match(
    viewSummary(trackPoints(record, 'speed'), sourceRows(trackPoints(record, 'speed'), 'speed'), 'speed', 1),
    /^\d+ published runs from \d+ publications: /,
  );
});
