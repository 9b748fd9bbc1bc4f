// <parascope-ring>: the ring all-reduce chunk by chunk, round by round, with what it costs on a real link and at scale.
// State logic and text live in model/*.js; this file binds the controls and paints.
import { selectControl, sliderControl, stepButtons } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { chipChoices } from '../../lib/model/engine-lists.js';
import { bytes as formatBytes, grouped, seconds } from '../../lib/format.js';
import { logLogChart } from './log-chart.js';
import { ringLink } from './model/link.js';
import { ringChartText, ringReadout } from './model/readout.js';
import { ALGORITHMS, CHART_GPUS, chartRequests, readoutRequest } from './model/requests.js';
import { ringRound } from './model/round.js';
import { chunkColour, ringFigure } from './figure.js';
import { ATTRIBUTES as A } from './attributes.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';

/** This element's attributes: ranges and defaults (lib/model/attributes.js, the one list the guide shows). */
const SIZES = [2 ** 20, 2 ** 24, 2 ** 28, 2 ** 30, 2 ** 34];
const SPEEDS = [
  ['0.5', '0.5×'],
  ['1', '1×'],
  ['2', '2×'],
  ['4', '4×'],
];
const ROUND_MS = 900; // one round's travel time at 1×
const MAX_GPUS = A.gpus.max;

class ParascopeRing extends ParascopeWidget {
  setup(body) {
    const presets = this.enginePresets();
    this.hardware = new Map(presets.hardware.map((x) => [x.id, x]));
    this.state = {
      gpus: this.intAttribute('gpus', A.gpus),
      hardware: this.choiceAttribute('hardware', [...this.hardware.keys()], A.hardware.fallback),
      link: this.choiceAttribute('link', A.link.choices, A.link.fallback), // the reader's choice; see ringLink
      bytes: this.numberAttribute('bytes', A.bytes),
      speed: 1,
      round: 0,
      watch: 0,
      playing: false,
    };
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

    const sizes = SIZES.includes(this.state.bytes) ? SIZES : [...SIZES, this.state.bytes].sort((a, b) => a - b);
    this.linkControl = selectControl({
      label: 'Link',
      name: 'link',
      value: this.state.link,
      options: [],
      onChange: (v) => this.change({ link: v }),
    });
    this.linkControl.element.classList.add('ring-link');
    this.linkLabel = this.linkControl.element.querySelector('.label');
    const controls = h(
      'div',
      { class: 'controls' },
      sliderControl({
        label: 'GPUs on the ring',
        name: 'gpus',
        value: this.state.gpus,
        min: 2,
        max: MAX_GPUS,
        onInput: (v) => this.change({ gpus: v }),
      }).element,
      selectControl({
        label: 'Array per GPU (bytes)',
        name: 'bytes',
        value: String(this.state.bytes),
        options: sizes.map((s) => [String(s), formatBytes(s)]),
        onChange: (v) => this.change({ bytes: Number(v) }),
      }).element,
      selectControl({
        label: 'Accelerator',
        name: 'hardware',
        value: this.state.hardware,
        options: chipChoices(presets),
        onChange: (v) => this.change({ hardware: v }),
      }).element,
      this.linkControl.element,
    );

    this.status = h('p', { class: 'ring-status', 'aria-live': 'polite', 'data-out': 'status' });
    this.buttons = stepButtons({
      start: () => this.go(0),
      back: () => this.back(),
      toggle: () => this.toggle(),
      forward: () => this.forward(),
    });
    const speed = selectControl({
      label: 'Speed',
      name: 'speed',
      value: '1',
      options: SPEEDS,
      onChange: (v) => {
        this.state.speed = Number(v);
      },
    });
    // The figure is the round slider: ← → step, Home / End jump, space plays.
    this.figureBox = h('div', {
      class: 'ring-figure',
      tabindex: '0',
      role: 'slider',
      'aria-valuemin': '0',
      'aria-keyshortcuts': 'ArrowLeft ArrowRight Home End Space',
    });
    this.watchSelect = h('select', { name: 'watch', onchange: () => this.watch(Number(this.watchSelect.value)) });
    this.strip = h('div', { class: 'ring-strip-cells', 'data-out': 'strip' });
    this.stripNote = h('span', { class: 'ring-strip-note' });
    this.stage = h(
      'div',
      { class: 'ring-stage' },
      this.status,
      this.figureBox,
      h(
        'div',
        { class: 'ring-strip' },
        h('label', { class: 'ring-strip-title' }, 'Numbers held by ', this.watchSelect, this.stripNote),
        this.strip,
      ),
      h('div', { class: 'ring-transport' }, ...Object.values(this.buttons), speed.element),
      h(
        'p',
        { class: 'ring-legend' },
        h('span', { class: 'ring-key added' }, 'adds the chunk it received'),
        ' ',
        h('span', { class: 'ring-key copied' }, 'copies the finished chunk'),
        ' ',
        h('span', { class: 'ring-key done' }, 'holds the full sum'),
      ),
    );
    this.stage.addEventListener('keydown', (e) => this.key(e));

    this.out = {
      summary: h('p', { class: 'ring-summary', 'aria-live': 'polite', 'data-out': 'summary' }),
      linkName: h('dd', { 'data-out': 'link' }),
      speed: h('dd', { 'data-out': 'speed' }),
      placement: h('dd', { 'data-out': 'placement' }),
      wire: h('dd', { 'data-out': 'bytes-per-gpu' }),
      time: h('dd', { 'data-out': 'time' }),
      algbw: h('dd', { 'data-out': 'algbw' }),
      busbw: h('dd', { 'data-out': 'busbw' }),
      steps: h('dd', { 'data-out': 'steps' }),
      formula: h('p', { class: 'formula', 'data-out': 'formula' }),
      chart: h('div', { class: 'ring-chart', 'data-out': 'chart' }),
      chartNote: h('p', { class: 'formula', 'data-out': 'chart-note' }),
    };
    const side = h(
      'div',
      { class: 'ring-side result' },
      this.out.summary,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Link'),
        this.out.linkName,
        h('dt', {}, 'Speed'),
        this.out.speed,
        h('dt', {}, 'Placement'),
        this.out.placement,
        h('dt', {}, 'Time'),
        this.out.time,
        h('dt', {}, 'Sent per GPU'),
        this.out.wire,
        h('dt', {}, 'algbw'),
        this.out.algbw,
        h('dt', {}, 'busbw'),
        this.out.busbw,
        h('dt', {}, 'Latency steps'),
        this.out.steps,
      ),
      this.out.formula,
      h(
        'p',
        { class: 'formula' },
        'Times in the α-β model; algbw is the array over the time, busbw the figure nccl-tests reports.',
      ),
      h('p', { class: 'ring-chart-title' }, 'Time per all-reduce as the cluster grows'),
      this.out.chart,
      h('p', { class: 'chart-legend' }, ...ALGORITHMS.map((a) => h('span', { class: `chart-key series-${a}` }, a))),
      this.out.chartNote,
    );

    this.root = h('div', { class: 'ring' }, controls, h('div', { class: 'ring-layout' }, this.stage, side));
    body.append(this.root);
    this.rebuild();
  }

  stop() {
    this.pause();
    this.figure?.cancel();
  }

  get hw() {
    return this.hardware.get(this.state.hardware);
  }

  /** The link menu for the current GPU count: "inside one node" disabled beyond the node size, said beside it; the
   *  label names the link the ring runs on (the menu says where, so it shows whole at 360 px). */
  refreshLink() {
    const { link, name, options, hint } = ringLink(this.hw, this.state.gpus, this.state.link);
    this.linkControl.input.replaceChildren(
      ...options.map((o) =>
        h('option', { value: o.value, selected: o.value === link, disabled: o.disabled, title: o.title }, o.label),
      ),
    );
    this.linkControl.input.value = link;
    this.linkLabel.textContent = `Link: ${name}`;
    this.linkControl.hint(hint);
  }

  change(patch) {
    const resize = 'gpus' in patch && patch.gpus !== this.state.gpus;
    Object.assign(this.state, patch);
    if (resize) this.rebuild();
    else this.updateCost();
    this.stateChanged();
  }

  /** What an export holds: the figure as drawn, the engine's answer for this ring and the chart's points. */
  exportFigure() {
    if (!this.readout) return null;
    const { gpus, hardware, bytes } = this.state;
    const { link } = ringLink(this.hw, gpus, this.state.link); // the link the ring runs on, as drawn
    const chart = [
      ['algorithm', 'GPUs', 'time per all-reduce (s)'],
      ...(this.chartData ?? []).flatMap((series) => series.points.map((p) => [series.name, p.x, p.y])),
    ];
    return {
      title: `Ring all-reduce of ${formatBytes(bytes)} per GPU over ${gpus} × ${this.hw.name}: ${this.out.time.textContent}`,
      words: [`${gpus}gpus`, hardware, link, formatBytes(bytes).replace(/\s+/g, '')],
      root: this.root,
      data: { request: readoutRequest(this.hw, this.state, true), response: this.readout, chart: chart.slice(1) },
      table: [
        ['field', 'value'],
        ...Object.entries(this.readout)
          .filter(([k]) => !['rounds', 'initial'].includes(k))
          .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v]),
        [],
        ...chart,
      ],
    };
  }

  /** The ring as attributes (permalinks, file names): the link is the reader's choice, as in the menu. */
  linkState() {
    if (!this.state) return null;
    const { gpus, hardware, link, bytes } = this.state;
    return { gpus, hardware, link, bytes };
  }

  /** A new ring: ask the engine for the traced all-reduce and draw it at round 0. */
  rebuild() {
    this.pause();
    this.figure?.cancel();
    const { gpus } = this.state;
    this.state.watch = Math.min(this.state.watch, gpus - 1);
    this.watchSelect.replaceChildren(
      ...Array.from({ length: gpus }, (_, g) =>
        h('option', { value: g, selected: g === this.state.watch }, `GPU ${g}`),
      ),
    );
    const r = this.ask(readoutRequest(this.hw, this.state, true));
    this.toggleAttribute('data-stale', r === null);
    if (!r) return;
    this.trace = r; // the buffers depend on N only: a change of link or array size keeps the round
    const final = r.rounds[r.rounds.length - 1].buffers;
    this.figure = ringFigure(gpus, Math.max(...final.flat()), { onPick: (g) => this.watch(g) });
    this.figure.element.setAttribute('aria-hidden', 'true'); // the slider around it speaks for it
    this.figureBox.replaceChildren(this.figure.element);
    this.figureBox.setAttribute('aria-valuemax', String(r.rounds.length));
    this.figureBox.dataset.layout = this.figure.layout.kind;
    this.state.round = 0;
    this.render();
    this.updateCost(r);
  }

  /** The cost panel and the chart, both from the link the ring really uses. */
  updateCost(answer) {
    this.refreshLink();
    const r = answer ?? this.ask(readoutRequest(this.hw, this.state, true));
    this.toggleAttribute('data-stale', r === null);
    if (!r) return;
    this.readout = r;
    this.stripNote.textContent = `(${this.state.gpus} chunks of ${formatBytes(r.chunk_bytes)} each)`;
    const text = ringReadout(this.hw, this.state, r);
    this.out.summary.textContent = text.summary;
    this.out.linkName.textContent = text.link;
    this.out.linkName.dataset.kind = ringLink(this.hw, this.state.gpus, this.state.link).link;
    this.out.speed.textContent = text.speed;
    this.out.placement.textContent = text.placement;
    this.out.wire.textContent = text.sent;
    this.out.wire.dataset.value = String(r.bytes_sent_per_gpu);
    this.out.time.textContent = text.time;
    this.out.time.dataset.value = String(r.time);
    this.out.algbw.textContent = text.algbw;
    this.out.busbw.textContent = text.busbw;
    this.out.busbw.dataset.value = String(r.busbw);
    this.out.steps.textContent = text.steps;
    this.out.formula.textContent = text.formula;
    this.updateChart({ gpus: this.state.gpus, time: r.time });
  }

  /** Ring, tree and hierarchical time for N = 2 .. 16,384 (one engine request per point), this ring marked. */
  updateChart(marker) {
    const key = JSON.stringify([this.state.hardware, this.state.bytes, this.state.link]);
    if (this.chartKey !== key) {
      const series = ALGORITHMS.map((name) => ({ name, className: `series-${name}`, points: [] }));
      for (const { algorithm, gpus, dot, request } of chartRequests(this.hw, this.state)) {
        const r = this.ask(request, 'chart');
        if (!r) return;
        series[ALGORITHMS.indexOf(algorithm)].points.push({ x: gpus, y: r.time, dot });
      }
      this.chartData = series;
      this.chartKey = key;
    }
    const text = ringChartText(this.hw, this.state, marker);
    this.out.chart.replaceChildren(
      logLogChart({
        series: this.chartData,
        xTicks: [2, 16, 128, 1024, CHART_GPUS[CHART_GPUS.length - 1]],
        format: { x: (v) => grouped(v), y: seconds },
        marker: { x: marker.gpus, y: marker.time },
        label: text.label,
        xTitle: 'GPUs (log scale)',
      }),
    );
    this.out.chartNote.textContent = text.note;
  }

  get rounds() {
    return this.trace ? this.trace.rounds.length : 0;
  }

  watch(g) {
    this.state.watch = g;
    this.watchSelect.value = String(g);
    this.render();
  }

  /** Draws the buffers after `round` completed rounds, the watched GPU's numbers, and the text describing them. */
  render() {
    const view = ringRound(this.trace, this.state.round);
    const w = this.state.watch;
    this.figure.show(view, w);
    this.strip.replaceChildren(
      ...view.buffers[w].map((value, c) => {
        const done = value === view.final[w][c];
        const how = view.changed[`${w},${c}`];
        const cell = h(
          'span',
          {
            class: `ring-strip-cell${done ? ' done' : ''}${how === 'add' ? ' added' : ''}${how === 'copy' ? ' copied' : ''}`,
            'data-chunk': c,
            title: `chunk ${c}`,
          },
          String(value),
        );
        cell.style.setProperty('--chunk', chunkColour(c, this.state.gpus, done));
        return cell;
      }),
    );
    this.status.textContent = view.status;
    this.status.dataset.round = String(view.round);
    this.status.dataset.phase = view.phase;
    this.figureBox.setAttribute('aria-valuenow', String(view.round));
    this.figureBox.setAttribute('aria-valuetext', view.label);
    this.figureBox.setAttribute('aria-label', `Round of the ring all-reduce of ${this.state.gpus} GPUs`);
    this.figure.element.setAttribute('aria-label', view.label);
    this.buttons.back.disabled = view.round === 0;
    this.buttons.reset.disabled = view.round === 0;
    this.buttons.forward.disabled = view.round === view.rounds;
  }

  go(round) {
    this.figure.cancel();
    this.state.round = Math.max(0, Math.min(this.rounds, round));
    if (this.state.round === this.rounds) this.pause();
    this.render();
  }

  back() {
    this.pause();
    this.go(this.state.round - 1);
  }

  /** One round forward: the chunks travel (unless motion is reduced), then the receivers update. */
  async forward() {
    const k = this.state.round;
    if (k >= this.rounds) return;
    if (this.reducedMotion.matches) {
      this.go(k + 1);
      return;
    }
    const before = k === 0 ? this.trace.initial : this.trace.rounds[k - 1].buffers;
    this.moving = true;
    const arrived = await this.figure.animate(this.trace.rounds[k], before, ROUND_MS / this.state.speed);
    this.moving = false;
    if (arrived && this.state.round === k) this.go(k + 1);
  }

  toggle() {
    if (this.state.playing) this.pause();
    else this.play();
  }

  async play() {
    if (this.state.round >= this.rounds) this.go(0);
    this.state.playing = true;
    this.buttons.play.textContent = '❚❚ Pause';
    this.buttons.play.setAttribute('aria-pressed', 'true');
    const token = (this.playToken = (this.playToken ?? 0) + 1); // a later play() retires this loop
    const live = () => this.state.playing && token === this.playToken;
    while (live() && this.state.round < this.rounds) {
      if (!this.moving) await this.forward();
      if (!live()) return;
      await new Promise((resolve) => {
        this.timer = setTimeout(resolve, (this.reducedMotion.matches ? ROUND_MS : 250) / this.state.speed);
      });
    }
    if (live()) this.pause();
  }

  pause() {
    clearTimeout(this.timer);
    if (!this.state?.playing) return;
    this.state.playing = false;
    this.buttons.play.textContent = '▶ Play';
    this.buttons.play.setAttribute('aria-pressed', 'false');
  }

  key(e) {
    if (e.target instanceof HTMLSelectElement) return; // menus keep their own keys
    const onButton = e.target instanceof HTMLButtonElement;
    if (e.key === 'ArrowRight' || e.key === 'ArrowUp') {
      this.pause();
      if (this.moving) this.go(this.state.round + 1);
      else this.forward();
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') {
      this.back();
    } else if (e.key === ' ' && !onButton) {
      this.toggle();
    } else if (e.key === 'Home') {
      this.pause();
      this.go(0);
    } else if (e.key === 'End') {
      this.pause();
      this.go(this.rounds);
    } else {
      return;
    }
    e.preventDefault();
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeRing.stylesheet = sheet(new URL('./ring.css', import.meta.url));
customElements.define('parascope-ring', ParascopeRing);
