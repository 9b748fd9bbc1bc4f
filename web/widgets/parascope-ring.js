// <parascope-ring>: the ring all-reduce chunk by chunk, round by round, with what it costs on a real link and at scale.
import { selectControl, sliderControl } from '../lib/controls.js';
import { h } from '../lib/dom.js';
import { bytes as formatBytes, seconds, si } from '../lib/format.js';
import { logLogChart } from '../lib/log-chart.js';
import { ringFigure } from '../lib/ring-figure.js';
import { ParascopeWidget } from '../lib/widget.js';

const DEFAULTS = { gpus: 4, hardware: 'h100-sxm', link: 'intra', bytes: 2 ** 30 };
const SIZES = [2 ** 20, 2 ** 24, 2 ** 28, 2 ** 30, 2 ** 34];
const SPEEDS = [['0.5', '0.5×'], ['1', '1×'], ['2', '2×'], ['4', '4×']];
const ROUND_MS = 900; // one round's travel time at 1×
const CHART_GPUS = Array.from({ length: 14 }, (_, i) => 2 ** (i + 1)); // 2 .. 16,384
const ALGORITHMS = [['ring', 'ring'], ['tree', 'tree'], ['hierarchical', 'hierarchical']];

class ParascopeRing extends ParascopeWidget {
  setup(body) {
    const presets = this.ask({ op: 'presets' });
    this.hardware = new Map(presets.hardware.map((x) => [x.id, x]));
    this.state = {
      gpus: this.intAttribute('gpus', { min: 2, max: 16, fallback: DEFAULTS.gpus }),
      hardware: this.choiceAttribute('hardware', [...this.hardware.keys()], DEFAULTS.hardware),
      link: this.choiceAttribute('link', ['intra', 'inter'], DEFAULTS.link),
      bytes: this.numberAttribute('bytes', { max: 1e18, fallback: DEFAULTS.bytes }),
      speed: 1,
      round: 0,
      playing: false,
    };
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

    const sizes = SIZES.includes(this.state.bytes) ? SIZES : [...SIZES, this.state.bytes].sort((a, b) => a - b);
    this.linkSelect = selectControl({ label: 'Link', name: 'link', value: this.state.link, options: this.linkOptions(),
      onChange: (v) => this.change({ link: v }) });
    const controls = h('div', { class: 'controls' },
      sliderControl({ label: 'GPUs on the ring', name: 'gpus', value: this.state.gpus, min: 2, max: 16,
        onInput: (v) => this.change({ gpus: v }) }).element,
      selectControl({ label: 'Accelerator', name: 'hardware', value: this.state.hardware,
        options: presets.hardware.map((x) => [x.id, x.name]),
        onChange: (v) => { this.change({ hardware: v }); this.refreshLinkOptions(); } }).element,
      this.linkSelect.element,
      selectControl({ label: 'Array per GPU', name: 'bytes', value: String(this.state.bytes),
        options: sizes.map((s) => [String(s), formatBytes(s)]), onChange: (v) => this.change({ bytes: Number(v) }) }).element);

    this.status = h('p', { class: 'ring-status', 'aria-live': 'polite', 'data-out': 'status' });
    this.buttons = {
      reset: h('button', { type: 'button', name: 'reset', onclick: () => this.go(0) }, '↺ Start'),
      back: h('button', { type: 'button', name: 'back', onclick: () => this.back() }, '◀ Back'),
      play: h('button', { type: 'button', name: 'play', 'aria-pressed': 'false', onclick: () => this.toggle() }, '▶ Play'),
      forward: h('button', { type: 'button', name: 'forward', onclick: () => this.forward() }, 'Step ▶'),
    };
    const speed = selectControl({ label: 'Speed', name: 'speed', value: '1', options: SPEEDS,
      onChange: (v) => { this.state.speed = Number(v); } });
    this.figureBox = h('div', { class: 'ring-figure' });
    this.stage = h('div', { class: 'ring-stage', tabindex: '0',
      'aria-label': 'Ring all-reduce. Left and right arrows step through the rounds, space plays or pauses.' },
      this.status, this.figureBox,
      h('div', { class: 'ring-transport' }, ...Object.values(this.buttons), speed.element),
      h('p', { class: 'ring-legend' },
        h('span', { class: 'ring-key added' }, 'adds the chunk it received'), ' ',
        h('span', { class: 'ring-key copied' }, 'copies the finished chunk'), ' ',
        h('span', { class: 'ring-key done' }, 'holds the full sum')));
    this.stage.addEventListener('keydown', (e) => this.key(e));

    this.out = {
      wire: h('dd', { 'data-out': 'bytes-per-gpu' }),
      time: h('dd', { 'data-out': 'time' }),
      algbw: h('dd', { 'data-out': 'algbw' }),
      busbw: h('dd', { 'data-out': 'busbw' }),
      linkName: h('dd', { 'data-out': 'link' }),
      steps: h('dd', { 'data-out': 'steps' }),
      formula: h('p', { class: 'formula', 'data-out': 'formula' }),
      chart: h('div', { class: 'ring-chart', 'data-out': 'chart' }),
      chartNote: h('p', { class: 'formula' }),
    };
    const side = h('div', { class: 'ring-side result' },
      h('div', {},
        h('dl', { class: 'facts' },
          h('dt', {}, 'Link'), this.out.linkName,
          h('dt', {}, 'Sent by each GPU'), this.out.wire,
          h('dt', {}, 'Time (α-β model)'), this.out.time,
          h('dt', {}, 'algbw (S / time)'), this.out.algbw,
          h('dt', {}, 'busbw (nccl-tests)'), this.out.busbw,
          h('dt', {}, 'Latency steps'), this.out.steps),
        this.out.formula),
      h('div', {},
        h('p', { class: 'ring-chart-title' }, 'All-reduce time as the cluster grows'),
        this.out.chart, this.out.chartNote));

    this.layout = h('div', { class: 'ring-layout' }, this.stage, side);
    body.append(h('div', { class: 'ring' }, controls, this.layout));
    this.rebuild();
  }

  stop() {
    this.pause();
    this.figure?.cancel();
  }

  linkOptions() {
    const hw = this.hardware.get(this.state.hardware);
    return [['intra', `${hw.intra_link} (inside a node)`], ['inter', `${hw.inter_link} (between nodes)`]];
  }

  refreshLinkOptions() {
    const select = this.linkSelect.input;
    select.replaceChildren(...this.linkOptions().map(([v, text]) => h('option', { value: v, selected: v === this.state.link }, text)));
  }

  change(patch) {
    const resize = 'gpus' in patch && patch.gpus !== this.state.gpus;
    Object.assign(this.state, patch);
    if (resize) this.rebuild();
    else this.updateCost();
    if (!('gpus' in patch)) this.updateChart();
  }

  /** A new ring: ask the engine for the traced all-reduce and draw it at round 0. */
  rebuild() {
    this.pause();
    this.figure?.cancel();
    const { gpus } = this.state;
    const r = this.ask(this.request(gpus, true));
    this.toggleAttribute('data-stale', r === null);
    if (!r) return;
    this.trace = r;
    this.final = r.rounds.length ? r.rounds[r.rounds.length - 1].buffers : r.initial;
    this.figure = ringFigure(gpus);
    this.figureBox.replaceChildren(this.figure.element);
    this.layout.classList.toggle('many', gpus > 8); // a big ring takes the full width, the numbers go below
    this.state.round = 0;
    this.render();
    this.showCost(r);
    this.updateChart();
  }

  request(gpus, trace) {
    const { hardware, link, bytes } = this.state;
    return { op: 'allreduce', algorithm: 'ring', gpus, bytes, link: hardware, link_kind: link, ...(trace ? { trace } : {}) };
  }

  updateCost() {
    const r = this.ask(this.request(this.state.gpus, false));
    this.toggleAttribute('data-stale', r === null);
    if (r) this.showCost(r);
  }

  showCost(r) {
    this.out.linkName.textContent = `${r.link.name}: ${si(r.link.bandwidth, 'B/s')} one way, ${seconds(r.link.latency)} per step`;
    this.out.wire.textContent = formatBytes(r.bytes_sent_per_gpu);
    this.out.wire.dataset.value = String(r.bytes_sent_per_gpu);
    this.out.time.textContent = seconds(r.time);
    this.out.time.dataset.value = String(r.time);
    this.out.algbw.textContent = si(r.algbw, 'B/s');
    this.out.busbw.textContent = si(r.busbw, 'B/s');
    this.out.busbw.dataset.value = String(r.busbw);
    this.out.steps.textContent = String(r.steps);
    this.out.formula.textContent = r.formula;
  }

  /** Ring, tree and hierarchical time for N = 2 .. 16,384: one engine request per point. */
  updateChart() {
    const { hardware, bytes } = this.state;
    const perNode = this.hardware.get(hardware).gpus_per_node || 8;
    const key = `${hardware} ${bytes}`; // the curves do not depend on the ring's N: only the marker moves
    if (this.chartKey !== key) {
      const series = [];
      for (const [algorithm, name] of ALGORITHMS) {
        const points = [];
        for (const gpus of CHART_GPUS) {
          // A flat ring or tree that spans nodes is held to the network's pace; inside one node it uses the intra link.
          const where = algorithm === 'hierarchical' ? { link: hardware }
            : { link: hardware, link_kind: gpus <= perNode ? 'intra' : 'inter' };
          const r = this.ask({ op: 'allreduce', algorithm, gpus, bytes, ...where }, 'chart');
          if (!r) return;
          points.push({ x: gpus, y: r.time });
        }
        series.push({ name, className: `series-${algorithm}`, points });
      }
      this.chartData = series;
      this.chartKey = key;
    }
    const series = this.chartData;
    this.out.chart.replaceChildren(logLogChart({
      series,
      xTicks: [2, 16, 128, 1024, 16384],
      format: { x: (v) => v.toLocaleString('en-US'), y: seconds },
      marker: { x: this.state.gpus },
      label: `All-reduce time of ${formatBytes(bytes)} per GPU against GPU count, ring, tree and hierarchical`,
    }));
    this.out.chart.append(h('p', { class: 'chart-legend' }, ...ALGORITHMS.map(([a, name]) =>
      h('span', { class: `chart-key series-${a}` }, name))));
    this.out.chartNote.textContent = `Up to ${perNode} GPUs everything runs inside one node; beyond, flat ring and tree ` +
      `run at the network's pace while hierarchical keeps ${perNode}-GPU steps on the node's own link.`;
  }

  get rounds() {
    return this.trace ? this.trace.rounds.length : 0;
  }

  /** Draws the buffers after `round` completed rounds, marking the cells the last round changed. */
  render() {
    const k = this.state.round;
    const n = this.state.gpus;
    const buffers = k === 0 ? this.trace.initial : this.trace.rounds[k - 1].buffers;
    const changed = {};
    if (k > 0) {
      const last = this.trace.rounds[k - 1];
      for (const t of last.transfers) changed[`${t.to},${t.chunk}`] = last.phase === 'scatter-reduce' ? 'add' : 'copy';
    }
    this.figure.show(buffers, this.final, changed);
    const half = n - 1;
    let text;
    if (k === 0) text = `Start: each GPU holds its own array, cut into ${n} chunks. ${this.rounds} rounds to go.`;
    else if (k <= half) text = `scatter-reduce, round ${k} of ${half}`;
    else text = `all-gather, round ${k - half} of ${half}`;
    if (k === this.rounds && k > 0) text += ': done, every GPU holds the full sum';
    else if (k === half) text += ': every GPU now holds one complete sum, a different chunk each';
    this.status.textContent = text;
    this.status.dataset.round = String(k);
    this.status.dataset.phase = k === 0 ? 'start' : this.trace.rounds[k - 1].phase;
    this.buttons.back.disabled = k === 0;
    this.buttons.reset.disabled = k === 0;
    this.buttons.forward.disabled = k === this.rounds;
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
      await new Promise((resolve) => { this.timer = setTimeout(resolve, (this.reducedMotion.matches ? ROUND_MS : 250) / this.state.speed); });
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
    if (e.target instanceof HTMLSelectElement) return; // the speed menu keeps its own keys
    const onButton = e.target instanceof HTMLButtonElement;
    if (e.key === 'ArrowRight') {
      this.pause();
      if (this.moving) this.go(this.state.round + 1);
      else this.forward();
    } else if (e.key === 'ArrowLeft') {
      this.back();
    } else if (e.key === ' ' && !onButton) {
      this.toggle();
    } else if (e.key === 'Home') {
      this.pause();
      this.go(0);
    } else {
      return;
    }
    e.preventDefault();
  }
}

customElements.define('parascope-ring', ParascopeRing);
