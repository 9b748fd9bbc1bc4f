// <parascope-planner>: the best split of a model on a cluster. The engine's `plan` op searches every configuration in a
// Web Worker (worker.js) with progress; a ranked table and a scatter of every configuration it costed show
// the answer; a row loads its configuration into the other figures on the page. State and text live in
// model/*.js; this file binds the controls and paints.
import { selectControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { plannerClient } from './client.js';
import { drawScatter } from './scatter.js';
import { ATTRIBUTES as A } from './attributes.js';
import { TARGETS, loadValues, stepRequestOf } from './model/load.js';
import { NUMBER_INPUTS, TOP_K, controlOptions, inputsAsAttributes, planRequest, sameInputs } from './model/request.js';
import {
  bestText,
  configurationText,
  emptyText,
  nearestPoint,
  planErrorText,
  pointAfterKey,
  progressText,
  scatterLabel,
  scatterLayout,
  softwareLabel,
  summaryText,
  tableRows,
} from './model/view.js';
import { watchSize } from '../../lib/size-watch.js';
import { configTools } from '../../lib/config-io-tools.js';
import { IMPORTED, importedInputs, modelLabel } from './model/imported.js';
import { sheet } from '../../lib/sheets.js';
import { readNetwork, withNetwork } from '../../lib/model/network.js';
import { figureOf } from '../index.js';
import { ParascopeWidget } from '../../lib/widget.js';

/** This element's attributes: ranges and defaults (lib/model/attributes.js, the one list the guide shows). */

/** The figures a row can load into, as the reader knows them. */

const COLUMNS = [
  ['rank', '#'],
  ['split', 'Split'],
  ['mfu', 'MFU'],
  ['step', 'Step time'],
  ['memory', 'Memory per GPU'],
  ['fits', 'Fits'],
];

class ParascopePlanner extends ParascopeWidget {
  /** <parascope-nccl>'s "use my cluster" loads its fitted links into this figure (lib/model/network.js). */
  static takesNetwork = true;

  setup(body) {
    this.presets = this.enginePresets();
    this.inputs = {
      model: this.choiceAttribute(
        'model',
        this.presets.models.map((m) => m.id),
        A.model.fallback,
      ),
      hardware: this.choiceAttribute(
        'hardware',
        this.presets.hardware.map((x) => x.id),
        A.hardware.fallback,
      ),
      gpus: this.intAttribute('gpus', A.gpus),
      globalBatch: this.intAttribute('global-batch', A['global-batch']),
      objective: this.choiceAttribute('objective', this.presets.plan_objectives, A.objective.fallback),
      offload: Number(this.choiceAttribute('offload', A.offload.choices, A.offload.fallback)),
      software: this.choiceAttribute('software', this.presets.software, A.software.fallback),
      network: readNetwork(this), // your cluster's links (lib/model/network.js), or null: the preset's
    };
    if (this.inputs.network) {
      this.setNote('network', "Planned on your measured network (your nccl-tests fit), not the preset's links.");
    }
    const options = this.#options();
    const select = (key, label) =>
      selectControl({
        label,
        name: key,
        options: options[key],
        value: key === 'model' && typeof this.inputs.model !== 'string' ? IMPORTED : String(this.inputs[key]),
        onChange: (v) => this.change(key, v),
      });
    this.controls = {
      model: select('model', 'Model'),
      hardware: select('hardware', 'Accelerator'),
      gpus: select('gpus', 'GPUs in the cluster'),
      globalBatch: select('globalBatch', 'Global batch (sequences per step)'),
      offload: select('offload', 'Optimizer state on the host'),
      software: select('software', 'Software stack'),
      objective: select('objective', 'Rank by'),
    };
    for (const key of ['model', 'hardware', 'objective', 'software'])
      this.controls[key].element.classList.add('planner-wide');

    this.out = {
      progress: h('p', { class: 'planner-progress-text', 'data-out': 'progress' }),
      fill: h('div', { class: 'bar-fill' }),
      summary: h('p', { class: 'planner-summary', 'data-out': 'summary' }),
      best: h('p', { class: 'planner-best-text', 'data-out': 'best' }),
      point: h('p', { class: 'planner-readout', 'data-out': 'point' }),
      empty: h('p', { class: 'planner-empty', 'data-out': 'empty', hidden: true }),
      loaded: h('p', { class: 'planner-loaded', 'data-out': 'loaded', role: 'status', 'aria-live': 'polite' }),
    };
    this.plot = h('div', {
      class: 'planner-plot',
      tabindex: '0',
      role: 'application',
      'data-out': 'scatter',
      'aria-roledescription': 'scatter plot',
      'aria-describedby': 'planner-keys',
    });
    this.rows = h('tbody', {});
    const table = h(
      'table',
      { class: 'planner-table', 'data-out': 'table' },
      h(
        'caption',
        { class: 'planner-sr' },
        "The best configurations, ranked; each row's button loads it into the other figures.",
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map(([key, text]) => h('th', { scope: 'col', class: `col-${key}` }, text)),
        ),
      ),
      this.rows,
    );
    this.root = h(
      'div',
      { class: 'planner' },
      h(
        'div',
        { class: 'controls planner-controls' },
        Object.values(this.controls).map((c) => c.element),
      ),
      h(
        'div',
        { class: 'planner-status' },
        h('div', { class: 'bar planner-bar', role: 'presentation' }, this.out.fill),
        this.out.progress,
      ),
      h(
        'div',
        { class: 'planner-result' },
        this.out.best,
        h(
          'div',
          { class: 'planner-legend', 'aria-hidden': 'true' },
          h('span', { class: 'key fit' }, 'fits'),
          h('span', { class: 'key miss' }, 'does not fit'),
          h('span', { class: 'key pareto' }, 'Pareto front'),
          h('span', { class: 'key best' }, 'best'),
          h('span', { class: 'key limit' }, 'GPU memory'),
        ),
        this.plot,
        h(
          'p',
          { class: 'planner-sr', id: 'planner-keys' },
          'Arrow keys walk the configurations from the least memory ' +
            'to the most; Home and End jump to the ends; Escape leaves the points.',
        ),
        this.out.point,
        h('div', { class: 'planner-table-box' }, table, this.out.empty),
        this.out.loaded,
        this.out.summary,
      ),
    );
    body.append(this.root);

    this.pointIndex = -1;
    this.plot.addEventListener('pointermove', (e) => this.#hover(e));
    this.plot.addEventListener('pointerleave', () => this.#showPoint(-1));
    this.plot.addEventListener('keydown', (e) => this.#key(e));
    this.unwatchSize = watchSize(this.plot, () => {
      // repaints in the next frame (lib/size-watch.js)
      const width = Math.floor(this.plot.clientWidth);
      if (width && width !== this.plotWidth) {
        this.plotWidth = width;
        this.paintScatter();
      }
    });
    this.client = plannerClient((state) => this.heard(state));
    this.paintRows([]);
    this.search();
  }

  stop() {
    this.unwatchSize?.();
    this.client?.close();
  }

  /** The reader changed a control: a new search (which cancels the running one). */
  change(key, value) {
    const typed = key === 'model' && value === IMPORTED ? this.importedModel : value;
    const next = { ...this.inputs, [key]: NUMBER_INPUTS.includes(key) ? Number(typed) : typed };
    if (sameInputs(next, this.inputs)) return;
    this.inputs = next;
    this.search();
    this.stateChanged();
  }

  search() {
    this.request = planRequest(this.inputs);
    this.toggleAttribute('data-searching', true);
    this.client.search(this.request);
  }

  /** A message of the newest search: progress, its answer, or why it stopped. */
  heard(state) {
    if (state.phase === 'searching') {
      this.toggleAttribute('data-stale', Boolean(this.answer));
      this.out.fill.style.width = state.total ? `${Math.min(100, (100 * state.evaluated) / state.total)}%` : '0%';
      this.out.progress.textContent = progressText(state);
      return;
    }
    this.toggleAttribute('data-searching', false);
    if (state.phase === 'error') {
      this.out.fill.style.width = '0%';
      this.out.progress.textContent = this.answer
        ? 'The search stopped; the figure below is the last one that finished.'
        : 'The search stopped.';
      this.setNote('plan', planErrorText(state.error), 'warning');
      return;
    }
    if (state.phase !== 'done') return;
    this.clearNote('plan');
    this.toggleAttribute('data-stale', false);
    this.answer = state.answer;
    this.answered = { request: state.request, inputs: { ...this.inputs } };
    this.out.fill.style.width = '100%';
    this.out.progress.textContent = `Searched: ${state.answer.evaluated.toLocaleString('en-US')} configurations.`;
    this.paint();
  }

  /** The GPU's memory in bytes (the limit line), from the engine's presets. */
  capacity() {
    const hardware = this.answered?.inputs.hardware ?? this.inputs.hardware;
    return this.presets.hardware.find((x) => x.id === hardware).memory_bytes;
  }

  paint() {
    const a = this.answer;
    const capacity = this.capacity();
    const empty = emptyText(a, capacity);
    this.out.best.textContent = bestText(a, capacity) || empty;
    this.out.summary.textContent = summaryText(a);
    this.out.empty.hidden = !empty;
    this.out.empty.textContent = empty ?? '';
    this.paintRows(tableRows(a, capacity));
    this.loadedIndex = -1;
    this.out.loaded.textContent = a.results.length
      ? 'Choose a row to load its configuration into the other figures on this page.'
      : '';
    this.pointIndex = -1;
    this.paintScatter();
    this.announce(bestText(a, capacity) || empty);
    this.dataset.results = String(a.results.length);
  }

  /** TOP_K rows always (blank ones reserve their place), so the table keeps its height. */
  paintRows(rows) {
    this.rows.replaceChildren(
      ...Array.from({ length: TOP_K }, (_, i) => {
        const r = rows[i];
        if (!r)
          return h(
            'tr',
            { class: 'blank', 'aria-hidden': 'true' },
            COLUMNS.map(([key]) => h('td', { class: `col-${key}` }, '\u00a0')),
          );
        const how = `${r.schedule} · microbatch ${r.microbatch}${r.extras ? ` · ${r.extras}` : ''}`;
        return h(
          'tr',
          { 'data-rank': r.rank, class: r.fits === 'yes' ? 'fit' : 'miss', onclick: () => this.load(i) },
          h(
            'td',
            { class: 'col-rank' },
            h(
              'button',
              {
                type: 'button',
                class: 'planner-load',
                'aria-label': r.label,
                onclick: (e) => {
                  e.stopPropagation();
                  this.load(i);
                },
              },
              String(r.rank),
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'planner-export',
                name: 'planner-export',
                'aria-label': `Export rank ${r.rank} as a launcher's settings`,
                title: "Export as a launcher's settings",
                onclick: (e) => {
                  e.stopPropagation();
                  const what = this.#rowExport(i);
                  if (what) this.configTools?.openExport(what);
                },
              },
              '⤓',
            ),
          ),
          h(
            'td',
            { class: 'col-split' },
            h('span', { class: 'split' }, r.split),
            h('span', { class: 'how', title: how }, how),
          ),
          h('td', { class: 'col-mfu', 'data-value': String(this.answer.results[i].mfu) }, r.mfu),
          h('td', { class: 'col-step' }, r.stepTime),
          h('td', { class: 'col-memory' }, r.memory),
          h('td', { class: 'col-fits' }, r.fits),
        );
      }),
    );
  }

  paintScatter() {
    if (!this.answer) return;
    const width = this.plotWidth || Math.floor(this.plot.clientWidth) || 600;
    const height = Math.floor(this.plot.clientHeight) || 300;
    const capacity = this.capacity();
    this.layout = scatterLayout(this.answer, { width, height, capacity });
    this.scatter = drawScatter(this.layout, { width, height, label: scatterLabel(this.answer, capacity) });
    this.plot.setAttribute('aria-label', scatterLabel(this.answer, capacity));
    this.plot.replaceChildren(this.scatter.element);
    this.#showPoint(this.pointIndex);
  }

  /** Loads result `i` into every other figure on the page (through their link path), each told what it cannot show. */
  load(i) {
    const result = this.answer?.results[i];
    if (!result) return;
    const inputs = this.answered.inputs;
    if (typeof inputs.model !== 'string') {
      this.out.loaded.textContent =
        "An imported model cannot be loaded into the other figures: they run the engine's own models. Its row's " +
        "Export button writes it in a launcher's settings.";
      return;
    }
    const step = this.ask(stepRequestOf(inputs, result), 'load');
    if (!step) return;
    const plan = loadValues(inputs, result.parallel, step, result.precision ?? null);
    const loaded = [];
    for (const tag of TARGETS) {
      for (const el of document.querySelectorAll(tag)) {
        if (typeof el.loadState !== 'function') continue;
        el.loadState(plan[tag].values);
        el.setNote('planner', plan[tag].note, 'warning');
        loaded.push(figureOf(tag).title);
      }
    }
    this.loadedIndex = i;
    for (const row of this.rows.children) row.toggleAttribute('aria-current', Number(row.dataset.rank) === i + 1);
    const names = [...new Set(loaded)];
    this.out.loaded.textContent = names.length
      ? `Rank ${i + 1} is loaded into ${names.join(', ')} on this page; each says what it cannot show of it.`
      : 'There is no other figure on this page to load it into.';
    this.dispatchEvent(
      new CustomEvent('parascope-plan-loaded', { bubbles: true, detail: { rank: i + 1, parallel: result.parallel } }),
    );
  }

  #hover(event) {
    if (!this.layout) return;
    const box = this.plot.getBoundingClientRect();
    this.#showPoint(nearestPoint(this.layout.points, event.clientX - box.left, event.clientY - box.top));
  }

  #key(event) {
    const next = pointAfterKey(this.layout?.points.length ?? 0, this.pointIndex, event.key);
    if (next === undefined) return;
    event.preventDefault();
    this.pointIndex = next;
    this.#showPoint(next);
  }

  #showPoint(i) {
    const point = this.layout?.points[i] ?? null;
    this.scatter?.mark(point);
    this.out.point.textContent = point
      ? configurationText(point.entry, this.capacity())
      : 'Point at a configuration (or focus the plot and use the arrow keys) to read its split.';
    this.out.point.toggleAttribute('data-active', Boolean(point));
  }

  /** The inputs as attributes (permalinks, file names). */
  linkState() {
    if (this.inputs && typeof this.inputs.model !== 'string') return null; // an imported model is no attribute
    return this.inputs ? inputsAsAttributes(this.inputs) : null;
  }

  /** The model select's options with the imported model (if any) among them, and the other controls' options. */
  #options() {
    const options = controlOptions(this.presets, this.inputs);
    if (this.importedModel) options.model = [...options.model, [IMPORTED, modelLabel(this.importedModel)]];
    return options;
  }

  /** "Use my config" and "Export as…" in the tools row (lib/config-io-tools.js; their code loads on first use). */
  extraTools() {
    this.configTools ??= configTools(this, {
      importing: () => ({
        // A DeepSpeed config has no model: the planner's model, accelerator, GPUs and batch are config_import's base.
        base: {
          model: this.inputs.model,
          hardware: this.inputs.hardware,
          cluster: withNetwork({ gpus: this.inputs.gpus }, this.inputs.network),
          parallel: { global_batch: this.inputs.globalBatch },
        },
        keeps:
          'Used here: the model, the accelerator, the GPU count, the global batch and the software stack (when the ' +
          "config names one of the engine's); the planner searches the split itself.",
        needsStep: false,
        onUse: (request) => this.useImported(request),
      }),
      exporting: () => this.#rowExport(Math.max(0, this.loadedIndex ?? 0)),
    });
    return this.configTools.element;
  }

  /** Result `i` as the export panel takes it: its step request, file-name words and a title; null without one. */
  #rowExport(i) {
    const result = this.answer?.results[i];
    if (!result) return null;
    const inputs = this.answered.inputs;
    const r = tableRows(this.answer, this.capacity())[i];
    return {
      request: stepRequestOf(inputs, result),
      words: ['plan', `rank${i + 1}`, modelLabel(inputs.model, true), `${inputs.gpus}x${inputs.hardware}`],
      title:
        `Rank ${i + 1} (${r.split}, ${r.schedule}; costed for ${softwareLabel(inputs.software)}) in a launcher's ` +
        'settings (written by the engine):',
    };
  }

  /** Takes an imported run's model, accelerator, GPU count and global batch, and searches again. */
  useImported(request) {
    const next = importedInputs(this.inputs, request, this.presets);
    if (typeof next.model !== 'string') this.importedModel = next.model;
    this.inputs = next;
    const options = this.#options();
    for (const [key, c] of Object.entries(this.controls)) {
      const value = key === 'model' && typeof next.model !== 'string' ? IMPORTED : String(next[key]);
      c.input.replaceChildren(
        ...options[key].map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
      );
      c.input.value = value;
    }
    this.search();
    this.stateChanged();
  }

  /** What an export holds: the figure as drawn, the engine's plan answer, the ranked rows as a table. */
  exportFigure() {
    if (!this.inputs) return null;
    const i = this.answered?.inputs ?? this.inputs;
    const rows = this.answer ? tableRows(this.answer, this.capacity()) : [];
    return {
      title:
        `Plan: ${modelLabel(i.model)} on ${i.gpus} × ${i.hardware}, global batch ${i.globalBatch}, ` +
        `costed for ${softwareLabel(i.software)}`,
      words: ['plan', modelLabel(i.model, true), `${i.gpus}x${i.hardware}`, `gb${i.globalBatch}`, i.software],
      root: this.root,
      data: { request: this.answered?.request ?? this.request, response: this.answer ?? null },
      table: [
        ['rank', 'split', 'schedule', 'microbatch', 'extras', 'mfu', 'step time', 'memory per gpu', 'fits'],
        ...rows.map((r) => [r.rank, r.split, r.schedule, r.microbatch, r.extras, r.mfu, r.stepTime, r.memory, r.fits]),
      ],
    };
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopePlanner.stylesheet = sheet(new URL('./planner.css', import.meta.url));
customElements.define('parascope-planner', ParascopePlanner);
