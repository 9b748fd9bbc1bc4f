// "Your run" in <parascope-mfu>: pick a model and accelerator, type a measured throughput, read MFU and HFU from the
// engine's mfu op (nanoGPT's estimate_mfu lifted to a cluster). Binds the fields and paints widgets/mfu/model/run.js.
import { numberControl, selectControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { chipChoices } from '../../lib/model/engine-lists.js';
import { deviceWords } from './model/devices.js';
import { runView } from './model/run.js';

/** What a reader is told of each attention FLOP convention (the conventions are the engine's presets list). */
const ATTENTION_WORDS = { full: 'full (PaLM, nanoGPT)', causal: 'causal (half)' };
/**
 * ask: (request) -> { response } | { error }; presets: the engine's presets answer; state: { model, hardware, gpus,
 * tokensPerSecond (typed text), attention }, changed in place; onView(view, words) after every update.
 * Returns { controls, result, update }: the widget places the controls and the result.
 */
export function yourRunPanel(ask, presets, state, onView) {
  const set = (key) => (value) => {
    state[key] = value;
    update();
  };
  const gpus = numberControl({
    label: 'GPUs',
    name: 'gpus',
    value: state.gpus,
    min: 1,
    max: 10_000_000,
    step: 1,
    onChange: () => {},
  });
  const tokens = numberControl({
    label: 'Throughput (whole cluster)',
    name: 'tokens-per-second',
    unit: 'tokens/s',
    value: state.tokensPerSecond,
    min: 0,
    onChange: () => {},
  });
  // Every keystroke counts, valid or not: a field the engine refuses blanks the figure and says why beside it.
  for (const [control, key] of [
    [gpus, 'gpus'],
    [tokens, 'tokensPerSecond'],
  ]) {
    control.input.addEventListener('input', () => set(key)(control.input.value));
  }
  const controls = h(
    'div',
    { class: 'controls mfu-run-controls' },
    selectControl({
      label: 'Model',
      name: 'model',
      value: state.model,
      onChange: set('model'),
      options: presets.models.map((m) => [m.id, m.name]),
    }).element,
    selectControl({
      label: 'Accelerator',
      name: 'hardware',
      value: state.hardware,
      onChange: set('hardware'),
      options: chipChoices(presets),
    }).element,
    gpus.element,
    tokens.element,
    selectControl({
      label: 'Attention FLOPs',
      name: 'attention',
      value: state.attention,
      onChange: set('attention'),
      options: presets.attention.map((a) => [a, ATTENTION_WORDS[a] ?? a]),
    }).element,
  );

  const out = {
    mfu: h('strong', { class: 'big', 'data-out': 'mfu' }),
    achieved: h('span', { 'data-out': 'achieved' }),
    peak: h('span', { 'data-out': 'peak' }),
    params: h('span', { 'data-out': 'params' }),
    flops: h('span', { 'data-out': 'flops-per-token' }),
    formula: h('p', { class: 'formula mfu-run-formula', 'data-out': 'formula' }),
    bar: h('div', { class: 'bar-fill' }),
    peakLabel: h('dt', {}),
  };
  const bar = h('div', { class: 'bar', role: 'img' }, out.bar);
  const result = h(
    'div',
    { class: 'result' },
    h('p', { class: 'headline' }, 'MFU ', out.mfu),
    bar,
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Useful FLOP/s (whole cluster)'),
      h('dd', {}, out.achieved),
      out.peakLabel,
      h('dd', {}, out.peak),
      h('dt', {}, 'N (parameters in 6N)'),
      h('dd', {}, out.params),
      h('dt', {}, 'FLOPs per token'),
      h('dd', {}, out.flops),
    ),
    out.formula,
  );

  function update() {
    const words = deviceWords(presets, state.hardware);
    gpus.element.querySelector('.label').textContent = words.many;
    out.peakLabel.textContent = `Peak FLOP/s (all ${words.many})`;
    const view = runView(ask, state, words);
    gpus.hint(view.hints.gpus);
    tokens.hint(view.hints.tokensPerSecond);
    gpus.input.setAttribute('aria-invalid', String(Boolean(view.hints.gpus)));
    tokens.input.setAttribute('aria-invalid', String(Boolean(view.hints.tokensPerSecond) && !view.over));
    const t = view.texts;
    out.mfu.textContent = t.mfu;
    if (view.response) out.mfu.dataset.value = String(view.response.mfu);
    else delete out.mfu.dataset.value;
    out.achieved.textContent = t.achieved;
    out.peak.textContent = t.peak;
    out.params.textContent = t.params;
    out.flops.textContent = t.flops;
    out.formula.textContent = t.formula;
    out.bar.style.width = `${100 * view.fill}%`;
    out.bar.classList.toggle('over', view.over);
    bar.setAttribute('aria-label', t.barAria);
    result.classList.toggle('empty', !view.response);
    result.classList.toggle('over', view.over);
    onView(view, words);
  }

  return { controls, result, update };
}
