// <parascope-nccl>: your cluster's network from its own nccl-tests output. The reader pastes what all_reduce_perf,
// all_gather_perf, reduce_scatter_perf or alltoall_perf printed (or its -J JSON); the engine's `nccl_fit`
// (engine/API.md) fits α and β per link level; the figure draws the measured busbw against the model's by message
// size, says what busbw means for that collective, and hands the fitted links to <parascope-run> ("use my cluster").
// It runs on the planner's engine, the module that answers `nccl_fit`. Model in model/*.js.
import { asset } from '../../lib/assets.js';
import { selectControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { EngineError, loadPlannerEngine } from '../../lib/engine.js';
import { si } from '../../lib/format.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { ATTRIBUTES as A } from './attributes.js';
import { FIGURES, figureOf } from '../index.js';
import { busbwChart } from './busbw-chart.js';
import { EXAMPLES } from './model/examples.js';
import { algbwText, fitText, pasteErrorText, runValues, tableTitle, tablePoints, worstMiss } from './model/fit-view.js';

/** Each example's URL (literal, for the bundler: scripts/bundle.mjs rewrites each to its copy in dist/). */
const EXAMPLE_URLS = {
  'h200-2x8': () =>
    asset(
      new URL('../../data/nccl-tests/h200-2x8-all-reduce.txt', import.meta.url),
      'data/nccl-tests/h200-2x8-all-reduce.txt',
    ),
  'a100-1x8': () =>
    asset(
      new URL('../../data/nccl-tests/a100-1x8-all-reduce.txt', import.meta.url),
      'data/nccl-tests/a100-1x8-all-reduce.txt',
    ),
};

const FIT_PAUSE_MS = 250; // typing pauses this long before the paste is fitted again

class ParascopeNccl extends ParascopeWidget {
  static engineLoader = loadPlannerEngine; // its ops are the planner module's (lib/widget-engine.js)

  setup(body) {
    this.state = { example: this.choiceAttribute('example', A.example.choices, A.example.fallback), table: 0 };
    this.controls = {
      example: selectControl({
        label: 'Example',
        name: 'example',
        value: this.state.example,
        options: [...EXAMPLES.map((e) => [e.id, e.label]), ['none', 'none: my own paste']],
        onChange: (v) => this.pickExample(v),
      }),
      table: selectControl({
        label: 'Table',
        name: 'table',
        value: '0',
        options: [],
        onChange: (v) => this.pickTable(Number(v)),
      }),
    };
    this.paste = h('textarea', {
      class: 'nccl-paste',
      name: 'nccl-tests',
      rows: 8,
      spellcheck: 'false',
      autocomplete: 'off',
      'aria-label': 'nccl-tests output',
      // short lines: the box keeps a table's lines unwrapped (nccl.css), and its placeholder with them
      placeholder: [
        'Paste what nccl-tests printed:',
        'all_reduce_perf, all_gather_perf,',
        'reduce_scatter_perf, alltoall_perf',
        '(the text table or its -J JSON).',
      ].join('\n'),
    });
    this.paste.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.pasted(), FIT_PAUSE_MS);
    });
    this.out = {
      status: h('p', { class: 'nccl-status', 'data-out': 'status', role: 'status' }),
      title: h('p', { class: 'nccl-title', 'data-out': 'title' }),
      fit: h('p', { class: 'nccl-fit', 'data-out': 'fit' }),
      chart: h('div', { class: 'nccl-plot', 'data-out': 'chart' }),
      meaning: h('p', { class: 'nccl-meaning', 'data-out': 'meaning' }),
      algbw: h('p', { class: 'nccl-algbw', 'data-out': 'algbw' }),
      used: h('p', { class: 'nccl-used', 'data-out': 'used', 'aria-live': 'polite' }),
    };
    this.useButton = h(
      'button',
      { type: 'button', class: 'nccl-use', 'data-out': 'use', onclick: () => this.use() },
      'Use my cluster in the other figures',
    );
    this.root = h(
      'div',
      { class: 'nccl' },
      h('div', { class: 'controls' }, this.controls.example.element, this.controls.table.element),
      h('label', { class: 'nccl-paste-label' }, h('span', { class: 'label' }, 'nccl-tests output'), this.paste),
      h(
        'div',
        { class: 'nccl-result' }, // holds one size whatever the paste (nccl.css), so nothing below it moves
        this.out.status,
        this.out.title,
        this.out.fit,
        h(
          'div',
          { class: 'nccl-stage' },
          this.out.chart,
          h(
            'p',
            { class: 'nccl-legend' },
            h('span', { class: 'nccl-key measured' }, 'measured busbw'),
            h('span', { class: 'nccl-key model' }, 'the fitted model'),
          ),
        ),
        this.out.meaning,
        this.out.algbw,
      ),
      h('div', { class: 'nccl-actions' }, this.useButton),
      this.out.used,
    );
    body.append(this.root);
    this.answer = null;
    this.draw();
    this.loadExample(this.state.example);
  }

  stop() {
    clearTimeout(this.timer);
  }

  /** Puts example `id`'s text in the box and fits it ('none': an empty box). */
  loadExample(id) {
    const url = EXAMPLE_URLS[id];
    if (!url) {
      this.removeAttribute('data-loading');
      this.paste.value = '';
      this.pasted();
      return;
    }
    const { root } = this;
    this.out.status.textContent = 'Loading the example…';
    this.setAttribute('data-loading', ''); // until the example is fitted (tests wait for it: harness widgetReady)
    const done = () => root.isConnected && this.state.example === id && this.removeAttribute('data-loading');
    fetch(url())
      .then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        return r.text();
      })
      .then(
        (text) => {
          if (!root.isConnected || this.state.example !== id) return;
          this.paste.value = text;
          this.pasted();
          done();
        },
        () => {
          if (!root.isConnected) return;
          this.out.status.textContent = 'The example did not load; paste your own nccl-tests output above.';
          done();
        },
      );
  }

  pickExample(id) {
    this.state.example = id;
    this.loadExample(id);
    this.stateChanged();
  }

  /** Fits the box's text. An empty box or a refusal keeps nothing drawn and says why. */
  pasted() {
    const text = this.paste.value;
    this.state.table = 0;
    this.answer = null;
    this.refusal = null;
    if (text.trim()) {
      try {
        this.answer = this.engine.call({ op: 'nccl_fit', text });
      } catch (err) {
        if (!(err instanceof EngineError)) throw err;
        this.refusal = err;
      }
    }
    this.paste.setAttribute('aria-invalid', this.refusal ? 'true' : 'false');
    this.draw();
  }

  pickTable(i) {
    this.state.table = i;
    this.draw();
  }

  draw() {
    const a = this.answer;
    const select = this.controls.table.input;
    select.replaceChildren(
      ...(a?.tables ?? []).map((t, i) => h('option', { value: i, selected: i === this.state.table }, tableTitle(t))),
    );
    this.controls.table.element.hidden = !a || a.tables.length < 2;
    this.useButton.disabled = !a;
    this.root.toggleAttribute('data-refused', Boolean(this.refusal));
    this.root.toggleAttribute('data-empty', !a); // no chart: its legend keeps its place but names nothing (nccl.css)
    if (!a) {
      this.out.status.textContent = this.refusal
        ? pasteErrorText(this.refusal)
        : 'Paste nccl-tests output above to fit your network.';
      this.out.status.dataset.code = this.refusal?.code ?? '';
      for (const key of ['title', 'fit', 'meaning', 'algbw']) this.out[key].textContent = '';
      delete this.out.fit.dataset.bandwidth;
      delete this.out.fit.dataset.value;
      this.out.chart.replaceChildren();
      if (this.refusal) this.announce(this.out.status.textContent);
      return;
    }
    const t = a.tables[this.state.table];
    const { points, leftOff } = tablePoints(a, this.state.table);
    const rows = a.points.filter((p) => p.table === this.state.table).length;
    this.out.status.dataset.code = '';
    this.out.status.textContent =
      `${a.tables.length} table${a.tables.length === 1 ? '' : 's'} read, ${rows} rows in this one` +
      (points.length
        ? `; the model is within ${Number((worstMiss(points) * 100).toPrecision(2))} % of every measured busbw drawn`
        : '') +
      (leftOff ? ` (${leftOff} row${leftOff === 1 ? '' : 's'} of 0.00 GB/s left off the log scale)` : '') +
      '.';
    this.out.title.textContent = tableTitle(t);
    this.out.fit.textContent = fitText(t);
    this.out.fit.dataset.bandwidth = String(t.bandwidth);
    this.out.fit.dataset.value = String(t.bandwidth); // the engine number the figure leads with (B, bytes/s)
    this.out.chart.replaceChildren(points.length ? busbwChart(points, `busbw by message size, ${tableTitle(t)}`) : '');
    this.out.meaning.textContent = t.busbw_meaning;
    this.out.algbw.textContent = algbwText(t, points);
    this.announce(`${tableTitle(t)}. ${this.out.fit.textContent}`);
  }

  /** Loads the fitted links into every <parascope-run> on the page. */
  use() {
    if (!this.answer) return;
    const values = runValues(this.answer);
    // Every figure on the page that costs a step on a network (static takesNetwork: the axes' traffic and all-to-all,
    // the MFU figure, the step timeline, the planner, the whole run), restarted from its own state with your links:
    // lib/model/network.js.
    const figures = [...document.querySelectorAll(FIGURES.map(({ tag }) => tag).join(','))].filter(
      (el) => el.constructor.takesNetwork && typeof el.loadState === 'function',
    );
    for (const el of figures) el.loadState({ ...el.linkState(), ...values });
    const links = [
      values['intra-bandwidth'] ? `${si(values['intra-bandwidth'], 'B/s')} inside a node` : '',
      values['inter-bandwidth'] ? `${si(values['inter-bandwidth'], 'B/s')} per GPU between nodes` : '',
    ].filter(Boolean);
    const names = [...new Set(figures.map((el) => figureOf(el.localName)?.title ?? el.localName))];
    this.out.used.textContent = figures.length
      ? `${names.join(', ')} now ${figures.length === 1 ? 'runs' : 'run'} on your links (${links.join(', ')}); ` +
        `${figures.length === 1 ? 'its permalink keeps' : 'their permalinks keep'} them.`
      : 'There is no figure on this page that costs a network to load your links into.';
  }

  linkState() {
    return this.state ? { example: this.state.example } : null;
  }

  exportFigure() {
    if (!this.root) return null;
    const a = this.answer;
    const t = a?.tables[this.state.table];
    return {
      title: t ? `nccl-tests fitted: ${tableTitle(t)}` : 'nccl-tests fit: nothing pasted',
      words: ['nccl-fit', t ? `${t.collective}-${t.gpus}gpus` : 'empty'],
      root: this.root,
      data: { response: a },
      table: [
        [
          'table',
          'line',
          'bytes',
          'time (s)',
          'model time (s)',
          'measured algbw (B/s)',
          'measured busbw (B/s)',
          'model busbw (B/s)',
        ],
        ...(a?.points ?? []).map((p) => [
          p.table,
          p.line,
          p.bytes,
          p.time,
          p.model_time,
          p.measured_algbw,
          p.measured_busbw,
          p.model_busbw,
        ]),
      ],
    };
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeNccl.stylesheet = sheet(new URL('./nccl.css', import.meta.url));
customElements.define('parascope-nccl', ParascopeNccl);
