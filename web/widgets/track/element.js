// <parascope-track>: how often the engine has been right. Every published run of the calibration set, predicted
// against measured (each predicted without its own publication), from web/data/track-record.json as scripts/calibrate
// wrote it; the engine's band per stack beside y = x; the held-out error per publication. Model in model/*.js.
import { asset } from '../../lib/assets.js';
import { selectControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { ATTRIBUTES as A } from './attributes.js';
import { trackScatter } from './figure.js';
import { bandOf, bandRequest } from './model/bands.js';
import { FAMILIES, familyLabel } from './model/families.js';
import { VIEWS, trackPoints, unplotted } from './model/points.js';
import { pointText, viewSummary } from './model/readout.js';
import { recordRuns } from './model/runs.js';
import { nearest } from './model/scale.js';
import { citationsOf, sourceRows } from './model/sources.js';
import { median } from './model/stats.js';

/** The record's URL (bundled: its hashed copy; after setAssetBase: data/track-record.json under the base). */
const RECORD_URL = () => asset(new URL('../../data/track-record.json', import.meta.url), 'data/track-record.json');

/** The record, fetched once per page however many figures show it, its runs one object each (model/runs.js). */
let recordPromise = null;
function loadRecord() {
  recordPromise ??= fetch(RECORD_URL())
    .then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json();
    })
    .then(recordRuns);
  recordPromise.catch(() => {
    recordPromise = null; // a later figure may try again
  });
  return recordPromise;
}

class ParascopeTrack extends ParascopeWidget {
  setup(body) {
    this.state = {
      view: this.choiceAttribute('view', A.view.choices, A.view.fallback),
      stack: this.choiceAttribute('stack', A.stack.choices, A.stack.fallback),
      at: null, // the point being read
    };
    const controls = h(
      'div',
      { class: 'controls' },
      selectControl({
        label: 'Compare',
        name: 'view',
        value: this.state.view,
        options: [
          ['speed', 'Speed (MFU)'],
          ['memory', 'Peak memory'],
        ],
        onChange: (v) => this.change({ view: v }),
      }).element,
      selectControl({
        label: 'Software stack',
        name: 'stack',
        value: this.state.stack,
        options: [['all', 'All stacks'], ...FAMILIES.map((f) => [f.id, f.label])],
        onChange: (v) => this.change({ stack: v }),
      }).element,
    );
    this.out = {
      summary: h('p', { class: 'track-summary', 'data-out': 'summary' }),
      plot: h('div', {
        class: 'track-plot',
        tabindex: '0',
        role: 'slider',
        'aria-valuemin': '0',
        'aria-keyshortcuts': 'ArrowLeft ArrowRight Home End',
        'data-out': 'plot',
      }),
      band: h('p', { class: 'track-band-text', 'data-out': 'band' }),
      legend: h('p', { class: 'track-legend' }),
      readout: h('div', { class: 'track-readout result', 'aria-live': 'polite', 'data-out': 'readout' }),
      table: h('div', {
        class: 'track-table',
        'data-out': 'sources',
        tabindex: '0', // it scrolls sideways on a phone: reachable by keyboard
        role: 'region',
        'aria-label': 'Held-out error per publication',
      }),
      missing: h('details', { class: 'track-missing fold', 'data-out': 'unplotted', hidden: '' }),
    };
    this.out.plot.addEventListener('keydown', (e) => this.key(e));
    this.out.plot.addEventListener('pointermove', (e) => this.hover(e));
    this.out.plot.addEventListener('pointerdown', (e) => this.hover(e)); // a tap reads the dot under it
    this.out.plot.addEventListener('focus', () => this.state.at ?? this.read(0));
    this.root = h(
      'div',
      { class: 'track' },
      controls,
      this.out.summary,
      h(
        'div',
        { class: 'track-layout' },
        h('div', { class: 'track-stage' }, this.out.plot, this.out.legend, this.out.band),
        this.out.readout,
      ),
      h('p', { class: 'track-table-title' }, 'Held-out error per publication'),
      this.out.table,
      this.out.missing,
    );
    body.append(this.root);
    const { root } = this;
    this.out.summary.textContent = 'Loading the track record…';
    this.bands = new Map();
    loadRecord().then(
      (record) => {
        if (!root.isConnected) return; // restarted since (loadState): that setup draws
        this.record = record;
        this.render();
      },
      (err) => {
        this.out.summary.textContent =
          `The track record (data/track-record.json) did not load (${err.message}), so there is nothing to plot; ` +
          'the figures above still run.';
        this.out.summary.dataset.out = 'load-failed';
      },
    );
  }

  change(patch) {
    Object.assign(this.state, patch, { at: null });
    if (this.record) this.render();
    this.stateChanged();
  }

  /** The engine's band for the current stack and view, or null (all stacks in speed: each stack has its own). */
  band() {
    const { view, stack } = this.state;
    if (view === 'speed' && stack === 'all') return null;
    const family = stack === 'all' ? 'pytorch' : stack; // memory: one band for every stack (engine/API.md)
    if (!this.bands.has(family)) this.bands.set(family, this.ask(bandRequest(family), 'band'));
    const answer = this.bands.get(family);
    return answer ? bandOf(answer, view) : null;
  }

  render() {
    const { view, stack } = this.state;
    const { record } = this;
    this.points = trackPoints(record, view, stack);
    this.rows = sourceRows(this.points, view);
    const band = this.band();
    const unit = VIEWS[view].unit;
    const ratios = this.points.map((p) => p.ratio);
    this.out.summary.textContent = viewSummary(this.points, this.rows, view, median(ratios));
    this.out.summary.dataset.value = String(median(ratios));
    this.figure = trackScatter(this.points, {
      band,
      unit,
      label: `Measured against predicted ${view === 'speed' ? 'MFU' : 'peak memory'} for ${this.points.length} runs`,
    });
    this.figure.element.setAttribute('aria-hidden', 'true'); // the slider around it speaks for it
    this.out.plot.replaceChildren(this.figure.element);
    this.out.plot.setAttribute('aria-label', `Published runs, ${stack === 'all' ? 'all stacks' : familyLabel(stack)}`);
    this.out.plot.setAttribute('aria-valuemax', String(Math.max(0, this.points.length - 1)));
    const families = FAMILIES.filter((f) => this.points.some((p) => p.family === f.id));
    this.out.legend.replaceChildren(
      ...families.map((f) => h('span', { class: `track-key family-${f.id}` }, f.label)),
      h('span', { class: 'track-key diagonal' }, 'measured = predicted'),
      band ? h('span', { class: 'track-key band' }, 'the engine’s band') : '',
    );
    this.out.band.textContent = band
      ? `The engine's band for ${band.basis}: measured / predicted from ${band.low.toFixed(2)} to ` +
        `${band.high.toFixed(2)} (10th to 90th percentile of ${band.runs} held-out runs, each publication weighted alike; median ${band.median.toFixed(3)}), ` +
        'the range every answer of the engine now carries.'
      : 'Each stack has its own band: choose one to draw it.';
    this.renderTable(view);
    this.renderMissing(unplotted(record, view, stack), view);
    this.read(this.state.at);
  }

  /** The runs the view cannot draw, folded under a one-line summary (the list is long; closed, the height is fixed). */
  renderMissing(missing, view) {
    const why = view === 'speed' ? 'no throughput' : 'no published peak memory';
    const runs = `${missing.length} run${missing.length === 1 ? '' : 's'}`;
    // A run's label may already end with its outcome ("…, out of memory"): said once.
    const outcome = (m) => (m.run.endsWith(m.outcome) ? m.run : `${m.run}: ${m.outcome}`);
    const verdict = (m) => `the engine predicted ${m.calledFits ? 'that it fits' : 'out of memory'}`;
    const item = (m) => h('li', {}, view === 'speed' ? `${outcome(m)}; ${verdict(m)}.` : m.run);
    this.out.missing.hidden = missing.length === 0;
    this.out.missing.replaceChildren(
      h('summary', {}, `Not drawn (${why}): ${runs}`),
      h('ul', { class: 'formula' }, ...missing.map(item)),
    );
  }

  renderTable(view) {
    const unit = view === 'speed' ? 'MFU points' : '% of predicted';
    const head = [
      'Publication',
      'Stack',
      'Runs',
      'Median measured / predicted',
      `Median |error| (${unit})`,
      `Worst (${unit})`,
    ];
    this.out.table.replaceChildren(
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ...this.rows.map((r) =>
            h(
              'tr',
              { 'data-publication': r.publication },
              h('th', { scope: 'row', title: citationsOf(this.record, this.points, r.publication).join('\n') }, r.name),
              h('td', {}, h('span', { class: `track-key family-${r.family}` }, r.familyName)),
              h('td', { 'data-value': r.runs }, String(r.runs)),
              h('td', { 'data-value': r.median }, r.median.toFixed(3)),
              h('td', { 'data-value': r.error }, r.error.toFixed(1)),
              h('td', { 'data-value': r.worst }, r.worst.toFixed(1)),
            ),
          ),
        ),
      ),
    );
  }

  /** Shows point `index` (null: the hint) in the readout, rings it and tells the slider. */
  read(index) {
    const p = index === null ? null : this.points?.[index];
    this.state.at = p ? index : null;
    this.figure?.mark(p ?? null);
    if (!p) {
      this.out.readout.replaceChildren(
        h('p', { class: 'track-hint' }, 'Point at a dot, or focus the plot and use ← →, to read a run and its source.'),
      );
      this.out.plot.setAttribute('aria-valuetext', 'no run chosen');
      return;
    }
    const t = pointText(p, this.state.view);
    this.out.readout.replaceChildren(
      h('p', { class: 'track-run', 'data-out': 'run' }, t.title),
      h('p', { 'data-out': 'numbers', 'data-value': p.ratio }, t.numbers),
      h('p', {}, t.where),
      h('p', {}, this.state.view === 'memory' ? t.verdict : ''),
      h('p', { class: 'track-source' }, t.publication, ': ', this.record.sources[p.table] ?? p.table),
    );
    this.out.plot.setAttribute('aria-valuenow', String(index));
    this.out.plot.setAttribute('aria-valuetext', t.label);
  }

  hover(e) {
    if (!this.figure) return;
    const box = this.figure.element.getBoundingClientRect();
    const vb = this.figure.element.viewBox.baseVal;
    const sx = ((e.clientX - box.left) / box.width) * vb.width;
    const sy = ((e.clientY - box.top) / box.height) * vb.height;
    const p = nearest(this.points, this.figure.scale, sx, sy);
    if (p && p.index !== this.state.at) this.read(p.index);
  }

  key(e) {
    const n = this.points?.length ?? 0;
    if (!n) return;
    const at = this.state.at ?? -1;
    const moves = { ArrowRight: at + 1, ArrowUp: at + 1, ArrowLeft: at - 1, ArrowDown: at - 1, Home: 0, End: n - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    this.read(Math.max(0, Math.min(n - 1, moves[e.key])));
  }

  linkState() {
    if (!this.state) return null;
    return { view: this.state.view, stack: this.state.stack };
  }

  /**
   * What the downloads save: the figure as it stands. Before the record has loaded that is its loading sentence and no
   * point (the tools ask this during setup, before the record arrives: null would leave the figure without downloads).
   */
  exportFigure() {
    if (!this.root) return null;
    const { view, stack } = this.state;
    const points = this.points ?? [];
    return {
      title: `The engine's track record: measured against predicted ${view === 'speed' ? 'MFU' : 'peak memory'}, ${stack === 'all' ? 'all stacks' : familyLabel(stack)}`,
      words: ['track-record', view, stack],
      root: this.root,
      data: { view, stack, band: this.points ? this.band() : null, sources: this.rows ?? [], points },
      table: [
        [
          'run',
          'source',
          'family',
          'software',
          'hardware',
          'gpus',
          `predicted (${VIEWS[view].unit})`,
          `measured (${VIEWS[view].unit})`,
          'measured / predicted',
        ],
        ...points.map((p) => [p.run, p.publication, p.family, p.software, p.hardware, p.gpus, p.x, p.y, p.ratio]),
      ],
    };
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeTrack.stylesheet = sheet(new URL('./track.css', import.meta.url));
customElements.define('parascope-track', ParascopeTrack);
