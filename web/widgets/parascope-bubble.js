// <parascope-bubble>: watch the pipeline bubble breathe. Pick stages, microbatches and a schedule; the engine simulates
// the timeline; the chart shows every op and the idle wedge; two gauges set honest efficiency against "GPU busy".
import { selectControl, sliderControl } from '../lib/controls.js';
import { h } from '../lib/dom.js';
import { drawGantt, kindName, opAt, opColour, stageOfOp } from '../lib/gantt.js';
import { percent } from '../lib/format.js';
import { opsFromAttachment } from '../lib/op-columns.js';
import { ParascopeWidget } from '../lib/widget.js';

const SCHEDULES = [
  ['gpipe', 'GPipe'],
  ['1f1b', '1F1B'],
  ['interleaved', 'Interleaved 1F1B'],
  ['zb-h1', 'Zero bubble H1'],
  ['zb-h2', 'Zero bubble H2'],
  ['dualpipe', 'DualPipe'],
];
const LIMITS = { stages: [1, 32], microbatches: [1, 128], chunks: [1, 8] };
const DEFAULTS = { stages: 4, microbatches: 8, schedule: '1f1b', chunks: 2, forwardOnly: false };

/** Numbers as the reader sees them: whole numbers plainly, others with up to 4 significant digits. */
const num = (x) => (Number.isInteger(x) ? x.toLocaleString('en-US') : String(Number(x.toPrecision(4))));

class ParascopeBubble extends ParascopeWidget {
  setup(body) {
    const forwardAttr = this.getAttribute('forward-only');
    this.state = {
      stages: this.intAttribute('stages', { min: LIMITS.stages[0], max: LIMITS.stages[1], fallback: DEFAULTS.stages }),
      microbatches: this.intAttribute('microbatches',
        { min: LIMITS.microbatches[0], max: LIMITS.microbatches[1], fallback: DEFAULTS.microbatches }),
      schedule: this.choiceAttribute('schedule', SCHEDULES.map(([id]) => id), DEFAULTS.schedule),
      chunks: this.intAttribute('chunks', { min: LIMITS.chunks[0], max: LIMITS.chunks[1], fallback: DEFAULTS.chunks }),
      forwardOnly: forwardAttr !== null && forwardAttr !== 'false',
    };
    this.focusIndex = -1;

    const set = (key) => (value) => {
      this.state[key] = value;
      this.update();
    };
    const slider = (key, label) => sliderControl({
      label, name: key, value: this.state[key], min: LIMITS[key][0], max: LIMITS[key][1],
      onInput: set(key), onChange: set(key),
    });
    const stages = slider('stages', 'Stages (GPUs)');
    const microbatches = slider('microbatches', 'Microbatches');
    const chunks = slider('chunks', 'Virtual chunks per GPU');
    this.chunksControl = chunks.element;
    const schedule = selectControl({ label: 'Schedule', name: 'schedule', value: this.state.schedule,
      options: SCHEDULES, onChange: set('schedule') });
    const forward = h('input', { type: 'checkbox', name: 'forward-only', checked: this.state.forwardOnly });
    forward.addEventListener('change', () => set('forwardOnly')(forward.checked));
    const forwardControl = h('label', { class: 'control bubble-check' },
      h('span', { class: 'label' }, 'Pass'), h('span', { class: 'bubble-check-row' }, forward, 'forward half only'));
    this.inputs = { stages: stages.input, microbatches: microbatches.input, chunks: chunks.input, schedule: schedule.input,
      forward };

    this.out = {
      efficiency: h('strong', { class: 'bubble-big', 'data-out': 'efficiency' }),
      effBar: h('div', { class: 'bubble-fill honest' }),
      dashboard: h('strong', { class: 'bubble-big busy', 'data-out': 'dashboard' }),
      dashBar: h('div', { class: 'bubble-fill busy' }),
      formula: h('p', { class: 'bubble-formula', 'data-out': 'formula' }),
      closed: h('p', { class: 'bubble-formula', 'data-out': 'closed-form' }),
      activations: h('p', { class: 'bubble-formula', 'data-out': 'activations' }),
      readout: h('p', { class: 'bubble-readout', 'data-out': 'op', role: 'status', 'aria-live': 'polite' },
        'Point at an op, or focus the chart and use the arrow keys.'),
    };
    this.canvas = h('canvas', { class: 'bubble-canvas', 'aria-hidden': 'true' });
    this.rows = h('div', { class: 'bubble-rows', 'aria-hidden': 'true' });
    this.marker = h('div', { class: 'bubble-marker', hidden: true });
    this.chart = h('div', { class: 'bubble-chart', tabindex: '0', role: 'img', 'data-out': 'chart' },
      this.rows, h('div', { class: 'bubble-plot' }, this.canvas, this.marker));
    this.plot = this.chart.lastChild;

    const gauge = (title, value, bar, note) => h('div', { class: 'bubble-gauge' },
      h('span', { class: 'bubble-gauge-title' }, title), value,
      h('div', { class: 'bubble-bar', role: 'presentation' }, bar), h('span', { class: 'bubble-gauge-note' }, note));
    body.append(h('div', { class: 'bubble' },
      h('div', { class: 'controls' }, stages.element, microbatches.element, schedule.element, chunks.element,
        forwardControl),
      h('div', { class: 'bubble-gauges' },
        gauge('Useful work', this.out.efficiency, this.out.effBar, 'FLOPs done ÷ what the GPUs could do in the time'),
        gauge('“GPU busy” dashboard', this.out.dashboard, this.out.dashBar, 'a kernel is resident, even while waiting')),
      h('div', { class: 'bubble-legend', 'aria-hidden': 'true' },
        h('span', { class: 'key f' }, 'F forward'), h('span', { class: 'key b' }, 'B backward'),
        h('span', { class: 'key w' }, 'W weight gradient'), h('span', { class: 'key idle' }, 'bubble (idle)'),
        h('span', { class: 'key act' }, 'activations held (peak)')),
      this.chart, this.out.readout, this.out.formula, this.out.closed, this.out.activations));

    this.canvas.addEventListener('pointermove', (e) => this.#hover(e));
    this.canvas.addEventListener('pointerleave', () => this.#showOp(-1));
    this.chart.addEventListener('keydown', (e) => this.#key(e));
    this.resizer = new ResizeObserver(() => this.draw());
    this.resizer.observe(this.plot);
    this.update();
  }

  stop() {
    this.resizer?.disconnect();
  }

  /** Asks the engine for the current settings and redraws everything. */
  update() {
    const { stages, microbatches, schedule, chunks, forwardOnly } = this.state;
    this.chunksControl.hidden = schedule !== 'interleaved';
    const request = { op: 'pipeline', schedule, stages, microbatches, forward_only: forwardOnly, ops_format: 'binary' };
    if (schedule === 'interleaved') request.chunks = chunks;
    const answer = this.askWithAttachment(request);
    this.toggleAttribute('data-stale', answer === null);
    if (!answer) return;
    const r = answer.response;
    r.ops = opsFromAttachment(r, answer.attachment);
    this.result = r;
    this.focusIndex = -1;
    this.#showOp(-1);

    this.out.efficiency.textContent = percent(r.efficiency);
    this.out.efficiency.dataset.value = String(r.efficiency);
    this.out.effBar.style.width = `${Math.min(100, r.efficiency * 100)}%`;
    this.out.dashboard.textContent = percent(r.dashboard_utilization, 0);
    this.out.dashboard.dataset.value = String(r.dashboard_utilization);
    this.out.dashBar.style.width = `${Math.min(100, r.dashboard_utilization * 100)}%`;
    this.out.formula.textContent = `Useful work = busy time ÷ (stages × makespan) = ${num(r.useful_time)} ÷ (${r.stages} × `
      + `${num(r.makespan)}) = ${percent(r.efficiency)}; the other ${percent(r.bubble_fraction)} is bubble.`;
    const cf = r.closed_form;
    const measured = r[cf.measure];
    const measureName = cf.measure === 'bubble_fraction' ? 'bubble' : 'bubble inside each GPU’s own span';
    this.out.closed.textContent = `Known form (${cf.source}): ${measureName} = ${cf.formula} = ${cf.substituted}`
      + `${cf.value === null ? ` (holds when ${cf.condition})` : ` = ${percent(cf.value)}`}; simulated here: `
      + `${percent(measured)}.`;
    const peak = r.peak_activations;
    const unit = r.chunks > 1 ? 'chunk activations' : 'microbatches’ activations';
    const most = Math.max(...peak);
    const least = Math.min(...peak);
    const spread = most === least ? `${most} ${unit} on every GPU` : `from ${most} down to ${least} ${unit}`;
    this.out.activations.textContent = `Activations in flight (peak per GPU, the grey column): ${spread}`
      + `${forwardOnly ? ' (forward half only: no backward has freed any yet)' : ''}.`;
    this.chart.setAttribute('aria-label', `Timeline of ${r.stages} GPUs running ${r.microbatches} microbatches with `
      + `${SCHEDULES.find(([id]) => id === r.schedule)[1]}: ${percent(r.bubble_fraction)} of the GPU time is bubble.`);
    this.#rowLabels(r.stages);
    this.draw();
  }

  /** Redraws the chart at the current width (no engine call). */
  draw() {
    if (!this.result) return;
    const width = Math.floor(this.plot.clientWidth);
    if (width <= 0) return;
    this.geometry = drawGantt(this.canvas, this.result, width);
    for (const row of this.rows.children) row.style.height = `${this.geometry.rowH}px`;
    this.rows.classList.toggle('tiny', this.geometry.rowH < 11);
    this.#placeMarker();
  }

  #rowLabels(p) {
    if (this.rows.childElementCount === p) return;
    this.rows.replaceChildren(...Array.from({ length: p }, (_, s) => h('div', { class: 'bubble-row', 'data-stage': s },
      String(s))));
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
    const at = (s) => {  // the op on stage s nearest in time to the current one
      const t = i >= 0 ? r.ops.start[i] : 0;
      let best = ranges[s];
      for (let j = ranges[s]; j < ranges[s + 1]; j += 1) {
        if (Math.abs(r.ops.start[j] - t) < Math.abs(r.ops.start[best] - t)) best = j;
      }
      return best < ranges[s + 1] ? best : -1;
    };
    switch (event.key) {
      case 'ArrowRight': i = i < 0 ? 0 : Math.min(n - 1, i + 1); break;
      case 'ArrowLeft': i = i < 0 ? 0 : Math.max(0, i - 1); break;
      case 'ArrowDown': i = at(Math.min(r.stages - 1, i < 0 ? 0 : stage + 1)); break;
      case 'ArrowUp': i = at(Math.max(0, stage - 1)); break;
      case 'Home': i = ranges[stage]; break;
      case 'End': i = ranges[stage + 1] - 1; break;
      case 'Escape': i = -1; break;
      default: return;
    }
    event.preventDefault();
    this.focusIndex = i;
    this.#showOp(i);
  }

  #showOp(i) {
    this.shownOp = i;
    const r = this.result;
    if (!r || i < 0) {
      this.marker.hidden = true;
      if (r) this.out.readout.textContent = `${percent(r.bubble_fraction)} bubble over a makespan of ${num(r.makespan)}`
        + ` (time unit: one forward pass${r.chunks > 1 ? ' of one chunk' : ''}). Point at an op, or focus the chart and`
        + ' use the arrow keys.';
      return;
    }
    const { microbatch, kind, chunk, start, end } = r.ops;
    const k = kind[i];
    this.out.readout.textContent = `GPU ${stageOfOp(this.geometry.ranges, i)} · microbatch ${microbatch[i]} · ${kindName(k)} (${k})`
      + `${r.chunks > 1 || r.schedule === 'dualpipe' ? ` · chunk ${chunk[i]}` : ''} · from ${num(start[i])} to `
      + `${num(end[i])}`;
    this.out.readout.style.borderLeftColor = opColour(microbatch[i], k);
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

customElements.define('parascope-bubble', ParascopeBubble);
