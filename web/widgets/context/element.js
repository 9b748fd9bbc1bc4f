// <parascope-context>: context parallelism step by step. The sequence cut into 2·cp chunks (zig-zag or contiguous),
// keys and values passed around a ring of GPUs (or all-gathered), the causal attention blocks each step computes,
// each step's attention beside its transfer with the exposed part hatched, and what it buys and costs. Every number
// is the engine's `context_ring` answer (engine/API.md); model/*.js turns it into what to draw and say.
import { selectControl, sliderControl, stepButtons } from '../../lib/controls.js';
import { h, setAttributes, setText } from '../../lib/dom.js';
import { chipChoices } from '../../lib/model/engine-lists.js';
import { EngineError } from '../../lib/engine.js';
import { grouped, seconds } from '../../lib/format.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { ATTRIBUTES as A } from './attributes.js';
import { balanceSvg, breakEvenSvg } from './charts.js';
import { contextFigure } from './figure.js';
import { idleWork } from './idle-work.js';
import { lanesSvg } from './lanes-svg.js';
import { curvePoints } from './model/curve.js';
import { contextErrorText } from './model/errors.js';
import { laneRows } from './model/lanes.js';
import { breakEvenText, facts, lanesNote, summary } from './model/readout.js';
import { CP_VALUES, SEQUENCES, TP_VALUES, contextRequest, ladderKey, withValue } from './model/request.js';
import { positionsOf, stepView } from './model/step-view.js';

const STEP_MS = 800; // one ring step's travel at 1×
const KEPT_LADDERS = 16; // settings' answers kept (10 lengths each); warmUp fills one per cp: the newest 4 settings

/** The break-even chart's accessible name for `answer`. */
const curveLabel = (answer) =>
  `A forward ring step's attention and K/V transfer time against sequence length. ${breakEvenText(answer)}`;

/** `el` with class `name` added (context.css places these controls in the grid). */
const withClass = (el, name) => {
  el.classList.add(name);
  return el;
};

class ParascopeContext extends ParascopeWidget {
  setup(body) {
    const presets = this.enginePresets();
    this.models = presets.models;
    this.names = {
      model: new Map(presets.models.map((m) => [m.id, m.name])),
      hardware: new Map(presets.hardware.map((x) => [x.id, x.name])),
    };
    this.state = {
      model: this.choiceAttribute('model', [...this.names.model.keys()], A.model.fallback),
      hardware: this.choiceAttribute('hardware', [...this.names.hardware.keys()], A.hardware.fallback),
      tp: this.intAttribute('tp', A.tp),
      cp: this.intAttribute('cp', A.cp),
      sequence: this.intAttribute('sequence', A.sequence),
      split: this.choiceAttribute('split', A.split.choices, A.split.fallback),
      variant: this.choiceAttribute('variant', A.variant.choices, A.variant.fallback),
      kernel: this.choiceAttribute('kernel', A.kernel.choices, A.kernel.fallback),
    };
    this.position = 0;
    this.playing = false;
    this.ladders = new Map(); // ladderKey -> (sequence length -> { answer, error }), the newest KEPT_LADDERS
    this.figures = new Map(); // cp -> its drawing (figure.js)
    this.figureCp = null;
    this.factRows = null;
    this.curve = null;
    this.ladderToken = 0; // a newer change cancels the break-even chart's fill after the frame (curveLater)
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
    this.build(body, presets);
    this.refresh({ ladderNow: true });
    this.warmUp();
  }

  build(body, presets) {
    const s = this.state;
    const select = (label, name, value, options) =>
      selectControl({ label, name, value: String(value), options, onChange: (v) => this.change({ [name]: v }) })
        .element;
    this.sequences = withValue(SEQUENCES, s.sequence);
    this.cps = withValue(CP_VALUES, s.cp);
    const controls = h(
      'div',
      { class: 'controls' },
      select(
        'Model',
        'model',
        s.model,
        presets.models.map((m) => [m.id, m.name]),
      ),
      withClass(select('Accelerator', 'hardware', s.hardware, chipChoices(presets)), 'context-chip'),
      selectControl({
        label: 'Tensor parallel (per cp rank)',
        name: 'tp',
        value: String(s.tp),
        options: withValue(TP_VALUES, s.tp).map((v) => [String(v), String(v)]),
        onChange: (v) => this.change({ tp: Number(v) }),
      }).element,
      sliderControl({
        label: 'Context parallel (GPUs per sequence)',
        name: 'cp',
        value: this.cps.indexOf(s.cp),
        min: 0,
        max: this.cps.length - 1,
        format: (i) => String(this.cps[i]),
        onInput: (i) => this.change({ cp: this.cps[i] }),
      }).element,
      withClass(
        sliderControl({
          label: 'Sequence length',
          name: 'sequence',
          value: this.sequences.indexOf(s.sequence),
          min: 0,
          max: this.sequences.length - 1,
          format: (i) => `${grouped(this.sequences[i])} tokens`,
          onInput: (i) => this.change({ sequence: this.sequences[i] }),
        }).element,
        'context-sequence',
      ),
      select('Chunks', 'split', s.split, [
        ['zigzag', 'zig-zag (balanced)'],
        ['contiguous', 'contiguous'],
      ]),
      select('Keys and values', 'variant', s.variant, [
        ['p2p', 'ring passing (P2P)'],
        ['all-gather', 'all-gathered at once'],
      ]),
      select('Attention kernel', 'kernel', s.kernel, [
        ['fused', 'fused (skips masked)'],
        ['unfused', 'unfused (every block)'],
      ]),
    );
    this.out = {
      summary: h('p', { class: 'context-summary', 'aria-live': 'polite', 'data-out': 'summary' }),
      problem: h('p', { class: 'context-problem', role: 'alert', 'data-out': 'problem', hidden: true }),
      status: h('p', { class: 'context-status', 'data-out': 'status' }),
      lanes: h('div', { class: 'context-lanes-box', 'data-out': 'lanes' }),
      lanesNote: h('p', { class: 'formula', 'data-out': 'lanes-note' }),
      facts: h('dl', { class: 'facts context-facts', 'data-out': 'facts' }),
      balance: h('div', { class: 'context-chart', 'data-out': 'balance' }),
      curve: h('div', { class: 'context-chart', 'data-out': 'curve' }),
      curveNote: h(
        'p',
        { class: 'formula', 'data-out': 'curve-note' },
        'Each point is the engine at that length; attention grows with the square of a chunk, its transfer with its length.',
      ),
    };
    this.figureBox = h('div', {
      class: 'context-figure',
      tabindex: '0',
      role: 'slider',
      'aria-valuemin': '1',
      'aria-keyshortcuts': 'ArrowLeft ArrowRight Home End Space',
    });
    this.buttons = stepButtons({
      start: () => this.go(0),
      back: () => this.back(),
      toggle: () => this.toggle(),
      forward: () => this.forward(),
    });
    const key = (cls, text) => h('span', { class: `context-key ${cls}` }, text);
    const stage = h(
      'div',
      { class: 'context-stage' },
      this.out.status,
      this.figureBox,
      h('div', { class: 'context-transport' }, ...Object.values(this.buttons)),
      h('p', { class: 'context-legend' }, key('current', 'computed at this step'), key('past', 'at an earlier step')),
      h(
        'p',
        { class: 'context-legend-note' },
        'Grey squares are still to compute; the blank ones above the diagonal are masked: a token never attends to ' +
          'a later one, and a fused kernel skips them.',
      ),
    );
    stage.addEventListener('keydown', (e) => this.key(e));
    const side = h(
      'div',
      { class: 'context-side result' },
      h('p', { class: 'context-chart-title' }, 'One layer on the busiest GPU: attention beside K/V transfer'),
      this.out.lanes,
      h(
        'p',
        { class: 'context-legend' },
        key('compute', 'attention'),
        key('transfer', 'K/V transfer'),
        key('exposed', 'exposed: attention waits'),
      ),
      this.out.lanesNote,
      this.out.facts,
      h('p', { class: 'context-chart-title' }, 'Attention FLOPs per GPU'),
      this.out.balance,
      h('p', { class: 'context-legend' }, key('contiguous', 'contiguous'), key('zigzag', 'zig-zag')),
      h('p', { class: 'context-chart-title' }, 'Where the ring starts to hide its transfers (tokens; log scales)'),
      this.out.curve,
      h('p', { class: 'context-legend' }, key('compute', 'attention per step'), key('transfer', 'K/V per step')),
      this.out.curveNote,
    );
    this.root = h(
      'div',
      { class: 'context' },
      controls,
      this.out.summary,
      this.out.problem,
      h('div', { class: 'context-layout' }, stage, side),
    );
    body.append(this.root);
  }

  stop() {
    // A break-even chart still filling (curveLater) is left to finish, ten requests at most: a figure moved in the page
    // (removed, then added) does not start again and would keep it pending.
    this.pause();
    this.figure?.cancel();
    this.warming?.cancel();
    this.warming = null;
  }

  /** The engine's answer at sequence length `seq` for `state` (the current settings): { answer, error }, asked once. */
  askAt(seq, state = this.state) {
    const key = ladderKey(state);
    if (!this.ladders.has(key)) {
      if (this.ladders.size >= KEPT_LADDERS) this.ladders.delete(this.ladders.keys().next().value); // the oldest
      this.ladders.set(key, new Map());
    }
    const answers = this.ladders.get(key);
    if (answers.has(seq)) return answers.get(seq);
    const asked = { seq, answer: null, error: null };
    try {
      asked.answer = this.engine.call(contextRequest(this.models, state, seq));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      asked.error = err;
    }
    answers.set(seq, asked);
    return asked;
  }

  change(patch) {
    const before = JSON.stringify([this.state.cp, this.state.variant]);
    Object.assign(this.state, patch);
    if (JSON.stringify([this.state.cp, this.state.variant]) !== before) this.position = 0;
    this.refresh();
    this.warmUp();
    this.stateChanged();
  }

  /**
   * Asks the engine for the settings and draws everything. The break-even chart's ladder (a request per sequence
   * length, asked once per ladder key), when not all answered yet, is asked and drawn after this frame unless
   * `ladderNow` (the first drawing).
   */
  refresh({ ladderNow = false } = {}) {
    this.pause();
    this.figure?.cancel();
    this.cancelLadder();
    const { answer, error } = this.askAt(this.state.sequence);
    this.answer = answer;
    this.root.toggleAttribute('data-refused', !answer);
    this.out.problem.toggleAttribute('hidden', Boolean(answer)); // as `hidden =`, an unchanged value not written
    this.toggleAttribute('data-stale', !answer);
    if (!answer) {
      setText(this.out.problem, contextErrorText(error, this.state));
      this.out.problem.dataset.code = error?.code ?? '';
      this.announce(this.out.problem.textContent);
      return;
    }
    if (this.figureCp !== answer.cp) this.showFigure(answer.cp);
    const names = {
      model: this.names.model.get(this.state.model),
      hardware: this.names.hardware.get(this.state.hardware),
    };
    setText(this.out.summary, summary(answer, this.state, names)); // each line written only when it changed
    this.drawFacts(answer);
    this.drawCharts(answer, ladderNow);
    this.render();
    this.announce(this.out.summary.textContent);
  }

  /**
   * Shows the drawing for `cp`. One drawing per cp, made once and kept in place, the others hidden with their layout
   * kept (context.css, .context-slot): a cp slider moving back and forth shows another drawing instead of building
   * or laying out its 4cp² blocks again (tests/bench/context.bench.mjs).
   */
  showFigure(cp) {
    this.figureFor(cp).prepared = true; // shown: warmUp leaves it
    for (const [other, figure] of this.figures) figure.slot.toggleAttribute('data-off', other !== cp);
    this.figure = this.figures.get(cp);
    this.figureCp = cp;
  }

  /** The drawing for `cp`, built (hidden) if not yet. */
  figureFor(cp) {
    if (!this.figures.has(cp)) {
      const figure = contextFigure(cp);
      figure.element.setAttribute('aria-hidden', 'true'); // the slider around it speaks for it
      figure.slot = h('div', { class: 'context-slot', 'data-off': '' }, figure.element);
      this.figures.set(cp, figure);
      this.figureBox.append(figure.slot);
    }
    return this.figures.get(cp);
  }

  /**
   * While the page is idle, a piece at a time (idle-work.js): for every cp the slider reaches, nearest first, the
   * engine's answer at this length, its drawing built hidden, then shown at its first step and laid out (two pieces:
   * at cp 16 each is 5–15 ms), then each cp's chart ladder. A cp's first press then finds all of it kept, as a press
   * back to a cp seen before does (tests/bench/context.bench.mjs, first visits). Started again after each change,
   * for the new settings; what is kept is never asked twice.
   */
  warmUp() {
    if (this.warming) return; // its next piece reads the settings then
    this.warming = idleWork(() => {
      const piece = this.warmPiece();
      if (!piece) this.warming = null;
      return piece;
    });
  }

  /** The next piece of warmUp's work for the current settings, or null when all of it is kept. */
  warmPiece() {
    const here = this.cps.indexOf(this.state.cp);
    const near = this.cps.map((cp, i) => [Math.abs(i - here), cp]).sort((a, b) => a[0] - b[0]);
    const settings = near.map(([, cp]) => ({ ...this.state, cp }));
    const kept = (s, seq) => this.ladders.get(ladderKey(s))?.has(seq);
    for (const s of settings) {
      if (!kept(s, s.sequence)) return () => this.askAt(s.sequence, s);
      if (!this.figures.has(s.cp)) return () => this.figureFor(s.cp);
      if (!this.figures.get(s.cp).prepared) return () => this.prepareFigure(s);
    }
    for (const s of settings) {
      const seq = this.sequences.find((x) => !kept(s, x));
      if (seq !== undefined) return () => this.askAt(seq, s);
    }
    return null;
  }

  /** Shows the first step of `s`'s answer in `s.cp`'s drawing, hidden, and lays it out (warmUp). */
  prepareFigure(s) {
    const figure = this.figureFor(s.cp);
    figure.prepared = true;
    const { answer } = this.askAt(s.sequence, s);
    if (answer) figure.show(stepView(answer, s, 0));
    // Styled and laid out now, and rendered unseen through the next frame (context.css, data-rendering): hidden
    // after that, it keeps its rendering for the press that shows it, as a drawing shown before does.
    figure.slot.toggleAttribute('data-rendering', true);
    void figure.slot.offsetHeight;
    requestAnimationFrame(() => setTimeout(() => figure.slot.removeAttribute('data-rendering'), 0));
  }

  /** The facts panel: its rows made once, their words and values rewritten on each change. */
  drawFacts(answer) {
    const rows = facts(answer, this.state);
    if (!this.factRows) {
      this.factRows = new Map(rows.map((f) => [f.key, { dt: h('dt', {}), dd: h('dd', { 'data-out': f.key }) }]));
      this.out.facts.replaceChildren(...[...this.factRows.values()].flatMap((r) => [r.dt, r.dd]));
    }
    for (const f of rows) {
      const row = this.factRows.get(f.key);
      if (row.dt.textContent !== f.label) row.dt.textContent = f.label;
      if (row.dd.textContent !== f.text) row.dd.textContent = f.text;
      setAttributes(row.dd, { 'data-value': f.value });
    }
  }

  drawCharts(answer, ladderNow) {
    const zig = this.state.split === 'zigzag';
    this.out.balance.replaceChildren(
      balanceSvg(
        answer,
        this.state.split,
        `Attention FLOPs of one forward pass per GPU, contiguous against zig-zag chunks; the busiest GPU does ` +
          `${Number((zig ? answer.balance.zigzag_max_over_mean : answer.balance.contiguous_max_over_mean).toFixed(2))}× the mean.`,
      ),
    );
    if (this.curveKey === ladderKey(this.state) && this.curve) {
      // Drawn once per setting but the length: the length slider only moves its mark. (Back to the drawn setting
      // before another's fill ended: it is current again.)
      this.curve.mark(answer.sequence);
      setAttributes(this.curve, { 'aria-label': curveLabel(answer) });
      this.curveSettled();
    } else if (ladderNow || this.sequences.every((seq) => this.ladders.get(ladderKey(this.state)).has(seq)))
      this.drawCurve(answer); // every length answered before: no request, drawn in this frame
    else this.curveLater(answer);
  }

  /** The break-even chart for the current settings, from the ladder's answers (asked here if not yet). */
  drawCurve(answer) {
    this.curve = breakEvenSvg(curvePoints(this.sequences.map((seq) => this.askAt(seq))), answer, curveLabel(answer));
    this.curveKey = ladderKey(this.state);
    this.out.curve.replaceChildren(this.curve);
    this.curveSettled();
  }

  /** The break-even chart shows the current setting: no longer pending (curveLater). */
  curveSettled() {
    this.out.curve.removeAttribute('data-pending');
    this.out.curve.removeAttribute('aria-busy');
  }

  /**
   * The break-even chart after this frame: the press's frame draws the rest with one engine request, the chart shown
   * pending (context.css: faded, its marks hidden; its size kept); then, a task each after the frame, the ladder's
   * lengths not asked yet, and the chart drawn. A newer change cancels it (cancelLadder), so it never draws an older
   * setting's curve.
   */
  curveLater(answer) {
    this.out.curve.toggleAttribute('data-pending', true);
    setAttributes(this.out.curve, { 'aria-busy': 'true' });
    const token = this.ladderToken;
    const answers = this.ladders.get(ladderKey(this.state));
    const step = () => {
      if (token !== this.ladderToken) return;
      const missing = this.sequences.find((seq) => !answers.has(seq));
      if (missing === undefined) this.drawCurve(answer);
      else {
        this.askAt(missing);
        this.ladderTimer = setTimeout(step, 0);
      }
    };
    this.ladderFrame = requestAnimationFrame(() => {
      this.ladderTimer = setTimeout(step, 0); // a task posted inside the frame runs after it
    });
  }

  /** Cancels a break-even chart still to be filled (curveLater). */
  cancelLadder() {
    this.ladderToken += 1;
    cancelAnimationFrame(this.ladderFrame);
    clearTimeout(this.ladderTimer);
  }

  /** Draws the stepper's position: the figure, the status, the lanes with the current step outlined. */
  render() {
    const a = this.answer;
    if (!a) return;
    const view = stepView(a, this.state, this.position);
    this.view = view;
    this.figure.show(view);
    setText(this.out.status, view.status);
    setAttributes(this.out.status, { 'data-position': view.position });
    setAttributes(this.figureBox, {
      'aria-valuemax': view.positions,
      'aria-valuenow': view.position + 1,
      'aria-valuetext': view.label,
      'aria-label': `Step of context parallelism over ${a.cp} GPUs`,
    });
    const lanes = laneRows(a, this.state.variant, this.state.split);
    this.out.lanes.replaceChildren(
      lanesSvg(
        lanes,
        view.position,
        `One layer's attention forward and backward on the busiest GPU: ${seconds(lanes.rows[0].total)} and ` +
          `${seconds(lanes.rows[1].total)}, of which ${seconds(lanes.rows[0].exposed)} and ` +
          `${seconds(lanes.rows[1].exposed)} exposed.`,
      ),
    );
    setText(this.out.lanesNote, lanesNote(a, this.state));
    this.buttons.back.toggleAttribute('disabled', view.position === 0);
    this.buttons.reset.toggleAttribute('disabled', view.position === 0);
    this.buttons.forward.toggleAttribute('disabled', view.position === view.positions - 1);
  }

  get positions() {
    return this.answer ? positionsOf(this.answer, this.state.variant) : 0;
  }

  go(position) {
    this.figure?.cancel();
    this.position = Math.max(0, Math.min(this.positions - 1, position));
    if (this.position === this.positions - 1) this.pause();
    this.render();
  }

  back() {
    this.pause();
    this.go(this.position - 1);
  }

  /** One step forward: in the ring, the keys and values travel to the next GPU first (unless motion is reduced). */
  async forward() {
    const p = this.position;
    if (!this.answer || p >= this.positions - 1) return;
    if (this.reducedMotion.matches || this.state.variant !== 'p2p') {
      this.go(p + 1);
      return;
    }
    this.moving = true;
    const arrived = await this.figure.animate(this.view, STEP_MS);
    this.moving = false;
    if (arrived && this.position === p) this.go(p + 1);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  async play() {
    if (this.position >= this.positions - 1) this.go(0);
    this.playing = true;
    this.buttons.play.textContent = '❚❚ Pause';
    this.buttons.play.setAttribute('aria-pressed', 'true');
    const token = (this.playToken = (this.playToken ?? 0) + 1);
    const live = () => this.playing && token === this.playToken;
    while (live() && this.position < this.positions - 1) {
      if (!this.moving) await this.forward();
      if (!live()) return;
      await new Promise((resolve) => {
        this.timer = setTimeout(resolve, this.reducedMotion.matches ? STEP_MS : 300);
      });
    }
    if (live()) this.pause();
  }

  pause() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.playing = false;
    this.buttons.play.textContent = '▶ Play';
    this.buttons.play.setAttribute('aria-pressed', 'false');
  }

  key(e) {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    const onButton = e.target instanceof HTMLButtonElement;
    if (e.key === 'ArrowRight' || e.key === 'ArrowUp') {
      this.pause();
      if (this.moving) this.go(this.position + 1);
      else this.forward();
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') this.back();
    else if (e.key === ' ' && !onButton) this.toggle();
    else if (e.key === 'Home') {
      this.pause();
      this.go(0);
    } else if (e.key === 'End') {
      this.pause();
      this.go(this.positions - 1);
    } else return;
    e.preventDefault();
  }

  linkState() {
    return this.state ? { ...this.state } : null;
  }

  exportFigure() {
    if (!this.root || !this.answer) return null;
    if (this.out.curve.hasAttribute('data-pending')) {
      this.cancelLadder();
      this.drawCurve(this.answer); // an export shows the chart of what it exports, even mid-fill
    }
    const s = this.state;
    const a = this.answer;
    return {
      title: this.out.summary.textContent,
      words: [s.model, s.hardware, `cp${s.cp}`, `tp${s.tp}`, `${s.sequence}tok`, s.split, s.variant],
      root: this.root,
      data: { request: contextRequest(this.models, s), response: a },
      table: [
        ['pass', 'step', 'compute_flops', 'compute_time (s)', 'transfer_bytes', 'transfer_time (s)', 'exposed (s)'],
        ...[
          ['forward', a.p2p.forward],
          ['backward', a.p2p.backward],
          ['contiguous forward', a.p2p.contiguous.forward],
          ['contiguous backward', a.p2p.contiguous.backward],
        ].flatMap(([pass, p]) =>
          p.steps.map((x) => [
            pass,
            x.step,
            x.compute_flops,
            x.compute_time,
            x.transfer_bytes,
            x.transfer_time,
            x.exposed,
          ]),
        ),
        [],
        ['quantity', 'value'],
        ...facts(a, s).map((f) => [f.key, f.value]),
        ['all_gather.exposed (s)', a.all_gather.exposed],
        ['all_gather.forward_compute_time (s)', a.all_gather.forward_compute_time],
        ['all_gather.backward_compute_time (s)', a.all_gather.backward_compute_time],
        ['all_gather.contiguous_forward_compute_time (s)', a.all_gather.contiguous_forward_compute_time],
        ['all_gather.contiguous_backward_compute_time (s)', a.all_gather.contiguous_backward_compute_time],
        ['p2p.exposed (s)', a.p2p.exposed],
        ['p2p.contiguous.exposed (s)', a.p2p.contiguous.exposed],
      ],
    };
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeContext.stylesheet = sheet(new URL('./context.css', import.meta.url));
customElements.define('parascope-context', ParascopeContext);
