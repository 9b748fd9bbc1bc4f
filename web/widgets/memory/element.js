// <parascope-memory>: where one GPU's memory goes through one training step. The engine's `memory_timeline` gives the
// time axis and each stretch's bytes, and in its `step` the step's own answer (the memory per GPU, whether it fits,
// the memory error band), so a move asks the engine once; each control's move is told as the difference of the
// engine's answers before and after it. Model in model/*.js.
import { selectControl, sliderControl } from '../../lib/controls.js';
import { h, setAttributes, setText } from '../../lib/dom.js';
import { bytes, grouped } from '../../lib/format.js';
import { EngineError } from '../../lib/engine.js';
import { sheet } from '../../lib/sheets.js';
import { watchSize } from '../../lib/size-watch.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { ATTRIBUTES as A } from './attributes.js';
import { memoryChart } from './chart.js';
import { buysText } from './model/buys.js';
import { CONTROLS, controlChoices, controlValue, parseControl } from './model/choices.js';
import { memoryErrorText } from './model/errors.js';
import { bandText, headline, momentText, stageWords, zeroNote } from './model/readout.js';
import { asArrays, withColumns } from './model/columns.js';
import { timelineRequest } from './model/request.js';
import { PARTS, moment } from './model/stack.js';
import { readState, stateValues } from './model/state.js';
import { exportTable, legendParts } from './model/export.js';

class ParascopeMemory extends ParascopeWidget {
  setup(body) {
    this.presets = this.enginePresets();
    this.state = readState(this, A, this.presets);
    this.build(body);
    this.refresh();
    // The chart's width is read here, in the frame after the box changed, never while a move redraws the chart:
    // reading it there laid the whole figure out a second time per move (the move had just changed its text).
    this.unwatchSize = watchSize(this.plot, () => {
      const width = Math.floor(this.plot.clientWidth);
      if (width && width !== this.plotWidth) {
        this.plotWidth = width;
        this.drawChart();
      }
    });
  }

  stop() {
    this.unwatchSize?.();
  }

  build(body) {
    this.controls = {};
    this.controlBox = h('div', { class: 'controls mem-controls' });
    this.stage = sliderControl({
      label: 'Stage drawn',
      name: 'stage',
      value: 0,
      min: 0,
      max: 0,
      format: (i) => stageWords(i, this.step?.parallel.pp ?? 1, this.timeline?.most_loaded_stage ?? 0),
      onInput: (i) => this.pickStage(i),
    });
    this.plot = h('div', {
      class: 'mem-plot',
      tabindex: '0',
      role: 'group',
      'aria-label': 'Memory through the step: the left and right arrow keys walk it, Home and End go to its ends',
      'data-out': 'chart',
    });
    this.chartView = memoryChart(); // built once, redrawn in place by each move (chart.js)
    this.plot.addEventListener('keydown', (e) => this.key(e));
    this.plot.addEventListener('pointermove', (e) => this.point(e));
    this.out = {
      config: h('p', { class: 'mem-config', 'data-out': 'config' }),
      headline: h('p', { class: 'memory-headline result', 'data-out': 'headline', 'aria-live': 'polite' }),
      problem: h('p', { class: 'mem-problem', 'data-out': 'problem', role: 'alert', hidden: true }),
      // what the last move bought (also the moved control's description): history, not linked state; before any
      // move, how to read it
      buys: h(
        'p',
        { class: 'mem-buys', 'aria-live': 'polite' },
        'Change a control: what the move buys and costs appears here, from the engine’s answers before and after.',
      ),
      legend: h('ul', { class: 'mem-legend', 'data-out': 'legend' }),
      moment: h('p', { class: 'mem-moment', 'data-out': 'moment', 'aria-live': 'polite' }),
      band: h('p', { class: 'mem-band-words', 'data-out': 'band' }),
    };
    this.root = h(
      'div',
      { class: 'memory' },
      this.out.config,
      this.controlBox,
      this.out.buys,
      this.out.problem,
      this.out.headline,
      h('div', { class: 'controls' }, this.stage.element),
      this.plot,
      this.out.legend,
      this.out.moment,
      this.out.band,
      h(
        'details',
        { class: 'mem-sources fold' },
        h('summary', {}, 'Where these bytes come from'),
        h(
          'p',
          { class: 'formula' },
          'The engine’s memory model (engine/API.md, step: Memory; memory_model.cpp): bf16 weights, gradients and ' +
            '12-byte Adam states sharded per ZeRO stage (Rajbhandari et al. 2020); activations per layer from ' +
            'Korthikanti et al. 2022 Table 2, held from a microbatch’s forward to the end of its backward as the ' +
            'schedule runs (the pipeline engine’s own simulation); the loss’s logits or one layer’s backward ' +
            'workspace; the caching allocator’s reserve and the CUDA context and NCCL buffers outside it. Optimizer ' +
            'offload (ZeRO-Offload, Ren et al. 2021; Megatron-Core’s hybrid optimizer) moves a share of the ' +
            'Adam state to the host: the chart draws what stays on the GPU, and what the move buys names the ' +
            'host’s bytes and the time its copies and host steps add (engine/API.md, step: Host offload).',
        ),
      ),
    );
    body.append(this.root);
    this.buildControls();
  }

  /** The selects, rebuilt when the model changes (its sequence lengths and experts differ). */
  buildControls() {
    const s = this.state;
    const choices = controlChoices(s, this.presets);
    const dense = (this.presets.models.find((m) => m.id === s.model)?.experts ?? 1) <= 1;
    this.controlBox.replaceChildren();
    this.hinted = null; // the control whose hint says what the last move bought
    for (const [key, attr, label, words] of CONTROLS) {
      const control = selectControl({
        label,
        name: attr,
        options: choices[key],
        value: controlValue(key, s, this.step, this.presets),
        onChange: (v) => this.change(key, v, words(v, choices[key].find(([x]) => x === v)?.[1] ?? v)),
      });
      if (key === 'ep') control.input.disabled = dense && s.ep === 1;
      if (key === 'reshard') control.input.disabled = s.zero !== '3';
      this.controls[key] = control;
      this.controlBox.append(control.element);
    }
  }

  /** A control moved: the engine is asked again, and the move's control says what it bought. */
  change(key, v, words) {
    const before = this.step;
    const patch = { [key]: parseControl(key, v, this.state, this.presets) };
    if (key === 'model') Object.assign(patch, { seq: null, ep: 1 });
    if (key === 'pp') patch.stage = null;
    Object.assign(this.state, patch);
    // A model has its own sequence lengths and experts: its selects are built anew. ZeRO only frees the reshard select
    // (rebuilding all seventeen selects for it was a third of the move's time at Megatron 1T's 64 x 512).
    if (key === 'model') this.buildControls();
    else if (key === 'zero') this.controls.reshard.input.disabled = this.state.zero !== '3';
    this.refresh();
    // Only the control that last said what its move bought has words to clear (each hint written is a restyle).
    if (this.hinted !== key) this.controls[this.hinted]?.hint('');
    const text = before && this.step ? buysText(words, before, this.step) : '';
    this.controls[key]?.hint(text);
    this.hinted = text ? key : null;
    setText(this.out.buys, text);
    this.stateChanged();
  }

  /** The stage picker moved: the engine draws that stage (the schedule it keeps from the last ask, engine/API.md). */
  pickStage(i) {
    this.state.stage = i === this.timeline?.most_loaded_stage ? null : i;
    this.ask();
    this.render();
    this.stateChanged();
  }

  /** Asks `memory_timeline` for the state (its answer's `step` is `step`'s); a refusal leaves both null and says why. */
  refresh() {
    this.ask();
    this.syncControls();
    this.render();
  }

  /** Each select shows the state's value, or the engine's resolved one (the schedule) once `step` has answered. */
  syncControls() {
    for (const [key] of CONTROLS) {
      const control = this.controls[key];
      const v = controlValue(key, this.state, this.step, this.presets);
      if (!control || v === null || control.input.value === v) continue; // unchanged: no write, no restyle
      if ([...control.input.options].some((o) => o.value === v)) control.input.value = v;
    }
  }

  ask() {
    const ask = () =>
      this.tryCall(() => {
        const request = timelineRequest(this.state, this.presets, this.state.stage, true);
        const { response, attachment } = this.engine.callWithAttachment(request);
        return withColumns(response, attachment);
      });
    this.timeline = ask();
    if (!this.timeline && this.refusal?.field === 'stage' && this.state.stage !== null) {
      this.state.stage = null; // a stage this run does not have (a link's): the most loaded one instead
      this.timeline = ask();
    }
    this.step = this.timeline?.step ?? null;
  }

  tryCall(question) {
    try {
      this.refusal = null;
      return question();
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      this.refusal = err;
      return null;
    }
  }

  render() {
    const t = this.timeline;
    // Each line is written only when its text changed: a stage press changes the chart and little else.
    setText(this.out.config, this.configText());
    this.out.problem.toggleAttribute('hidden', Boolean(t)); // as `hidden =`, without writing an unchanged value
    this.root.toggleAttribute('data-refused', !t);
    if (!t) {
      setText(this.out.problem, memoryErrorText(this.refusal));
      this.out.problem.dataset.code = this.refusal?.code ?? '';
      this.announce(this.out.problem.textContent);
    }
    const step = this.step;
    setText(this.out.headline, t ? headline(t, step, this.deviceWord()) : '');
    setAttributes(this.out.headline, { 'data-value': t ? t.peak.total : '', 'data-fits': step ? step.fits : '' });
    setText(this.out.band, t ? zeroNote(step) + this.bandWords(t, step) : '');
    setAttributes(this.stage.input, { max: Math.max(0, (step?.parallel.pp ?? 1) - 1) });
    this.stage.input.toggleAttribute('disabled', !t || step.parallel.pp < 2);
    this.stage.set(t ? t.stage : 0);
    this.drawLegend();
    this.drawChart();
    if (t) this.announce(this.out.headline.textContent);
  }

  /** The band is the most loaded stage's (the total `step` reports); another stage is told so. */
  bandWords(t, step) {
    return t.stage === t.most_loaded_stage
      ? bandText(step)
      : 'The error band is drawn for the most loaded stage, the total the engine’s track record speaks for.';
  }

  /** One key per part with its bytes at the peak; a move rewrites the keys' numbers and text, not the keys. */
  drawLegend() {
    const t = this.timeline;
    const list = this.out.legend;
    if (!t) {
      list.replaceChildren();
      return;
    }
    const parts = legendParts(t);
    if (list.children.length !== parts.length) {
      list.replaceChildren(
        ...parts.map((p) => h('li', { class: `memory-key ${p.key}`, 'data-part': p.key, 'data-value': '' })),
      );
    }
    parts.forEach((p, i) => {
      const key = list.children[i];
      const value = String(p.bytes);
      if (key.dataset.value !== value) key.dataset.value = value;
      const words = `${p.words} ${bytes(p.bytes)}`;
      if (key.textContent !== words) key.textContent = words;
    });
  }

  drawChart() {
    const t = this.timeline;
    // The first draw reads the box once (setup has just laid it out); later ones keep the width watchSize last read.
    this.plotWidth ||= Math.floor(this.plot.clientWidth) || 640;
    if (!t) {
      this.chart = null;
      this.plot.replaceChildren();
      setText(this.out.moment, '');
      return;
    }
    const band = t.stage === t.most_loaded_stage ? (this.step.error_band?.memory_total?.range ?? null) : null;
    this.chart = this.chartView.draw(
      t,
      band,
      this.plotWidth,
      `${this.out.headline.textContent} ${PARTS.length} parts stacked over time.`,
    );
    if (this.plot.firstChild !== this.chart.element) this.plot.replaceChildren(this.chart.element);
    this.showMoment(this.chart.steps.findIndex((s) => s.index === t.peak.segment));
  }

  /** Shows drawn step `i`'s moment under the chart and marks it. */
  showMoment(i) {
    const steps = this.chart?.steps;
    if (!steps?.length) return;
    this.cursor = Math.max(0, Math.min(steps.length - 1, i));
    const index = steps[this.cursor].index;
    this.chart.mark(index);
    setText(this.out.moment, momentText(moment(this.timeline, index), this.step.parallel.vpp));
    setAttributes(this.out.moment, { 'data-segment': index });
  }

  key(e) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves) || !this.chart) return;
    e.preventDefault();
    const next = Number.isFinite(moves[e.key]) ? this.cursor + moves[e.key] : moves[e.key] < 0 ? 0 : Infinity;
    this.showMoment(next);
  }

  point(e) {
    if (!this.chart) return;
    const box = this.chart.element.getBoundingClientRect();
    const time = this.chart.timeAt(((e.clientX - box.left) / box.width) * this.chart.element.viewBox.baseVal.width);
    const i = this.chart.steps.findIndex((s) => s.to >= time);
    if (i >= 0) this.showMoment(i);
  }

  deviceWord() {
    return this.presets.hardware.find((x) => x.id === this.state.hardware)?.kind === 'tpu' ? 'TPU chip' : 'GPU';
  }

  /** "Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB, tp 4 · pp 8 · dp 2, 64 sequences of 8,192 tokens a step." */
  configText() {
    const s = this.state;
    const model = this.presets.models.find((m) => m.id === s.model);
    const hw = this.presets.hardware.find((x) => x.id === s.hardware)?.name ?? s.hardware;
    const p = this.step?.parallel;
    const split = p
      ? [`tp ${p.tp}`, `pp ${p.pp}`, p.cp > 1 ? `cp ${p.cp}` : '', p.ep > 1 ? `ep ${p.ep}` : '', `dp ${p.dp}`]
      : [];
    const seq = grouped(s.seq ?? model?.seq ?? 0); // not toLocaleString: ICU's formatter was a ms of each move
    return (
      `${model?.name ?? s.model} on ${grouped(s.gpus)} × ${hw}` +
      `${split.length ? `, ${split.filter(Boolean).join(' · ')}` : ''}, ${grouped(s.globalBatch)} ` +
      `sequences of ${seq} tokens a step${p ? `, ${this.step.microbatches} microbatches per pipeline` : ''}.`
    );
  }

  linkState() {
    return this.state ? stateValues(this.state) : null;
  }

  exportFigure() {
    if (!this.root) return null;
    const s = this.state;
    return {
      title: `Memory through one step: ${this.configText()}`,
      words: [s.model, s.hardware, `tp${s.tp}`, `pp${s.pp}`, `stage${this.timeline?.stage ?? ''}`],
      root: this.root,
      data: {
        request: timelineRequest(s, this.presets, s.stage),
        response: { memory_timeline: asArrays(this.timeline) },
      },
      table: this.timeline ? exportTable(this.timeline) : [['refused', this.refusal?.code ?? '']],
    };
  }
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeMemory.stylesheet = sheet(new URL('./memory.css', import.meta.url));
customElements.define('parascope-memory', ParascopeMemory);
