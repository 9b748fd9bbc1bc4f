// <parascope-step>: one training step as a profiler would show it. Each drawn stage's first GPU gets a lane per
// stream the engine's `timeline` op names (compute, TP, DP/FSDP, PP send/recv, EP, CP, optimizer), drawn on a canvas
// culled to the window in view; zoom and pan by wheel, drag and keys; hover for an event's numbers. Only the stages on
// screen are asked for, in the compact columns form. Model in model/*.js; controls in step-controls.js; what the
// reader's moves do (and the CSV's rows, a refusal's words) in interact.js, loaded on the first one.
import { h } from '../../lib/dom.js';
import { asset } from '../../lib/assets.js';
import { EngineError, loadFiguresEngine } from '../../lib/engine.js';
import { sheet } from '../../lib/sheets.js';
import { watchSize } from '../../lib/size-watch.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { canvasColours } from '../../lib/canvas-colours.js';
import { ATTRIBUTES as A } from './attributes.js';
import { AXIS_H, stepChart } from './chart.js';
import { PIECE_VARIABLES, chartColours } from './model/colours.js';
import { plotRows } from './model/layout.js';
import { eventsInView, stepStore, usedLanes } from './model/lanes.js';
import * as R from './model/request.js';
import { readState, stateValues } from './model/state.js';
import { drawnSentence, exposedText, stepSentence } from './model/text.js';
import { askWindow, clampView, keyMove, wholeView } from './model/view.js';
import { stepControls } from './step-controls.js';
import { stepLegend } from './legend.js';
import { traceButton } from './trace-download.js';
import { traceImport } from './trace-import.js';
import { listenFocus, sendFocus } from '../../lib/focus.js';
import { FOCUS_KINDS, focusKey } from '../../lib/model/focus.js';

/**
 * The reading and moving (interact.js: hover, drag, wheel, keys, the event walk, the trace download, the CSV's rows, a
 * refusal's words), fetched on the reader's first move, download or refused step, as the trace comparison is on the
 * first file (trace-import.js): one self-contained file in the build (scripts/bundle.mjs), so a figure only looked at
 * never downloads it.
 */
const movesUrl = () => asset(new URL('./interact.js', import.meta.url), 'widgets/step/interact.js');
const importMoves = () => import(/* webpackIgnore: true */ /* @vite-ignore */ movesUrl().href);

class ParascopeStep extends ParascopeWidget {
  /** <parascope-nccl>'s "use my cluster" loads its fitted links into this figure (lib/model/network.js). */
  static takesNetwork = true;

  setup(body) {
    this.stopFocus = listenFocus(
      this,
      () => this.focusKey(),
      (kind) => this.showFocus(kind),
    );
    this.presets = this.enginePresets();
    this.state = readState(this, A, this.presets);
    if (this.state.network) {
      this.setNote(
        'network',
        "GPU runs are drawn on your measured network (your nccl-tests fit), not the chip's links.",
      );
    }
    this.store = null;
    this.frames = []; // the last draws' times (ms), for the bench (tests/bench/step-frames.mjs)
    this.build(body);
    this.refresh();
  }

  build(body) {
    this.controlsBox = h('div', { class: 'controls step-controls' });
    this.out = {
      step: h('p', { class: 'step-sentence', 'data-out': 'step', 'aria-live': 'polite' }),
      problem: h('p', { class: 'step-problem', 'data-out': 'problem', role: 'alert', hidden: true }),
      readout: h('p', { class: 'step-readout', 'data-out': 'event', role: 'status', 'aria-live': 'polite' }),
      drawn: h('p', { class: 'step-drawn', 'data-out': 'drawn' }),
    };
    this.legend = stepLegend();
    this.canvas = h('canvas', { class: 'step-canvas', 'aria-hidden': 'true' });
    this.marker = h('div', { class: 'step-marker', hidden: true });
    this.labels = h('div', { class: 'step-labels', 'aria-hidden': 'true' });
    this.plot = h('div', { class: 'step-plot' }, this.canvas, this.marker);
    this.chart = h(
      'div',
      {
        class: 'step-chart',
        tabindex: '0',
        role: 'application',
        'data-out': 'chart',
        'aria-roledescription': 'step timeline',
        'aria-describedby': 'step-keys',
      },
      this.labels,
      this.plot,
    );
    const zoom = (symbol, label, name, act) =>
      h('button', { type: 'button', class: 'step-zoom', name, 'aria-label': label, onclick: act }, symbol);
    this.root = h(
      'div',
      { class: 'step' },
      this.controlsBox,
      // one place: a refusal's sentence covers the stale step's (step.css), so neither misleads nor moves the chart
      h('div', { class: 'step-says' }, this.out.step, this.out.problem),
      this.legend.element,
      this.chart,
      h(
        'div',
        { class: 'step-under' },
        h(
          'span',
          { class: 'step-zooms' },
          zoom('+', 'Zoom in', 'zoom-in', () => this.key('+')),
          zoom('−', 'Zoom out', 'zoom-out', () => this.key('-')),
          h(
            'button',
            { type: 'button', class: 'step-zoom wide', name: 'zoom-whole', onclick: () => this.key('0') },
            'Whole step',
          ),
        ),
        h(
          'span',
          { class: 'step-keys', id: 'step-keys' },
          'Each GPU’s first row is its compute stream: a collective’s colour there is the stream waiting for it. ' +
            'Wheel (with Ctrl, or once the chart has focus) or + − zoom; drag or ← → pan; ↑ ↓ move the stages drawn; ] [ read the next and previous event, . , the row below and above.',
        ),
      ),
      this.out.readout,
      this.out.drawn,
    );
    this.importer = traceImport(() => (this.gpus?.length ? this : null));
    this.root.append(this.importer.element);
    body.append(this.root);
    this.paint = stepChart(this.canvas);
    this.listen();
    this.unwatchSize = watchSize(this.plot, () => {
      this.plotSize = { width: Math.floor(this.plot.clientWidth), height: Math.floor(this.plot.clientHeight) };
      this.layout = null;
      this.drawNow();
    });
    this.themeWatch();
  }

  listen() {
    const c = this.canvas;
    const soon = () => this.use(() => {}); // a move is coming: its code starts loading now
    c.addEventListener('pointerenter', soon);
    this.chart.addEventListener('focus', soon);
    c.addEventListener('pointermove', (e) => this.use((m) => (this.drag ? m.dragTo(this, e) : m.hover(this, e))));
    c.addEventListener('pointerleave', () => !this.drag && this.unread());
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      this.drag = { x: e.clientX, view: this.view };
      try {
        c.setPointerCapture?.(e.pointerId); // the drag goes on outside the canvas
      } catch {
        // a pointer the browser no longer tracks (Firefox refuses it): the drag still follows the canvas
      }
    });
    const end = () => (this.drag = null);
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    this.chart.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    this.chart.addEventListener('keydown', (e) => {
      if (this.key(e.key)) e.preventDefault();
    });
  }

  /** interact.js's functions, loaded once (a failed load is tried again on the next move). */
  loadMoves() {
    this.movesLoading ??= importMoves().then(
      (m) => (this.moves = m),
      (err) => {
        this.movesLoading = null;
        throw err;
      },
    );
    return this.movesLoading;
  }

  /** Runs `act(moves)`: now once loaded, else when loaded, in the order asked (what the reader did meanwhile). */
  use(act) {
    if (this.moves) return act(this.moves);
    this.loadMoves().then(act, () =>
      this.setNote(
        'moves',
        'The chart’s zoom, readout and messages did not load; reload the page to try again.',
        'error',
      ),
    );
  }

  /** Says which cost the event read is (lib/focus.js) to the page's other figures of this step, when it changes. */
  pointAt(kind) {
    if (kind === this.pointed) return;
    this.pointed = kind;
    sendFocus(this, this.focusKey(), kind);
  }

  /** The step shown, as lib/model/focus.js keys it (null before an answer). */
  focusKey() {
    const s = this.state;
    return this.store?.head ? focusKey({ model: s.model, hardware: s.hardware, gpus: s.gpus }, this.store.head) : null;
  }

  /** Another figure of this step points at cost `kind` (null: at nothing): its events stay, the others fade. */
  showFocus(kind) {
    if (kind === this.focusKind) return;
    this.focusKind = kind;
    this.dataset.focus = kind ?? '';
    if (!kind) delete this.dataset.focus;
    this.colours = null;
    this.drawNow();
  }

  stop() {
    this.stopFocus?.();
    this.importer?.stop();
    this.unwatchSize?.();
    this.themeObserver?.disconnect();
    this.themeQuery?.removeEventListener('change', this.themeListener);
    cancelAnimationFrame(this.frame);
    clearTimeout(this.drawnTimer);
  }

  /** A control moved: the state follows (dp and microbatches move the GPU count and the batch), then a new step. */
  change(key, value) {
    let s = this.state;
    if (key === 'dp') s = R.withDataParallel(s, value);
    else if (key === 'microbatches') s = R.withMicrobatches(s, value);
    else if (key === 'tp' || key === 'pp') s = R.withSplit(s, key, value);
    else s = { ...s, [key]: value };
    if (key === 'first' || key === 'shown') {
      this.state = s;
      this.showStages();
    } else {
      this.state = s;
      this.refresh();
    }
    this.stateChanged();
  }

  /** Builds the controls for the state and asks for its step. */
  refresh() {
    this.controls = stepControls(this.presets, this.state, (k, v) => this.change(k, v));
    this.controlsBox.replaceChildren(...Object.values(this.controls).map((c) => c.element));
    this.asking = stepStore(); // drawn once answered: a refused step leaves the last one on screen, greyed
    this.showStages();
  }

  /** The stages on screen: asks the engine for those no answer held yet (only those), then draws. */
  showStages() {
    const s = this.state;
    const store = this.asking ?? this.store;
    const shown = R.stagesShown(s.pp, s.first, s.shown);
    s.first = shown[0];
    // zoomed in (the same step), only the window near the screen is asked for
    const window = this.asking || !this.view ? null : askWindow(this.view, store.head.step_time);
    const missing = store.missing(shown, window && { from: this.view.t0, to: this.view.t1 });
    if (missing.length && !this.ask(missing, store, window)) return;
    if (this.asking) {
      this.view = null; // a new step opens whole
      this.store = store;
      this.asking = null;
    }
    const head = store.head;
    this.shown = shown;
    this.view = clampView(this.view ?? wholeView(head.step_time), head.step_time);
    this.gpus = store.gpusOf(shown);
    this.lanes = usedLanes(head.lanes, this.gpus);
    this.layout = null;
    this.out.step.textContent = stepSentence(head);
    this.out.step.dataset.value = String(head.step_time);
    this.legend.update(head, this.gpus);
    this.importer.refresh();
    this.colours = null;
    this.unread();
    this.drawNow();
  }

  /**
   * Asks `store`'s step for `stages` (in time `window`, or whole: null); on a refusal says why in a reader's words and
   * greys the chart.
   */
  ask(stages, store, window = null) {
    let answer = null;
    try {
      answer = this.engine.call(R.timelineRequest(this.state, stages, 'columns', window));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      this.refused(err);
      return false;
    }
    store.add(answer, window);
    this.refusal = null;
    this.out.problem.hidden = true;
    this.toggleAttribute('data-stale', false);
    return true;
  }

  /**
   * A refusal's words (interact.js `refused`), once that code has come on the first one: shown unless the step was
   * answered or refused again meanwhile.
   */
  refused(err) {
    this.refusal = err;
    const schedule = this.state.schedule;
    this.use((m) => this.refusal === err && m.refused(this, err, schedule));
  }

  /** The GPU the trace comparison reads: the slowest stage's when drawn, else the first drawn. */
  slowestShown() {
    return this.gpus.find((g) => g.slowest) ?? this.gpus[0];
  }

  requestDraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawNow(false);
    });
  }

  /**
   * Paints the lanes in view now. Not before the stylesheet applies (the plot has no height of its own before).
   * `settled`: false while the view moves (a text change each frame would lay the page out each frame).
   */
  drawNow(settled = true) {
    if (!this.gpus || !this.styled()) return;
    const { width, height } = this.plotSize ?? { width: this.plot.clientWidth, height: this.plot.clientHeight };
    if (!(width > 0 && height > AXIS_H)) return;
    const ratio = globalThis.devicePixelRatio || 1;
    if (!this.layout) {
      this.layout = plotRows(this.gpus, this.lanes, height - AXIS_H, ratio);
      this.placeLabels();
    }
    this.colours ??= this.readColours();
    const head = this.store.head;
    const out = this.paint.draw({
      rows: this.layout.rows,
      view: this.view,
      end: head.step_time,
      colours: this.colours,
      width,
      height,
    });
    this.laid = out.laid;
    this.frames.push(out.ms);
    if (this.frames.length > 600) this.frames.splice(0, 300);
    clearTimeout(this.drawnTimer);
    if (settled) this.sayDrawn();
    else this.drawnTimer = setTimeout(() => this.sayDrawn(), 150); // while the view moves, words once it rests
    if (this.hit) this.moves?.placeMarker(this);
  }

  /** The count in words, and the window in view on the chart (s; tests read it). */
  sayDrawn() {
    this.out.drawn.textContent = drawnSentence(this.shown, this.state.pp, this.laid);
    this.out.drawn.dataset.value = String(this.laid);
    this.chart.dataset.view = `${this.view.t0} ${this.view.t1}`;
  }

  placeLabels() {
    this.labels.replaceChildren(
      ...this.layout.groups.map(({ gpu, top, h: gh }) => {
        const el = h('div', { class: 'step-label', title: exposedText(gpu), 'data-stage': gpu.stage });
        el.append(h('span', {}, `GPU ${gpu.gpu}`), h('span', { class: 'step-label-stage' }, `stage ${gpu.stage}`));
        el.style.top = `${top}px`;
        el.style.height = `${gh}px`;
        el.classList.toggle('slowest', gpu.slowest);
        el.classList.toggle('tight', gh < 26);
        return el;
      }),
    );
  }

  /** The wheel on the chart: taken (not the page's scroll) with Ctrl or once the chart has focus. */
  wheel(e) {
    if (!this.view) return;
    const focused = this.shadowRoot.activeElement === this.chart;
    if (!(e.ctrlKey || e.metaKey || focused)) return; // the page scrolls past the figure
    e.preventDefault();
    this.use((m) => m.wheel(this, e));
  }

  /** A key on the chart (or a zoom button): true when it is the chart's (model/view.js keyMove), then done. */
  key(name) {
    if (!this.view || !keyMove(name, this.view, this.store.head.step_time, this.shown.length)) return false;
    this.use((m) => m.key(this, name));
    return true;
  }

  /** No event read: the readout invites a reader to point, the marker hides, the page's other figures are told. */
  unread() {
    this.hit = null;
    this.pointAt(null);
    this.out.readout.textContent =
      'Point at an event to read its numbers: what it is, when, how much of it the compute stream waited for.';
    this.out.readout.style.removeProperty('border-left-color');
    this.marker.hidden = true;
  }

  /** The palette as the chart paints it (custom properties resolved on the widget, so a theme change follows). */
  readColours() {
    const read = canvasColours(this.root, this.canvas);
    const pieces = Object.fromEntries(Object.entries(PIECE_VARIABLES).map(([id, v]) => [id, read.of(v)]));
    const palette = {
      pieces,
      idle: read.of('--tax'),
      bg: read.of('--bg'),
      lane: read.of('--step-lane'),
      fg: read.fg,
      muted: read.of('--muted'),
    };
    const focus = this.focusKind ? (FOCUS_KINDS[this.focusKind]?.pieces ?? []) : null;
    const colours = chartColours(palette, this.store.head.pieces, focus);
    colours.bgCss = read.style.getPropertyValue('--bg').trim() || '#fff';
    return colours;
  }

  themeWatch() {
    const repaint = () => {
      this.colours = null;
      this.legend.repaint?.();
      this.drawNow();
    };
    for (const link of this.stylesheets()) {
      if (!link.sheet) link.addEventListener('load', () => ((this.plotSize = null), repaint()), { once: true });
    }
    this.themeObserver = new MutationObserver(repaint);
    this.themeObserver.observe(this, { attributes: true, attributeFilter: ['theme', 'style', 'class'] });
    this.themeQuery = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    this.themeListener = repaint;
    this.themeQuery?.addEventListener('change', repaint);
  }

  stylesheets() {
    return this.shadowRoot?.querySelectorAll('link[rel="stylesheet"]') ?? [];
  }

  styled() {
    return Array.prototype.every.call(this.stylesheets(), (link) => link.sheet);
  }

  linkState() {
    return this.state ? stateValues(this.state) : null;
  }

  /** "Trace (Perfetto)" beside the downloads, with its own status line. */
  extraTools() {
    const status = h('span', {
      class: 'tools-status',
      role: 'status',
      'aria-live': 'polite',
      'data-out': 'trace-status',
    });
    const say = (text) => (status.textContent = text);
    const button = traceButton(() => this.use((m) => m.downloadTrace(this, say)));
    return h('span', { class: 'step-trace' }, button, status);
  }

  /** The engine's Chrome trace of this step, as the download makes it (interact.js traceFile). */
  traceFile() {
    return this.loadMoves().then((m) => m.traceFile(this));
  }

  /** The figures' engine (every format of `timeline`), loaded on the trace download's first click. */
  figuresEngine() {
    return loadFiguresEngine();
  }

  fileWords() {
    const s = this.state;
    return [s.model, s.hardware, `tp${s.tp}`, `pp${s.pp}`, `dp${R.dataParallel(s) ?? 'x'}`, s.schedule ?? ''].filter(
      Boolean,
    );
  }

  exportFigure() {
    if (!this.root || !this.gpus) return null;
    const head = this.store.head;
    return {
      title: `One step as a profiler would show it: ${this.fileWords().join(', ')}`,
      words: ['step', ...this.fileWords()],
      root: this.root,
      data: {
        request: R.timelineRequest(this.state, this.shown),
        response: { ...head, gpus: this.gpus.map(({ lanes, ...g }) => g) },
      },
      table: () => this.loadMoves().then((m) => m.eventTable(this)), // the CSV's rows: interact.js
    };
  }

  /** Events in view on the GPUs drawn (the bench's count). */
  eventsInView() {
    return this.gpus
      ? eventsInView(
          this.gpus,
          this.lanes.map((l) => l.id),
          this.view.t0,
          this.view.t1,
        )
      : 0;
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeStep.stylesheet = sheet(new URL('./step.css', import.meta.url));
customElements.define('parascope-step', ParascopeStep);
