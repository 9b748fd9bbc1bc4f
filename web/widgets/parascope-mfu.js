// <parascope-mfu>: what the dashboard shows (every GPU busy) against what MFU shows (useful FLOPs over peak, and the
// tax that fills the rest of the step), for published runs you can re-split, or for your own measured throughput.
import { selectControl, sliderControl } from '../lib/controls.js';
import { h } from '../lib/dom.js';
import { percent, seconds, si } from '../lib/format.js';
import { gpuGrid } from '../lib/gpu-grid.js';
import { memoryBar } from '../lib/memory-bar.js';
import { PRESETS, YOUR_RUN } from '../lib/mfu-presets.js';
import { yourRunPanel } from '../lib/mfu-your-run.js';
import { stepBar } from '../lib/step-bar.js';
import { ParascopeWidget } from '../lib/widget.js';

const RUN_DEFAULTS = { model: 'palm-540b', hardware: 'tpu-v4', gpus: 6144, tokensPerSecond: 238300, attention: 'full' };
/** Slider stops; a preset's or attribute's own value joins its list. Infeasible picks are the engine's to refuse. */
const STOPS = {
  tp: [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64], // head counts are often 3·2^k (PaLM: 48)
  pp: [1, 2, 4, 8, 16, 32, 64, 128],
  vpp: [1, 2, 3, 4, 6, 8],
  microbatch_size: [1, 2, 4, 8, 16],
  global_batch: [16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384],
};
const SLIDERS = [
  ['tp', 'Tensor parallel (tp)', 'tp'],
  ['pp', 'Pipeline stages (pp)', 'pp'],
  ['vpp', 'Virtual stages per GPU (vpp)', 'vpp'],
  ['microbatch_size', 'Microbatch (sequences)', 'microbatch-size'],
  ['global_batch', 'Global batch (sequences)', 'global-batch'],
];
const SCHEDULES = [['', 'default'], ['1f1b', '1F1B'], ['interleaved', 'interleaved 1F1B'],
  ['gpipe', 'GPipe'], ['zb-h1', 'zero bubble H1'], ['zb-h2', 'zero bubble H2'], ['dualpipe', 'DualPipe']];
const RECOMPUTE = [['none', 'none'], ['selective', 'selective (attention)'], ['full', 'full (every layer)']];
const ZERO = [['0', 'off'], ['1', '1: optimizer states'], ['2', '2: + gradients'], ['3', '3: + weights']];

const sortedWith = (list, value) => [...new Set([...list, value])].sort((a, b) => a - b);

class ParascopeMfu extends ParascopeWidget {
  setup(body) {
    const presets = this.ask({ op: 'presets' });
    const ids = [...PRESETS.map((p) => p.id), YOUR_RUN];
    // Without a preset attribute, any of the calculator's attributes asks for "your run".
    const runAttributes = ['model', 'hardware', 'gpus', 'tokens-per-second', 'attention'];
    const fallback = runAttributes.some((a) => this.hasAttribute(a)) ? YOUR_RUN : PRESETS[0].id;
    this.mode = this.choiceAttribute('preset', ids, fallback);
    this.run = {
      model: this.choiceAttribute('model', presets.models.map((m) => m.id), RUN_DEFAULTS.model),
      hardware: this.choiceAttribute('hardware', presets.hardware.map((x) => x.id), RUN_DEFAULTS.hardware),
      gpus: this.intAttribute('gpus', { min: 1, max: 10_000_000, fallback: RUN_DEFAULTS.gpus }),
      tokensPerSecond: this.numberAttribute('tokens-per-second', { fallback: RUN_DEFAULTS.tokensPerSecond }),
      attention: this.choiceAttribute('attention', ['full', 'causal'], RUN_DEFAULTS.attention),
    };
    this.split = this.mode === YOUR_RUN ? this.presetSplit(PRESETS[0]) : this.attributeSplit(this.preset());

    const picker = h('div', { class: 'mfu-presets', role: 'radiogroup', 'aria-label': 'Training run' },
      ...ids.map((id) => {
        const p = PRESETS.find((x) => x.id === id);
        const input = h('input', { type: 'radio', name: 'preset', value: id, checked: id === this.mode,
          onchange: () => this.pick(id) });
        return h('label', { class: 'mfu-preset' }, input,
          h('span', {}, p ? h('strong', {}, p.label) : h('strong', {}, 'Your run'), h('small', {}, p ? p.where : 'type tokens/s')));
      }));
    this.about = h('p', { class: 'mfu-about', 'data-out': 'about' });

    // The modelled side: controls for the split, dashboard vs MFU, memory.
    this.splitControls = h('div', { class: 'controls mfu-split' });
    this.grid = gpuGrid();
    this.bar = stepBar();
    this.memory = memoryBar();
    this.out = {
      modelled: h('strong', { class: 'big', 'data-out': 'modelled-mfu' }),
      published: h('strong', { 'data-out': 'published-mfu' }),
      publishedSource: h('span', { class: 'source' }),
      stepTime: h('dd', { 'data-out': 'step-time' }),
      tokens: h('dd', { 'data-out': 'tokens-per-second' }),
      hfu: h('dd', { 'data-out': 'hfu' }),
      dp: h('dd', { 'data-out': 'dp' }),
      microbatches: h('dd', { 'data-out': 'microbatches' }),
      dashboardNote: h('p', { class: 'formula', 'data-out': 'dashboard-note' }),
      kernelNote: h('p', { class: 'formula', 'data-out': 'kernel-note' }),
      formula: h('p', { class: 'formula', 'data-out': 'step-formula' }),
    };
    const truth = h('section', { class: 'mfu-truth', 'aria-label': 'What MFU shows' },
      h('h3', {}, 'What MFU shows'),
      h('p', { class: 'headline' }, 'MFU ', this.out.modelled, ' modelled'),
      h('p', { class: 'mfu-published' }, 'Published: ', this.out.published, ' ', this.out.publishedSource),
      this.bar.element,
      h('dl', { class: 'facts' },
        h('dt', {}, 'Step time'), this.out.stepTime,
        h('dt', {}, 'Throughput'), this.out.tokens,
        h('dt', {}, 'HFU (recomputation counted)'), this.out.hfu,
        h('dt', {}, 'dp (gpus ÷ tp·pp·cp)'), this.out.dp,
        h('dt', {}, 'Microbatches per step'), this.out.microbatches),
      this.out.kernelNote, this.out.formula);
    const dashboard = h('section', { class: 'mfu-dashboard', 'aria-label': 'What the dashboard shows' },
      h('h3', {}, 'What the dashboard shows'), this.grid.element, this.out.dashboardNote);
    this.stepPanel = h('div', { class: 'mfu-step' }, this.splitControls,
      h('div', { class: 'mfu-compare' }, dashboard, truth), this.memory.element);

    // "Your run": the throughput calculator, with its own dashboard.
    this.runGrid = gpuGrid();
    this.yourRun = yourRunPanel(this, presets, this.run, () => this.runGrid.update(this.run.gpus, null));
    this.runPanel = h('div', { class: 'mfu-run' }, this.yourRun.controls,
      h('div', { class: 'mfu-compare' },
        h('section', { class: 'mfu-dashboard', 'aria-label': 'What the dashboard shows' },
          h('h3', {}, 'What the dashboard shows'), this.runGrid.element,
          h('p', { class: 'formula' }, 'Only the throughput is known here, so the figure cannot say where the rest of '
            + 'the time went: choose a published run for the breakdown.')),
        h('section', { class: 'mfu-truth', 'aria-label': 'What MFU shows' },
          h('h3', {}, 'What MFU shows'), this.yourRun.result)));

    body.append(h('div', { class: 'mfu' }, picker, this.about, this.stepPanel, this.runPanel));
    this.show();
  }

  preset() {
    return PRESETS.find((p) => p.id === this.mode) ?? null;
  }

  presetSplit(p) {
    const q = p.run.parallel;
    return { tp: q.tp ?? 1, pp: q.pp ?? 1, vpp: q.vpp ?? 1, microbatch_size: q.microbatch_size ?? 1,
      global_batch: q.global_batch, schedule: q.schedule ?? '', recompute: q.recompute ?? 'none', zero: q.zero ?? 0 };
  }

  /** The preset's split with the element's split attributes applied (first render only). */
  attributeSplit(p) {
    const s = this.presetSplit(p);
    for (const [key, , attr] of SLIDERS) s[key] = this.intAttribute(attr, { min: 1, max: 1_000_000, fallback: s[key] });
    s.schedule = this.choiceAttribute('schedule', SCHEDULES.map(([v]) => v).filter(Boolean), s.schedule || '') || '';
    s.recompute = this.choiceAttribute('recompute', RECOMPUTE.map(([v]) => v), s.recompute);
    s.zero = Number(this.choiceAttribute('zero', ZERO.map(([v]) => v), String(s.zero)));
    return s;
  }

  pick(id) {
    this.mode = id;
    this.clearNote('engine');
    if (id !== YOUR_RUN) this.split = this.presetSplit(this.preset());
    this.show();
  }

  /** Shows the current mode: builds the split controls for a preset and renders. */
  show() {
    const p = this.preset();
    this.stepPanel.hidden = !p;
    this.runPanel.hidden = Boolean(p);
    if (!p) {
      this.about.textContent = 'Your run: pick a model and an accelerator, type the throughput you measured, and read '
        + 'its MFU; the engine counts the FLOPs per token.';
      this.yourRun.update();
      return;
    }
    this.about.textContent = `${p.label} on ${p.where}. Not stated in the paper, our choice: ${p.assumed}`;
    this.buildSplitControls();
    this.showPublished(p);
    this.update();
  }

  buildSplitControls() {
    const set = (key) => (value) => this.setSplit({ [key]: value });
    const sliders = SLIDERS.map(([key, label]) => {
      const stops = sortedWith(STOPS[key], this.split[key]);
      return sliderControl({ label, name: key, min: 0, max: stops.length - 1, value: stops.indexOf(this.split[key]),
        format: (i) => stops[i].toLocaleString('en-US'), onInput: (i) => set(key)(stops[i]) }).element;
    });
    this.splitControls.replaceChildren(...sliders,
      selectControl({ label: 'Schedule', name: 'schedule', value: this.split.schedule, options: SCHEDULES,
        onChange: set('schedule') }).element,
      selectControl({ label: 'Recomputation', name: 'recompute', value: this.split.recompute, options: RECOMPUTE,
        onChange: set('recompute') }).element,
      selectControl({ label: 'ZeRO stage', name: 'zero', value: String(this.split.zero), options: ZERO,
        onChange: (v) => set('zero')(Number(v)) }).element);
  }

  /** Changes part of the split and redraws from the engine (the bench times this). */
  setSplit(patch) {
    Object.assign(this.split, patch);
    this.update();
  }

  showPublished(p) {
    const pub = p.published;
    this.out.publishedSource.textContent = `(${pub.source})`;
    if (pub.request) {
      const r = this.ask(pub.request, 'published');
      this.out.published.textContent = r ? `${percent(r.mfu)} MFU` : '—';
      this.out.published.dataset.value = r ? String(r.mfu) : '';
    } else {
      this.out.published.textContent = `${pub.quote} ${pub.compare === 'hfu' ? 'HFU' : 'MFU'}`;
      delete this.out.published.dataset.value;
    }
  }

  request() {
    const p = this.preset();
    const { schedule, ...split } = this.split;
    const parallel = { ...p.run.parallel, ...split, ...(schedule ? { schedule } : {}) };
    return { op: 'step', ...p.run, parallel };
  }

  update() {
    const p = this.preset();
    if (!p) return;
    const r = this.ask(this.request());
    this.toggleAttribute('data-stale', r === null);
    if (!r) return;
    const gpus = p.run.cluster.gpus;
    this.grid.update(gpus, r.dashboard_utilization);
    this.out.dashboardNote.textContent = `A kernel is resident on each GPU ${percent(r.dashboard_utilization)} of the `
      + 'step, which is what a utilization gauge reads: communication kernels and the waits inside them count as busy.';
    this.out.modelled.textContent = percent(r.mfu);
    this.out.modelled.dataset.value = String(r.mfu);
    this.bar.update(r);
    this.out.stepTime.textContent = seconds(r.step_time);
    this.out.tokens.textContent = `${si(r.tokens_per_second).trim()} tokens/s`;
    this.out.hfu.textContent = percent(r.hfu);
    this.out.dp.textContent = String(r.parallel.dp);
    this.out.microbatches.textContent = String(r.microbatches);
    const skipped = -r.compute_split.kernel_inefficiency;
    this.out.kernelNote.textContent = skipped > 0
      ? `Kernels below peak show as 0: the kernels finish ${seconds(skipped)} sooner than the counted FLOPs would take `
        + 'at peak, because causal FlashAttention skips the masked half of the attention scores that the PaLM '
        + 'convention counts.'
      : '';
    this.out.formula.textContent = `FLOPs per token: ${si(r.flops_per_token, 'FLOP')}, ${r.formula}.`;
    this.memory.update(r);
  }
}

customElements.define('parascope-mfu', ParascopeMfu);
