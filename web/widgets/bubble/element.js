// <parascope-bubble>: watch the pipeline bubble breathe. Pick stages, microbatches and a schedule; the engine simulates
// the timeline; the chart shows every op and the idle wedge; two gauges set honest efficiency against "GPU busy".
// State logic lives in model/*.js (valid controls, texts, colours); this file binds controls and paints.
import { selectControl, sliderControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { scheduleChoices } from '../../lib/model/engine-lists.js';
import { GANTT_LAYOUT, drawGantt, opAt, stageOfOp } from './gantt.js';
import { chartColours } from './model/colours.js';
import { canvasColours } from '../../lib/canvas-colours.js';
import { engineCheck, settle } from './model/rules.js';
import { OPS_FORMAT } from './model/request.js';
import { ATTRIBUTES as A } from './attributes.js';
import { LIMITS } from './model/state.js';
import { bubbleTexts, opText } from './model/text.js';
import { recentAnswers } from './model/recent-answers.js';
import { opsFromAttachment } from './op-columns.js';
import { watchSize } from '../../lib/size-watch.js';
import { asset } from '../../lib/assets.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';

/** The chart as vectors, loaded with the export code (where bundlers copy it: lib/widget-tools.js says why). */
const ganttSvgUrl = () => asset(new URL('./gantt-svg.js', import.meta.url), 'widgets/bubble/gantt-svg.js');

/** The palette variables the chart paints with, and what each stands for. */
/** This element's attributes: ranges and defaults (lib/model/attributes.js, the one list the guide shows). */

const CHART_VARIABLES = {
  f: '--bubble-f',
  b: '--bubble-b',
  w: '--bubble-w',
  idle: '--tax',
  bg: '--bg',
  muted: '--muted',
};

class ParascopeBubble extends ParascopeWidget {
  setup(body) {
    // The schedules and the names readers see: the engine's schedule registry (presets op), not a list of our own.
    this.enginePresets();
    this.schedules = scheduleChoices();
    this.wanted = {
      stages: this.intAttribute('stages', A.stages),
      microbatches: this.intAttribute('microbatches', A.microbatches),
      schedule: this.choiceAttribute(
        'schedule',
        this.schedules.map(([id]) => id),
        A.schedule.fallback,
      ),
      chunks: this.intAttribute('chunks', A.chunks),
      forwardOnly: this.flagAttribute('forward-only'),
    };
    this.check = engineCheck(this.engine);
    this.answers = recentAnswers(2); // the figure shown and the one before: a slider moved back redraws at once
    this.focusIndex = -1;

    const slider = (key, label) =>
      sliderControl({
        label,
        name: key,
        value: this.wanted[key],
        min: LIMITS[key][0],
        max: LIMITS[key][1],
        onInput: (v) => this.move(key, v),
        onChange: (v) => this.move(key, v),
      });
    this.controls = {
      schedule: selectControl({
        label: 'Schedule',
        name: 'schedule',
        value: this.wanted.schedule,
        options: this.schedules,
        onChange: (v) => this.move('schedule', v),
      }),
      stages: slider('stages', 'Stages (GPUs)'),
      microbatches: slider('microbatches', 'Microbatches per step'),
      chunks: slider('chunks', 'Virtual chunks per GPU'),
      forwardOnly: this.#checkbox(),
    };

    this.out = {
      efficiency: h('strong', { class: 'bubble-big', 'data-out': 'efficiency' }),
      effBar: h('div', { class: 'bubble-fill honest' }),
      dashboard: h('strong', { class: 'bubble-big busy', 'data-out': 'dashboard' }),
      dashBar: h('div', { class: 'bubble-fill busy' }),
      dashNote: h('span', { class: 'bubble-gauge-note', 'data-out': 'dashboard-note' }),
      formula: h('p', { class: 'bubble-formula', 'data-out': 'formula' }),
      closed: h('p', { class: 'bubble-formula', 'data-out': 'closed-form' }),
      activations: h('p', { class: 'bubble-formula', 'data-out': 'activations' }),
      readout: h('p', { class: 'bubble-readout', 'data-out': 'op', role: 'status', 'aria-live': 'polite' }),
    };
    this.canvas = h('canvas', { class: 'bubble-canvas', 'aria-hidden': 'true' });
    this.rows = h('div', { class: 'bubble-rows', 'aria-hidden': 'true' });
    this.marker = h('div', { class: 'bubble-marker', hidden: true });
    this.plot = h('div', { class: 'bubble-plot' }, this.canvas, this.marker);
    this.chart = h(
      'div',
      {
        class: 'bubble-chart',
        tabindex: '0',
        role: 'application',
        'data-out': 'chart',
        'aria-roledescription': 'pipeline timeline',
        'aria-describedby': 'bubble-keys',
      },
      this.rows,
      this.plot,
    );

    const gauge = (title, value, bar, note) =>
      h(
        'div',
        { class: 'bubble-gauge' },
        h('span', { class: 'bubble-gauge-title' }, title),
        value,
        h('div', { class: 'bubble-bar', role: 'presentation' }, bar),
        note,
      );
    const key = (kind, text) => h('span', { class: `key ${kind}` }, text);
    this.root = h(
      'div',
      { class: 'bubble' },
      h('div', { class: 'controls bubble-controls' }, ...Object.values(this.controls).map((c) => c.element)),
      h(
        'div',
        { class: 'bubble-gauges' },
        gauge(
          'Useful work',
          this.out.efficiency,
          this.out.effBar,
          h('span', { class: 'bubble-gauge-note' }, 'FLOPs done ÷ what the GPUs could do in the time'),
        ),
        gauge('“GPU busy” dashboard', this.out.dashboard, this.out.dashBar, this.out.dashNote),
      ),
      h(
        'div',
        { class: 'bubble-legend', 'aria-hidden': 'true' },
        key('f', 'F forward'),
        key('b', 'B backward'),
        key('w', 'W weight gradient'),
        key('idle', 'bubble (idle)'),
        key('act', 'activations held (peak)'),
      ),
      this.chart,
      h(
        'p',
        { class: 'bubble-sr', id: 'bubble-keys' },
        'Arrow keys walk the ops: left and right in time, up and ' +
          'down between GPUs; Home and End jump to a GPU’s first and last op; Escape leaves the op.',
      ),
      this.out.readout,
      this.out.formula,
      this.out.closed,
      this.out.activations,
    );
    body.append(this.root);

    this.canvas.addEventListener('pointermove', (e) => this.#hover(e));
    this.canvas.addEventListener('pointerleave', () => this.#showOp(-1));
    this.chart.addEventListener('keydown', (e) => this.#key(e));
    // The plot's size is read when it changes (in the next frame: lib/size-watch.js) and kept: a redraw after a slider
    // step must not force a layout of the whole page in the middle of the input handler (a few ms on the long article).
    this.unwatchSize = watchSize(this.plot, () => {
      this.plotSize = { width: Math.floor(this.plot.clientWidth), height: Math.floor(this.plot.clientHeight) };
      this.draw();
    });
    this.#themeWatch();
    this.move(null);
  }

  stop() {
    this.unwatchSize?.();
    this.themeObserver?.disconnect();
    this.themeQuery?.removeEventListener('change', this.themeListener);
  }

  /** The forward-half checkbox, with a hint line like the other controls. */
  #checkbox() {
    const input = h('input', {
      type: 'checkbox',
      name: 'forward-only',
      id: 'bubble-forward',
      'aria-describedby': 'bubble-forward-hint',
      checked: this.wanted.forwardOnly,
    });
    input.addEventListener('change', () => this.move('forwardOnly', input.checked));
    const line = h('span', { class: 'hint', id: 'bubble-forward-hint', hidden: true });
    return {
      element: h(
        'div',
        { class: 'control bubble-check' },
        h('span', { class: 'label' }, 'Pass'),
        h('label', { class: 'bubble-check-row', for: 'bubble-forward' }, input, 'forward half only'),
        line,
      ),
      input,
      hint: (text) => {
        line.textContent = text ?? '';
        line.hidden = !text;
      },
    };
  }

  /** The reader moved `key` to `value` (null: the first render): settle every control, then ask for the figure. */
  move(key, value) {
    if (key && this.wanted[key] === value) return; // the change event after a drag: settled already, hints stay
    const from = key ? this.wanted[key] : undefined;
    if (key) this.wanted = { ...this.wanted, [key]: value };
    let settled;
    try {
      settled = settle(this.wanted, this.check, { moved: key, from });
    } catch (err) {
      this.setNote('engine', `These settings cannot be drawn: ${err.message}`, 'warning');
      this.toggleAttribute('data-stale', true);
      return;
    }
    this.wanted = settled.state;
    this.settled = settled;
    const { shown, applies, hints } = settled;
    const c = this.controls;
    for (const name of ['stages', 'microbatches', 'chunks']) {
      if (Number(c[name].input.value) !== shown[name]) c[name].set(shown[name]);
    }
    c.schedule.input.value = shown.schedule;
    c.chunks.input.disabled = !applies.chunks;
    c.chunks.element.classList.toggle('disabled', !applies.chunks);
    c.forwardOnly.input.checked = shown.forwardOnly;
    c.forwardOnly.input.disabled = !applies.forwardOnly;
    c.forwardOnly.element.classList.toggle('disabled', !applies.forwardOnly);
    for (const [name, control] of Object.entries(c)) control.hint(hints[name]);
    this.update();
  }

  /**
   * Asks the engine for the settled request (or takes its answer from the last two drawn: a slider moved back and
   * forth) and redraws everything.
   */
  update() {
    const request = { ...this.settled.request, ops_format: OPS_FORMAT };
    const key = JSON.stringify(request);
    let r = this.answers.get(key)?.result;
    if (r) {
      this.clearNote('engine');
    } else {
      // The answer pushed out of the memo gives its memory to this one (no 1.3 MB copy per step).
      const answer = this.askWithAttachment(request, 'engine', this.answers.oldest()?.attachment ?? null);
      this.toggleAttribute('data-stale', answer === null);
      if (!answer) return;
      r = answer.response;
      r.ops = opsFromAttachment(r, answer.attachment);
      this.answers.add(key, { result: r, attachment: answer.attachment });
    }
    this.toggleAttribute('data-stale', false);
    this.result = r;
    this.focusIndex = -1;

    const text = bubbleTexts(r);
    this.texts = text;
    this.out.efficiency.textContent = text.efficiency;
    this.out.efficiency.dataset.value = String(r.efficiency);
    this.out.effBar.style.width = `${Math.min(100, r.efficiency * 100)}%`;
    this.out.dashboard.textContent = text.dashboard;
    this.out.dashboard.dataset.value = String(r.dashboard_utilization);
    this.out.dashBar.style.width = `${Math.min(100, r.dashboard_utilization * 100)}%`;
    this.out.dashNote.textContent = text.dashboardNote;
    this.out.formula.textContent = text.formula;
    this.out.closed.textContent = text.closedForm;
    this.out.activations.textContent = text.activations;
    this.announce(text.summary);
    this.chart.setAttribute('aria-label', text.chartLabel);
    this.#showOp(-1);
    this.#rowLabels(r.stages);
    this.draw();
    this.stateChanged();
  }

  /**
   * The settled state, as attributes (permalinks, file names). Every control is written, "forward-only" as "true" or
   * "false": a value left out would be taken from the element's own attribute when the link opens.
   */
  linkState() {
    if (!this.settled) return null;
    const w = this.wanted;
    return {
      schedule: w.schedule,
      stages: w.stages,
      microbatches: w.microbatches,
      chunks: w.chunks,
      'forward-only': w.forwardOnly ? 'true' : 'false',
    };
  }

  /** What an export holds: this figure as drawn (the chart as vectors), the engine's answer, its ops as a table. */
  exportFigure() {
    const r = this.result;
    if (!r) return null;
    const s = this.linkState();
    const { applies } = this.settled;
    const { ranges } = this.geometry ?? { ranges: null };
    const table = [['stage', 'microbatch', 'kind', 'chunk', 'start (forward passes)', 'end (forward passes)']];
    for (let stage = 0, i = 0; i < r.ops.kind.length; i += 1) {
      while (ranges && i >= ranges[stage + 1]) stage += 1;
      table.push([stage, r.ops.microbatch[i], r.ops.kind[i], r.ops.chunk[i], r.ops.start[i], r.ops.end[i]]);
    }
    const { ops, index, ...answer } = r;
    return {
      title:
        `${this.schedules.find(([id]) => id === s.schedule)?.[1] ?? s.schedule}: ${s.stages} stages, ${s.microbatches} microbatches` +
        `${applies.chunks ? `, ${s.chunks} chunks` : ''}${applies.forwardOnly && s['forward-only'] === 'true' ? ', forward half' : ''}` +
        `: useful work ${this.texts.efficiency}`,
      words: [
        s.schedule,
        `${s.stages}x${s.microbatches}`,
        applies.chunks ? `c${s.chunks}` : '',
        applies.forwardOnly && s['forward-only'] === 'true' ? 'forward' : '',
      ],
      root: this.root,
      // The chart as vectors: gantt-svg.js, fetched with the export code only when a figure is downloaded.
      drawers: () => import(/* webpackIgnore: true */ /* @vite-ignore */ ganttSvgUrl().href),
      vector: (canvas, box, { ganttSvg }) =>
        canvas === this.canvas ? ganttSvg(r, box, this.colours ?? this.#readColours()) : null,
      data: {
        request: this.settled.request,
        response: {
          ...answer,
          ops: {
            count: ops.kind.length,
            per_stage: ops.per_stage,
            kind: ops.kind,
            microbatch: ops.microbatch,
            chunk: ops.chunk,
            start: ops.start,
            end: ops.end,
          },
        },
      },
      table,
    };
  }

  /**
   * Redraws the chart at the current size (no engine call). Not before widget.css applies: until then the plot has no
   * height of its own and wraps the canvas, so sizing the canvas to the plot would grow both a few px every frame.
   */
  draw() {
    if (!this.result || !this.#styled()) return;
    const { width, height } = this.plotSize ?? {
      width: Math.floor(this.plot.clientWidth),
      height: Math.floor(this.plot.clientHeight),
    };
    if (width <= 0 || height <= 0) return;
    this.colours ??= this.#readColours();
    this.geometry = drawGantt(this.canvas, this.result, { width, height, colours: this.colours });
    const { rowH } = this.geometry;
    const every = Math.ceil((GANTT_LAYOUT.label + 3) / rowH); // labels 11 px or larger, never crowded
    const rowsKey = `${rowH} ${every} ${this.rows.childElementCount}`;
    if (rowsKey === this.rowsKey) {
      // the row labels already stand where they must
      this.#placeMarker();
      return;
    }
    this.rowsKey = rowsKey;
    this.rows.style.setProperty('--row-h', `${rowH}px`);
    for (const row of this.rows.children) {
      row.style.height = `${rowH}px`;
      row.classList.toggle('unlabelled', Number(row.dataset.stage) % every !== 0);
    }
    this.#placeMarker();
  }

  /** The palette as the chart paints it (CSS custom properties resolved on the widget, so a theme change follows). */
  #readColours() {
    const colours = canvasColours(this.root, this.canvas);
    const palette = Object.fromEntries(Object.entries(CHART_VARIABLES).map(([k, name]) => [k, colours.of(name)]));
    palette.fg = colours.fg;
    return chartColours(palette);
  }

  /**
   * Repaints with the new palette when the theme attribute or the reader's colour scheme changes, and once the
   * widget's stylesheet arrives if the first draw came before it (a page that does not preload it: the palette's
   * variables did not resolve yet).
   */
  #themeWatch() {
    const repaint = () => {
      this.colours = null;
      this.draw();
    };
    for (const link of this.#stylesheets()) {
      if (!link.sheet) {
        link.addEventListener(
          'load',
          () => {
            this.plotSize = null; // measured on the unstyled layout
            repaint();
          },
          { once: true },
        );
      }
    }
    this.themeObserver = new MutationObserver(repaint);
    this.themeObserver.observe(this, { attributes: true, attributeFilter: ['theme', 'style', 'class'] });
    this.themeQuery = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    this.themeListener = repaint;
    this.themeQuery?.addEventListener('change', repaint);
  }

  #stylesheets() {
    return this.shadowRoot?.querySelectorAll('link[rel="stylesheet"]') ?? [];
  }

  /** Whether the widget's stylesheets have loaded (the plot then has its fixed height). */
  #styled() {
    return Array.prototype.every.call(this.#stylesheets(), (link) => link.sheet);
  }

  #rowLabels(p) {
    if (this.rows.childElementCount === p) return;
    this.rows.replaceChildren(
      ...Array.from({ length: p }, (_, s) => h('div', { class: 'bubble-row', 'data-stage': s }, String(s))),
    );
  }

  #hover(event) {
    if (!this.geometry) return;
    const box = this.canvas.getBoundingClientRect();
    this.#showOp(opAt(this.result, this.geometry, event.clientX - box.left, event.clientY - box.top));
  }

  #key(event) {
    const r = this.result;
    if (!r || !this.geometry) return;
    const { ranges } = this.geometry;
    const n = r.ops.kind.length;
    let i = this.focusIndex;
    const stage = i >= 0 ? stageOfOp(ranges, i) : 0;
    const at = (s) => {
      // the op on stage s nearest in time to the current one
      const t = i >= 0 ? r.ops.start[i] : 0;
      let best = ranges[s];
      for (let j = ranges[s]; j < ranges[s + 1]; j += 1) {
        if (Math.abs(r.ops.start[j] - t) < Math.abs(r.ops.start[best] - t)) best = j;
      }
      return best < ranges[s + 1] ? best : -1;
    };
    switch (event.key) {
      case 'ArrowRight':
        i = i < 0 ? 0 : Math.min(n - 1, i + 1);
        break;
      case 'ArrowLeft':
        i = i < 0 ? 0 : Math.max(0, i - 1);
        break;
      case 'ArrowDown':
        i = at(Math.min(r.stages - 1, i < 0 ? 0 : stage + 1));
        break;
      case 'ArrowUp':
        i = at(Math.max(0, stage - 1));
        break;
      case 'Home':
        i = ranges[stage];
        break;
      case 'End':
        i = ranges[stage + 1] - 1;
        break;
      case 'Escape':
        i = -1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.focusIndex = i;
    this.#showOp(i);
  }

  #showOp(i) {
    this.shownOp = i;
    const r = this.result;
    if (!r) return;
    if (i < 0) {
      if (this.out.readout.textContent !== this.texts.idleReadout)
        this.out.readout.textContent = this.texts.idleReadout;
      this.out.readout.style.removeProperty('border-left-color');
      this.marker.hidden = true;
      return;
    }
    const stage = stageOfOp(this.geometry.ranges, i);
    this.out.readout.textContent = opText(r, i, stage);
    this.colours ??= this.#readColours();
    this.out.readout.style.borderLeftColor = this.colours.kindCss(r.ops.kind[i], r.ops.microbatch[i]);
    this.#placeMarker();
  }

  #placeMarker() {
    const i = this.shownOp ?? -1;
    if (!this.geometry || i < 0 || !this.result) {
      this.marker.hidden = true;
      return;
    }
    const { rowH, plotX, scale, ranges } = this.geometry;
    const { start, end } = this.result.ops;
    Object.assign(this.marker.style, {
      left: `${plotX + start[i] * scale - 1}px`,
      top: `${stageOfOp(ranges, i) * rowH - 1}px`,
      width: `${Math.max(3, (end[i] - start[i]) * scale + 2)}px`,
      height: `${rowH + 2}px`,
    });
    this.marker.hidden = false;
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeBubble.stylesheet = sheet(new URL('./bubble.css', import.meta.url));
customElements.define('parascope-bubble', ParascopeBubble);
