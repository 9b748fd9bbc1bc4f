// <parascope-axes>: one model sliced by data, tensor, pipeline and expert parallelism: what each GPU holds and sends.
// State logic and words live in model/*.js; this file binds the controls and paints.
import { sliderControl } from '../../lib/controls.js';
import { h, svg } from '../../lib/dom.js';
import { factsList, loadBars } from './experts.js';
import { drawGrid, shardColour } from './grid.js';
import { trafficTable } from './table.js';
import { routingSummary } from './model/expert-facts.js';
import {
  QUICK_NOTED,
  quickStartable,
  routeRequest,
  routesLater,
  runRequest,
  snapSkew,
  trafficRequest,
} from './model/requests.js';
import { TABS, TAB_NAMES, tabAfterKey } from './model/tabs.js';
import { axisSummary } from './model/traffic-rows.js';
import { axesView, staticText } from './model/view.js';
import { ATTRIBUTES as A } from './attributes.js';
import { EngineError } from '../../lib/engine-error.js';
import { readNetwork } from '../../lib/model/network.js';
import { watchSize } from '../../lib/size-watch.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';

/** This element's attributes: ranges and defaults (lib/model/attributes.js, the one list the guide shows). */

/** The element's width less its grid box's (frame and panel padding, css/widget.css): only a first guess (setup). */
const GRID_INSET = 34;

class ParascopeAxes extends ParascopeWidget {
  /** <parascope-nccl>'s "use my cluster" loads its fitted links into this figure (lib/model/network.js). */
  static takesNetwork = true;

  setup(body) {
    this.network = readNetwork(this); // your cluster's links, or null: the hardware preset's
    // The first draw takes the grid's width from the element's own (laid out already: only its empty body changed)
    // rather than from the grid box just built, whose reading would lay out the whole new figure and the page in the
    // middle of setup; the ResizeObserver below redraws at once, before anything is painted, if that was not it.
    this.width = Math.max(0, Math.round(this.getBoundingClientRect().width) - GRID_INSET);
    this.guessing = true;
    this.models = null;
    // The first draw asks the engine for the run's placement before its presets answer (every model and accelerator,
    // the largest first answer of a cold engine): a run the engine places, with expert parallelism, shows its router
    // only once on screen (routeSoon), and the presets answer is read then (modelEntry). Any other run (a refusal, a
    // dense model or ep 1, whose panel names the model, or no ep to default) starts as it always did: presets first.
    const quick = this.quickStart();
    if (!quick.drawn) {
      const presets = this.readPresets();
      const model = this.choiceAttribute('model', Object.keys(this.models), A.model.fallback);
      const moe = this.models[model].experts > 1;
      this.state = this.readState(
        model,
        () =>
          this.choiceAttribute(
            'hardware',
            presets.hardware.map((x) => x.id),
            A.hardware.fallback,
          ),
        moe ? A.ep.fallback : 1,
      );
      // A TPU slice's chips ride their own ICI links: a GPU cluster's nccl-tests fit is not theirs (as in mfu).
      this.state.network = this.hardwareEntry()?.kind === 'gpu' ? this.network : null;
      // The quick try's placement, when it was of this same run (a dense model, ep 1): not asked twice.
      if (quick.request !== JSON.stringify(runRequest(this.state))) quick.placement = null;
    }
    if (this.state.network)
      this.setNote('network', "Costed on your measured network (your nccl-tests fit), not the preset's links.");

    this.tabs = TABS.map((axis) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          class: 'axis-tab',
          id: `axes-tab-${axis}`,
          'data-axis': axis,
          'aria-controls': 'axes-panel',
          onclick: () => this.select(axis),
        },
        TAB_NAMES[axis],
      ),
    );
    const tablist = h('div', { class: 'axis-tabs', role: 'tablist', 'aria-label': 'Parallel axis shown' }, this.tabs);
    tablist.addEventListener('keydown', (e) => this.tabKeys(e));

    this.out = {
      captions: h('div', { class: 'axes-stack', 'data-out': 'caption' }),
      grid: h('div', { class: 'axes-grid-box' }),
      keys: h('div', { class: 'axes-stack axes-keys' }),
      readout: h('p', { class: 'axes-readout', 'data-out': 'readout' }),
      sizer: h('p', { class: 'axes-readout sizer', 'aria-hidden': 'true' }),
      table: h('div', { class: 'axes-table-box' }),
      expertTitle: h('p', { class: 'axes-expert-title', 'data-out': 'expert-title' }),
      expertChart: h('div', { class: 'expert-chart' }),
      expertFacts: h('div', { class: 'expert-facts-box' }),
    };
    const legend = h(
      'p',
      { class: 'axes-legend' },
      h('span', { class: 'swatch intra' }),
      ' inside a node ',
      h('span', { class: 'swatch inter' }),
      ' across nodes; ',
      'line width ∝ bytes per GPU per step; ',
      h('span', { class: 'swatch-box hot' }),
      ' holds the busiest expert; ',
      h('span', { class: 'swatch-box focus' }),
      ' the GPU whose links are drawn',
    );

    this.focusControl = sliderControl({
      label: 'GPU whose links are drawn (or click a GPU)',
      name: 'focus',
      value: 0,
      min: 0,
      max: 0,
      step: 1,
      format: (v) => `GPU ${v}`,
      onInput: (v) => this.setFocus(v),
    });
    this.skewControl = sliderControl({
      label: 'Router skew (Zipf exponent; 0 = uniform)',
      name: 'skew',
      value: this.state.skew,
      min: 0,
      max: 3,
      step: 0.1,
      format: (v) => v.toFixed(1),
      onInput: (v) => this.setSkew(v),
    });
    this.skewInput = this.skewControl.input;
    const skew = snapSkew(this.state.skew);
    this.state.skew = skew.value;
    this.skewControl.set(skew.value);
    this.skewControl.hint(skew.hint);

    this.panel = h(
      'div',
      { class: 'axes-panel', role: 'tabpanel', id: 'axes-panel', tabindex: 0 },
      this.out.captions,
      this.out.grid,
      this.out.keys,
      legend,
      h(
        'div',
        { class: 'axes-focus' },
        this.focusControl.element,
        h('div', { class: 'axes-stack' }, this.out.readout, this.out.sizer),
      ),
      this.out.table,
    );
    const experts = h(
      'section',
      { class: 'axes-experts', 'aria-label': 'Router skew and one MoE layer' },
      h('h3', { class: 'axes-experts-heading' }, 'The router: one MoE layer, one microbatch'),
      this.out.expertTitle,
      this.skewControl.element,
      this.out.expertChart,
      this.out.expertFacts,
    );
    this.root = h('div', { class: 'axes' }, tablist, this.panel, experts);
    body.append(this.root);

    // A new width repaints in the next frame (lib/size-watch.js: the grid's height follows its width).
    this.unwatchSize = watchSize(this.out.grid, () => {
      const w = this.out.grid.clientWidth;
      if (w && w !== this.width) this.paintFigures();
    });
    try {
      this.update({ routeLater: true, placement: quick.placement });
    } finally {
      this.guessing = false;
    }
  }

  /** The state from the attributes, once the model is known (`hardware` reads that one; `epFallback`: ep's default). */
  readState(model, hardware, epFallback) {
    return {
      axis: this.choiceAttribute('axis', A.axis.choices, A.axis.fallback),
      model,
      hardware: hardware(),
      gpus: this.intAttribute('gpus', A.gpus),
      tp: this.intAttribute('tp', A.tp),
      pp: this.intAttribute('pp', A.pp),
      ep: this.intAttribute('ep', { ...A.ep, fallback: epFallback }),
      globalBatch: this.intAttribute('global-batch', A['global-batch']),
      skew: this.numberAttribute('skew', A.skew),
      seed: this.intAttribute('seed', A.seed),
      focus: 0,
    };
  }

  /**
   * The first draw without the presets answer, when it can be: the attributes name their model and hardware as they
   * are (the engine's placement answer tells whether it knows them) and give a whole ep (its default depends on the
   * model). Returns { drawn, request, placement }: drawn (and this.state set) when the engine placed that run with
   * expert parallelism (the router panel then waits for the screen anyway); otherwise no note is left standing from
   * the attempt, and `placement` (null if refused) answers `request` (the run's request as JSON text).
   */
  quickStart() {
    // With your network the hardware's kind decides whether it applies (a presets answer): no quick start then.
    if (this.network || !quickStartable(this.rawAttribute('ep')))
      return { drawn: false, request: null, placement: null };
    const state = this.readState(
      this.rawAttribute('model') ?? A.model.fallback,
      () => this.rawAttribute('hardware') ?? A.hardware.fallback,
      A.ep.fallback,
    );
    const request = runRequest(state);
    let placement = null;
    try {
      placement = this.engine.call({ op: 'placement', ...request });
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
    }
    const drawn = Boolean(placement) && routesLater(state, null, placement);
    if (drawn) this.state = state;
    else for (const name of QUICK_NOTED) this.clearNote(`attr-${name}`); // read again, in the usual order, with presets
    return { drawn, request: JSON.stringify(request), placement };
  }

  /** Reads the engine's presets answer (shared by the page's widgets): this.models by id; returns the answer. */
  readPresets() {
    const presets = this.enginePresets();
    this.models = Object.fromEntries(presets.models.map((m) => [m.id, m]));
    return presets;
  }

  /** The presets entry of the state's hardware (null for one the engine does not know). */
  hardwareEntry() {
    return this.enginePresets().hardware.find((x) => x.id === this.state.hardware) ?? null;
  }

  /** The presets entry of the state's model (the presets answer is read on first use: not in a quick first draw). */
  modelEntry() {
    if (!this.models) this.readPresets();
    return this.models[this.state.model];
  }

  stop() {
    this.unwatchSize?.();
    cancelAnimationFrame(this.frame);
    this.routeSoon(false);
  }

  /**
   * The router panel sits below the grid, off screen when the article opens, and one routing (262,144 tokens) costs
   * more than the rest of the first draw together: the first draw skips it, and it runs once that frame is on screen
   * (data-routing marks the wait; printing and any control the reader moves route at once).
   */
  routeSoon(on) {
    cancelAnimationFrame(this.routeFrame);
    clearTimeout(this.routeTimer);
    if (this.routePrint) window.removeEventListener('beforeprint', this.routePrint);
    this.routePrint = null;
    this.toggleAttribute('data-routing', on);
    if (!on) return;
    this.routePrint = () => this.routeNow();
    window.addEventListener('beforeprint', this.routePrint);
    this.routeFrame = requestAnimationFrame(() => {
      this.routeTimer = setTimeout(() => this.routeNow());
    });
  }

  /** Routes now if the first draw left it for later, and draws what depends on it (outlines, table, router panel). */
  routeNow() {
    if (!this.hasAttribute('data-routing')) return;
    this.routeSoon(false);
    this.route();
    const v = this.view();
    this.out.table.replaceChildren(trafficTable(v.rows));
    this.paintFigures(v);
    this.renderExperts(v);
  }

  /** ←/→ move to the neighbouring tab (wrapping), Home/End to the first/last; the tab is selected and focused. */
  tabKeys(event) {
    const next = tabAfterKey(this.state.axis, event.key);
    if (!next) return;
    event.preventDefault();
    this.select(next);
    this.tabs[TABS.indexOf(next)].focus();
  }

  select(axis) {
    this.routeNow();
    this.state.axis = axis;
    this.render();
    this.announce(axis === 'all' ? 'All four axes.' : axisSummary(this.traffic, axis));
    this.stateChanged();
  }

  /** What an export holds: the figure as drawn, and the engine's placement, traffic and routing answers. */
  exportFigure() {
    if (!this.placement) return null;
    const ready = this.hasAttribute('data-ready'); // a download, not the tools' check during setup
    if (ready) this.routeNow();
    const s = this.state;
    const model = ready ? this.modelEntry() : this.models?.[s.model];
    return {
      title: `${model?.name ?? s.model} on ${s.gpus} GPUs: tp ${s.tp}, pp ${s.pp}, ep ${s.ep} (${s.axis === 'all' ? 'all axes' : s.axis})`,
      words: [s.model, `${s.gpus}gpus`, `tp${s.tp}`, `pp${s.pp}`, `ep${s.ep}`, s.axis],
      root: this.root,
      data: {
        request: trafficRequest(s, this.routing),
        response: this.traffic,
        route: this.routing,
        routeRequest: this.routeAsked,
      },
    };
  }

  /** The state as attributes (permalinks, file names). */
  linkState() {
    if (!this.state) return null;
    const s = this.state;
    return {
      axis: s.axis,
      model: s.model,
      hardware: s.hardware,
      gpus: s.gpus,
      tp: s.tp,
      pp: s.pp,
      ep: s.ep,
      'global-batch': s.globalBatch,
      skew: s.skew,
      seed: s.seed,
      ...this.network,
    };
  }

  setFocus(rank) {
    this.routeNow();
    this.state.focus = rank;
    this.focusControl.set(rank);
    this.render();
    this.announce(this.out.readout.textContent);
  }

  setSkew(value) {
    this.state.skew = value;
    this.skewControl.hint('');
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => {
      this.route();
      this.render();
      if (this.routing) this.announce(routingSummary(this.routing, this.routeAsked));
    });
    this.stateChanged();
  }

  /** Asks for the run's placement (or takes `placement`, already answered for this state) and traffic, and draws. */
  update({ routeLater = false, placement = null } = {}) {
    this.placement = placement ?? this.ask({ op: 'placement', ...runRequest(this.state) }, 'run');
    this.traffic = null;
    this.toggleAttribute('data-stale', !this.placement);
    if (!this.placement) return;
    const p = this.placement;
    this.state.focus = Math.min(this.state.focus, p.drawn - 1);
    this.focusControl.input.max = String(p.drawn - 1);
    this.focusControl.set(this.state.focus);
    // Text that differs by tab or GPU is stacked in one grid cell, so the tallest one sets the height for all.
    const text = staticText(p);
    this.out.captions.replaceChildren(
      ...text.captions.map((c) => h('p', { class: 'axes-caption', 'data-tab': c.axis }, c.text)),
    );
    this.out.keys.replaceChildren(...text.keys.map((k) => this.keyBlock(k)));
    this.out.sizer.textContent = text.longestReadout;
    if (routeLater && routesLater(this.state, this.models?.[this.state.model], p)) {
      this.routing = null;
      this.routeAsked = null;
      this.askTraffic();
      this.routeSoon(true);
    } else {
      this.routeSoon(false);
      this.route();
    }
    this.render();
  }

  keyBlock(key) {
    return h(
      'p',
      { class: 'axes-key', 'data-tab': key.axis },
      key.entries.map((e) =>
        h(
          'span',
          { class: 'key-entry' },
          svg(
            'svg',
            { class: 'key-swatch', width: 12, height: 12, 'aria-hidden': 'true' },
            svg('rect', { width: 12, height: 12, rx: 2, fill: shardColour(e.index, e.size) }),
          ),
          h('b', {}, e.tag),
          ` ${e.text}`,
        ),
      ),
      key.text ? h('span', { class: 'key-note' }, key.text) : null,
    );
  }

  /** Routes one microbatch per EP rank through the engine's router at the current skew. */
  route() {
    if (this.hasAttribute('data-routing')) this.routeSoon(false);
    const request = routeRequest(
      this.state,
      this.modelEntry(),
      this.placement,
      this.state.network ? this.hardwareEntry() : null,
    );
    this.routeAsked = request;
    this.routing = request ? this.ask(request, 'route') : null;
    this.askTraffic();
  }

  /** The traffic table's answer, timed with the routing's imbalance when there is one (trafficRequest). */
  askTraffic() {
    this.traffic = this.ask(trafficRequest(this.state, this.routing), 'traffic');
  }

  /** What to show now (model/view.js), at the grid box's width in CSS pixels. */
  view() {
    if (!this.guessing) this.width = this.out.grid.clientWidth;
    return axesView({
      state: this.state,
      placement: this.placement,
      traffic: this.traffic,
      route: this.routing,
      routeAsked: this.routeAsked,
      model: this.models?.[this.state.model] ?? null,
      width: this.width || 686,
    });
  }

  render() {
    if (!this.placement) return;
    const v = this.view();
    this.tabs.forEach((b) => {
      const on = b.dataset.axis === v.axis;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    });
    this.panel.setAttribute('aria-labelledby', `axes-tab-${v.axis}`);
    for (const stack of [this.out.captions, this.out.keys]) {
      for (const child of stack.children) child.toggleAttribute('data-active', child.dataset.tab === v.axis);
    }
    this.out.readout.textContent = v.readout;
    this.out.table.replaceChildren(trafficTable(v.rows));
    this.paintFigures(v);
    this.renderExperts(v);
  }

  /** The grid and the bars, drawn at 1:1 CSS pixels so text keeps its size at any width. */
  paintFigures(v = this.placement && this.view()) {
    if (!v) return;
    this.out.grid.replaceChildren(
      drawGrid({
        placement: this.placement,
        layout: v.layout,
        axis: v.axis,
        focus: v.focus,
        hot: v.hot,
        links: v.links,
        widthOf: (a) => v.widths[a] ?? 2,
        name: v.gridName,
        onPick: (rank) => this.setFocus(rank),
      }),
    );
    if (v.expert)
      this.out.expertChart.replaceChildren(
        loadBars(v.expert.bars, Math.min(520, this.out.expertChart.clientWidth || 520)),
      );
  }

  renderExperts(v) {
    const waiting = this.hasAttribute('data-routing'); // routed in a moment (routeSoon): keep the panel's shape
    this.skewControl.element.hidden = !v.expert && !waiting;
    if (!v.expert) {
      if (waiting) return;
      this.out.expertTitle.textContent = v.noRouting;
      this.out.expertChart.replaceChildren();
      this.out.expertFacts.replaceChildren();
      return;
    }
    this.out.expertTitle.textContent = v.expert.title;
    this.out.expertFacts.replaceChildren(factsList(v.expert.facts));
    this.skewInput.setAttribute('aria-valuetext', v.expert.skewText);
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeAxes.stylesheet = sheet(new URL('./axes.css', import.meta.url));
customElements.define('parascope-axes', ParascopeAxes);
