// <parascope-axes>: one model sliced by data, tensor, pipeline and expert parallelism: what each GPU holds and sends.
import { sliderControl } from '../lib/controls.js';
import { h } from '../lib/dom.js';
import { expertFacts, loadBars } from '../lib/axes-experts.js';
import { drawGrid } from '../lib/axes-grid.js';
import { FIXES, trafficTable } from '../lib/axes-table.js';
import { ParascopeWidget } from '../lib/widget.js';

const AXES = ['data', 'tensor', 'pipeline', 'expert'];
const TABS = [...AXES, 'all'];
const DEFAULTS = { axis: 'all', model: 'mixtral-8x7b', hardware: 'h100-sxm', gpus: 64, tp: 2, pp: 4, ep: 8,
  globalBatch: 256, skew: 1, seed: 1 };
const MAX_ASSIGNMENTS = 1 << 19;  // keeps one routing under ~50 ms in the page while the slider moves

class ParascopeAxes extends ParascopeWidget {
  setup(body) {
    const presets = this.ask({ op: 'presets' });
    this.models = Object.fromEntries(presets.models.map((m) => [m.id, m]));
    const model = this.choiceAttribute('model', Object.keys(this.models), DEFAULTS.model);
    const moe = this.models[model].experts > 1;
    this.state = {
      axis: this.choiceAttribute('axis', TABS, DEFAULTS.axis),
      model,
      hardware: this.choiceAttribute('hardware', presets.hardware.map((x) => x.id), DEFAULTS.hardware),
      gpus: this.intAttribute('gpus', { min: 1, max: 1_000_000, fallback: DEFAULTS.gpus }),
      tp: this.intAttribute('tp', { min: 1, max: 1024, fallback: DEFAULTS.tp }),
      pp: this.intAttribute('pp', { min: 1, max: 1024, fallback: DEFAULTS.pp }),
      ep: this.intAttribute('ep', { min: 1, max: 1024, fallback: moe ? DEFAULTS.ep : 1 }),
      globalBatch: this.intAttribute('global-batch', { min: 1, max: 100_000_000, fallback: DEFAULTS.globalBatch }),
      skew: this.numberAttribute('skew', { min: -1e-9, max: 3, fallback: DEFAULTS.skew }),
      seed: this.intAttribute('seed', { min: 0, max: 2 ** 53, fallback: DEFAULTS.seed }),
    };

    this.buttons = TABS.map((axis) => h('button', { type: 'button', class: 'axis-button', 'data-axis': axis,
      'aria-pressed': String(axis === this.state.axis), onclick: () => this.select(axis) },
    axis === 'all' ? 'all four' : axis));
    const bar = h('div', { class: 'axis-buttons', role: 'group', 'aria-label': 'parallel axis' }, this.buttons);
    bar.addEventListener('keydown', (e) => this.arrowKeys(e));

    this.out = {
      caption: h('p', { class: 'axes-caption', 'data-out': 'caption' }),
      grid: h('div', { class: 'axes-grid-box' }),
      legend: h('p', { class: 'axes-legend' },
        h('span', { class: 'swatch intra' }), ' inside a node ', h('span', { class: 'swatch inter' }), ' across nodes; ',
        'line width ∝ bytes per GPU per step'),
      experts: h('div', { class: 'axes-experts', hidden: true }),
      table: h('div', { class: 'axes-table-box' }),
    };
    const skew = sliderControl({ label: 'Router skew (Zipf exponent)', name: 'skew', value: this.state.skew, min: 0, max: 3,
      step: 0.1, format: (v) => v.toFixed(1), onInput: (v) => this.setSkew(v) });
    this.skewInput = skew.input;
    this.out.expertChart = h('div', { class: 'expert-chart' });
    this.out.expertFacts = h('div', {});
    this.out.experts.append(skew.element, this.out.expertChart, this.out.expertFacts);

    body.append(h('div', { class: 'axes' }, bar, this.out.caption, this.out.grid, this.out.legend, this.out.experts,
      this.out.table));
    this.resize = new ResizeObserver(() => this.drawGridOnly());
    this.resize.observe(this);
    this.update();
  }

  stop() {
    this.resize?.disconnect();
    cancelAnimationFrame(this.frame);
  }

  /** Left/right arrows move between the axis buttons (Tab and Enter/Space work as for any button). */
  arrowKeys(event) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const from = TABS.indexOf(event.target.dataset?.axis ?? this.state.axis);
    const i = (from + step + TABS.length) % TABS.length;
    this.select(TABS[i]);
    this.buttons[i].focus();
  }

  select(axis) {
    this.state.axis = axis;
    this.buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.axis === axis)));
    this.render();
  }

  setSkew(value) {
    this.state.skew = value;
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      this.route();
      this.render();
    });
  }

  /** The run, as step / traffic / placement take it. */
  runRequest() {
    const { model, hardware, gpus, tp, pp, ep, globalBatch } = this.state;
    return { model, hardware, cluster: { gpus }, parallel: { tp, pp, ep, global_batch: globalBatch } };
  }

  update() {
    this.placement = this.ask({ op: 'placement', ...this.runRequest() }, 'run');
    this.traffic = this.placement ? this.ask({ op: 'traffic', ...this.runRequest() }, 'traffic') : null;
    this.toggleAttribute('data-stale', !this.placement);
    if (!this.placement) return;
    this.route();
    this.render();
  }

  /** Routes one microbatch per EP rank through the engine's router at the current skew. */
  route() {
    const m = this.models[this.state.model];
    const expert = this.placement.axes.find((a) => a.axis === 'expert');
    if (m.experts <= 1 || expert.size <= 1) {
      this.routing = null;
      return;
    }
    const tokens = Math.max(1, Math.min(expert.size * m.seq, Math.floor(MAX_ASSIGNMENTS / m.top_k)));
    this.routing = this.ask({ op: 'moe_route', tokens, experts: m.experts, top_k: m.top_k, ep: expert.size,
      skew: this.state.skew, seed: this.state.seed, hidden: m.hidden, hardware: this.state.hardware,
      link_kind: expert.link }, 'route');
  }

  rows() {
    return this.traffic?.axes ?? [];
  }

  render() {
    const { axis } = this.state;
    const p = this.placement;
    if (!p) return;
    const shown = p.gpus > p.drawn ? `the first ${p.drawn} of ${p.gpus} GPUs` : `${p.gpus} GPUs`;
    this.out.caption.textContent = axis === 'all'
      ? `${shown}, each striped by its data, tensor, pipeline and expert shard.`
      : `${axis}: ${FIXES[axis]}. Colour: the ${axis} shard each of ${shown} holds.`;
    this.drawGridOnly();
    const rows = this.rows().filter((r) => axis === 'all' || r.axis === axis);
    this.out.table.replaceChildren(this.traffic ? trafficTable(rows, axis) : '');
    const showExperts = axis === 'expert' || axis === 'all';
    this.out.experts.hidden = !showExperts;
    if (showExperts) this.renderExperts();
  }

  drawGridOnly() {
    if (!this.placement) return;
    const { axis } = this.state;
    const rows = this.rows();
    const maxBytes = Math.max(1, ...rows.map((r) => r.bytes_per_gpu));
    const bytesOf = Object.fromEntries(rows.map((r) => [r.axis, r.bytes_per_gpu]));
    const hot = new Set();
    if (this.routing && (axis === 'expert' || axis === 'all')) {
      this.placement.ranks.filter((r) => r.ep === this.routing.hot_rank).forEach((r) => hot.add(r.rank));
    }
    this.hotGpus = [...hot];
    const narrow = this.getBoundingClientRect().width < 560;
    this.out.grid.replaceChildren(drawGrid({
      placement: this.placement,
      axes: axis === 'all' ? AXES : [axis],
      colourBy: axis,
      widthOf: (a) => (bytesOf[a] === undefined ? 2 : 1 + 7 * Math.sqrt(bytesOf[a] / maxBytes)),
      hot,
      nodeColumns: narrow ? 2 : 4,
    }));
  }

  renderExperts() {
    const m = this.models[this.state.model];
    if (!this.routing) {
      this.out.expertChart.replaceChildren(h('p', { class: 'axes-caption' },
        m.experts > 1 ? 'Expert parallelism is 1 here: every GPU holds every expert.' : `${m.name} is dense: it has no experts to split.`));
      this.out.expertFacts.replaceChildren();
      return;
    }
    this.out.expertChart.replaceChildren(loadBars(this.routing));
    this.out.expertFacts.replaceChildren(expertFacts(this.routing, this.hotGpus ?? []));
  }
}

customElements.define('parascope-axes', ParascopeAxes);
