// <parascope-run>: the whole run from one step. The reader's configuration (or a planner row) becomes days, expected
// failures, checkpoints, goodput, MFU × goodput, GPU-hours, energy and dollars, every number the engine's `run` op
// (engine/API.md), with sliders for the GPU count and the failure rate and the goodput curve over scale. Model in
// model/*.js; it runs on the planner's engine, the module that answers `run`.
import { numberControl, selectControl, sliderControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { grouped } from '../../lib/format.js';
import { EngineError, loadPlannerEngine } from '../../lib/engine.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { ATTRIBUTES as A } from './attributes.js';
import { goodputChart } from './goodput-chart.js';
import { curvePoints, curveSentence, neverFinishes } from './model/curve.js';
import { runErrorText } from './model/errors.js';
import { defaultsUsed, headline, wallParts, wallSentence } from './model/readout.js';
import { RATE_STEPS, rateAt, rateIndex, runRequest, scaleLadder } from './model/request.js';
import { readState, stateValues } from './model/state.js';

/** "1.97e-5" per GPU-hour -> "1 per 5.8 k GPU-days" style words: failures per 1,000 GPU-days (rate × 24,000). */
const perThousandDays = (rate) => `${Number((rate * 24_000).toPrecision(2))} per 1,000 GPU-days`;

class ParascopeRun extends ParascopeWidget {
  static engineLoader = loadPlannerEngine; // its ops are the planner module's (lib/widget-engine.js)
  /** <parascope-nccl>'s "use my cluster" loads its fitted links into this figure (lib/model/network.js). */
  static takesNetwork = true;

  setup(body) {
    this.presets = this.enginePresets();
    this.state = readState(this, A, this.presets);
    this.reference = this.referenceRate();
    this.ladder = scaleLadder(this.state);
    this.answers = new Map(); // GPU count -> answer (or null: refused), for the current non-scale settings
    this.build(body);
    this.refresh();
  }

  /** The engine's default failure rate (the answer's rate when none is given): the rate slider's 1×. */
  referenceRate() {
    try {
      return this.engine.call(runRequest({ ...this.state, failureRate: null })).failures.rate_per_gpu_hour;
    } catch {
      return 419 / (54 * 24 * 16_384); // only if even the default refuses: the engine's documented default's value
    }
  }

  build(body) {
    const s = this.state;
    this.controls = {
      scale: sliderControl({
        label: 'GPUs',
        name: 'gpus',
        value: 0,
        min: 0,
        max: 0,
        format: (i) => grouped(this.points?.[i]?.gpus ?? s.gpus),
        onInput: (i) => this.pickScale(i),
      }),
      rate: sliderControl({
        label: 'Failure rate',
        name: 'failure-rate',
        value: rateIndex(this.reference, s.failureRate),
        min: 0,
        max: RATE_STEPS.length - 1,
        format: (i) => `${perThousandDays(this.rateOf(i))} (${Number((2 ** RATE_STEPS[i]).toPrecision(2))}× Llama 3's)`,
        onInput: (i) => this.change({ failureRate: this.rateOf(i) }),
      }),
      mode: selectControl({
        label: 'Checkpoint writes',
        name: 'checkpoint-mode',
        value: s.checkpointMode,
        options: [
          ['sync', 'synchronous'],
          ['async', 'asynchronous'],
        ],
        onChange: (v) => this.change({ checkpointMode: v }),
      }),
      price: numberControl({
        label: 'Price',
        name: 'price',
        value: s.price ?? 2,
        min: 0,
        unit: '$ per GPU-hour',
        onChange: (v) => this.change({ price: v }),
      }),
    };
    this.out = {
      config: h('p', { class: 'run-config', 'data-out': 'config' }),
      facts: h('dl', { class: 'run-facts result', 'data-out': 'facts' }),
      bar: h('div', { class: 'run-bar', 'aria-hidden': 'true', 'data-out': 'bar' }),
      wall: h('p', { class: 'run-wall', 'data-out': 'wall', 'aria-live': 'polite' }),
      chart: h('div', { class: 'run-plot', 'data-out': 'chart' }),
      curve: h('p', { class: 'run-curve', 'data-out': 'curve' }),
      problem: h('p', { class: 'run-problem', 'data-out': 'problem', role: 'alert', hidden: true }),
      defaults: h('ul', { class: 'run-defaults', 'data-out': 'defaults' }),
    };
    const c = this.controls;
    this.root = h(
      'div',
      { class: 'run' },
      this.out.config,
      h('div', { class: 'controls' }, c.scale.element, c.rate.element, c.mode.element, c.price.element),
      this.out.problem,
      this.out.facts,
      this.out.bar,
      this.out.wall,
      h(
        'p',
        { class: 'run-legend' },
        ...['useful', 'checkpoint', 'failures'].map((k) =>
          h(
            'span',
            { class: `run-key ${k}` },
            { useful: 'training', checkpoint: 'checkpoint stalls', failures: 'lost to failures' }[k],
          ),
        ),
      ),
      h(
        'div',
        { class: 'run-stage' },
        this.out.chart,
        h(
          'p',
          { class: 'run-legend' },
          h('span', { class: 'run-key goodput' }, 'goodput'),
          h('span', { class: 'run-key effective-mfu' }, 'MFU × goodput'),
        ),
      ),
      this.out.curve,
      h(
        'details',
        { class: 'run-sources fold' },
        h('summary', {}, 'What the engine assumed, and from where'),
        this.out.defaults,
        h(
          'p',
          { class: 'formula' },
          'Interval: Young 1974, τ = √(2δM), and Daly 2006 (Eq. 37); each failure costs the restart plus half an ' +
            'interval of work; wall clock W = (useful + checkpoints) / (1 − loss/M), M the job’s mean time between ' +
            'failures; energy by the linear power model of Fan, Weber & Barroso 2007. engine/API.md, run.',
        ),
      ),
    );
    body.append(this.root);
  }

  stop() {
    clearTimeout(this.fillTimer);
    this.filling = null;
  }

  rateOf(i) {
    return rateAt(this.reference, i);
  }

  /** One `run` answer at `gpus` GPUs for the current settings: { gpus, answer, error } (answer null: refused). */
  askAt(gpus) {
    if (this.answers.has(gpus)) return this.answers.get(gpus);
    const asked = { gpus, answer: null, error: null };
    try {
      asked.answer = this.engine.call(runRequest(this.state, gpus));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      asked.error = err;
    }
    this.answers.set(gpus, asked);
    return asked;
  }

  change(patch) {
    Object.assign(this.state, patch);
    this.answers.clear();
    this.render(); // the count shown: one `run` call in the frame the reader waits for
    this.fillCurve();
    this.stateChanged();
  }

  /**
   * The ladder's other counts, one `run` call per task, then the curve and the scale slider (refresh): a move costs
   * its frame one call, not the ladder's nine. A newer change drops an older fill.
   */
  fillCurve() {
    clearTimeout(this.fillTimer);
    const fill = (this.filling = []);
    fill.push(...this.ladder.filter((gpus) => !this.answers.has(gpus)));
    this.root.setAttribute('data-curve-pending', ''); // until the curve is the settings' own (tests wait on it)
    const next = () => {
      if (this.filling !== fill) return;
      if (!fill.length) {
        this.filling = null;
        this.root.removeAttribute('data-curve-pending');
        this.refresh();
        return;
      }
      this.askAt(fill.shift());
      this.fillTimer = setTimeout(next, 0);
    };
    this.fillTimer = setTimeout(next, 0);
  }

  /** The scale slider moved to answered point `i`: its answer is already here, only the readout changes. */
  pickScale(i) {
    const p = this.points[i];
    if (!p || p.gpus === this.state.gpus) return;
    this.state.gpus = p.gpus;
    this.render();
    this.stateChanged();
  }

  /** Asks the engine for every count of the ladder (the current one included), then draws. */
  refresh() {
    this.asked = this.ladder.map((gpus) => this.askAt(gpus));
    this.points = curvePoints(this.asked);
    const at = this.points.findIndex((p) => p.gpus === this.state.gpus);
    const scale = this.controls.scale;
    scale.input.max = String(Math.max(0, this.points.length - 1));
    scale.input.disabled = this.points.length < 2;
    scale.set(Math.max(0, at));
    this.render();
  }

  render() {
    const s = this.state;
    const { answer: a, error } = this.askAt(s.gpus);
    this.refusal = error;
    this.out.config.textContent = configText(this.presets, s);
    this.out.problem.hidden = Boolean(a);
    this.root.toggleAttribute('data-refused', !a);
    if (!a) {
      this.out.problem.textContent = runErrorText(this.refusal);
      this.out.problem.dataset.code = this.refusal?.code ?? '';
      this.announce(this.out.problem.textContent);
    }
    this.answer = a;
    this.drawFacts(a);
    this.drawCurve();
    if (a) this.announce(`${this.out.wall.textContent}`);
  }

  drawFacts(a) {
    const rows = a ? headline(a) : [];
    this.out.facts.replaceChildren(
      ...rows.map((r) =>
        h(
          'div',
          { class: 'run-fact', 'data-key': r.key },
          h('dt', {}, r.label),
          h(
            'dd',
            { 'data-value': r.value, 'data-out': r.key },
            // a non-breaking space before the unit: "every 4.17 min" may wrap before its number, never before "min"
            h('span', { class: 'big' }, r.text.replace(/ (?=\S+$)/, '\u00a0')),
            h('span', { class: 'run-note' }, r.note),
          ),
        ),
      ),
    );
    this.out.bar.replaceChildren(
      ...(a ? wallParts(a) : []).map((p) =>
        h('span', { class: `run-part ${p.key}`, 'data-share': p.share, style: null, 'data-key': p.key }),
      ),
    );
    // widths through CSSOM, not a style attribute (the page's CSP may forbid inline styles)
    for (const part of this.out.bar.children) part.style.flexGrow = String(Number(part.dataset.share));
    this.out.wall.textContent = a ? wallSentence(a) : '';
    this.out.defaults.replaceChildren(
      ...(a ? defaultsUsed(a) : []).map(([field, source]) => h('li', {}, h('code', {}, field), ': ', source)),
    );
  }

  drawCurve() {
    if (!this.points.length) {
      this.out.chart.replaceChildren();
      this.out.curve.textContent = 'The engine answered none of these GPU counts, so there is no curve to draw.';
      return;
    }
    const chart = goodputChart(this.points, this.state.gpus, 'Goodput and MFU × goodput against the GPU count');
    this.out.chart.replaceChildren(chart.element);
    this.out.curve.textContent = curveSentence(this.points, neverFinishes(this.asked));
  }

  linkState() {
    return this.state ? stateValues(this.state) : null;
  }

  exportFigure() {
    if (!this.root) return null;
    const s = this.state;
    const a = this.answer;
    return {
      title: `The whole run: ${configText(this.presets, s)}`,
      words: [s.model, `${s.gpus}gpus`, s.hardware], // after "parascope-run-" (lib/export-figure.js)
      root: this.root,
      data: { request: runRequest(s), response: a, curve: this.points },
      table: [
        ['quantity', 'value', 'unit'],
        ...(a ? headline(a).map((r) => [r.label, r.value, unitOf(r.key)]) : []),
        [],
        ['gpus', 'goodput', 'MFU × goodput', 'wall clock (days)', 'expected failures'],
        ...this.points.map((p) => [p.gpus, p.goodput, p.effectiveMfu, p.days, p.failures]),
      ],
    };
  }
}

/** The unit of each headline value as exported. */
function unitOf(key) {
  return {
    days: 'days',
    failures: 'failures',
    checkpoint: 's',
    goodput: 'fraction',
    'effective-mfu': 'fraction',
    'gpu-hours': 'GPU-hours',
    energy: 'MWh',
    cost: '$',
  }[key];
}

/** "Llama 3 405B on 16,384 H100 SXM, tp 8 · pp 16 · dp 128, 15.6 T tokens". */
function configText(presets, s) {
  const model = presets.models.find((m) => m.id === s.model)?.name ?? s.model;
  const hw = presets.hardware.find((x) => x.id === s.hardware)?.name ?? s.hardware;
  const dp = s.gpus / (s.tp * s.pp * s.cp);
  const split = [
    `tp ${s.tp}`,
    `pp ${s.pp}`,
    s.cp > 1 ? `cp ${s.cp}` : '',
    s.ep > 1 ? `ep ${s.ep}` : '',
    Number.isInteger(dp) ? `dp ${dp}` : '',
  ];
  const tokens =
    s.tokens >= 1e12 ? `${Number((s.tokens / 1e12).toPrecision(3))} T` : `${Number((s.tokens / 1e9).toPrecision(3))} B`;
  const own = s.interBandwidth || s.intraBandwidth ? ', on your measured network' : '';
  return `${model} on ${grouped(s.gpus)} × ${hw}, ${split.filter(Boolean).join(' · ')}, ${tokens} tokens${own}.`;
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeRun.stylesheet = sheet(new URL('./run.css', import.meta.url));
customElements.define('parascope-run', ParascopeRun);
