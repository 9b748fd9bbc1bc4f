// "Your run" in <parascope-mfu>: pick a model and accelerator, type a measured throughput, read MFU and HFU from the
// engine's mfu op (nanoGPT's estimate_mfu lifted to a cluster).
import { numberControl, selectControl } from './controls.js';
import { h } from './dom.js';
import { count, percent, si } from './format.js';

/**
 * widget: the ParascopeWidget (for ask/setNote/clearNote); presets: the engine's presets answer; state: { model,
 * hardware, gpus, tokensPerSecond, attention }, changed in place; onChange(state) after every accepted answer.
 * Returns { controls, result, update }: the widget places the controls and the result.
 */
export function yourRunPanel(widget, presets, state, onChange) {
  const set = (key) => (value) => {
    state[key] = value;
    update();
  };
  const controls = h('div', { class: 'controls' },
    selectControl({ label: 'Model', name: 'model', value: state.model, onChange: set('model'),
      options: presets.models.map((m) => [m.id, m.name]) }).element,
    selectControl({ label: 'Accelerator', name: 'hardware', value: state.hardware, onChange: set('hardware'),
      options: presets.hardware.map((x) => [x.id, x.name]) }).element,
    numberControl({ label: 'GPUs', name: 'gpus', value: state.gpus, min: 1, max: 10_000_000, step: 1,
      onChange: set('gpus') }).element,
    numberControl({ label: 'Throughput', name: 'tokens-per-second', unit: 'tokens/s', value: state.tokensPerSecond,
      min: 0, onChange: set('tokensPerSecond') }).element,
    selectControl({ label: 'Attention FLOPs', name: 'attention', value: state.attention, onChange: set('attention'),
      options: [['full', 'full (PaLM, nanoGPT)'], ['causal', 'causal (half)']] }).element);

  const out = {
    mfu: h('strong', { class: 'big', 'data-out': 'mfu' }),
    achieved: h('span', { 'data-out': 'achieved' }),
    peak: h('span', { 'data-out': 'peak' }),
    params: h('span', { 'data-out': 'params' }),
    flops: h('span', { 'data-out': 'flops-per-token' }),
    formula: h('p', { class: 'formula', 'data-out': 'formula' }),
    bar: h('div', { class: 'bar-fill' }),
  };
  const result = h('div', { class: 'result' },
    h('p', { class: 'headline' }, 'MFU ', out.mfu),
    h('div', { class: 'bar', role: 'img', 'aria-label': 'useful FLOPs as a share of peak' }, out.bar),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Useful FLOP/s'), h('dd', {}, out.achieved),
      h('dt', {}, 'Peak FLOP/s'), h('dd', {}, out.peak),
      h('dt', {}, 'N (parameters in 6N)'), h('dd', {}, out.params),
      h('dt', {}, 'FLOPs per token'), h('dd', {}, out.flops)),
    out.formula);

  function update() {
    const { model, hardware, gpus, tokensPerSecond, attention } = state;
    const r = widget.ask({ op: 'mfu', model, hardware, gpus, tokens_per_second: tokensPerSecond, attention });
    widget.toggleAttribute('data-stale', r === null);
    if (!r) return;
    out.mfu.textContent = percent(r.mfu);
    out.mfu.dataset.value = String(r.mfu);
    out.achieved.textContent = si(r.achieved_flops, 'FLOP/s');
    out.peak.textContent = si(r.peak_flops, 'FLOP/s');
    out.params.textContent = count(r.params);
    out.flops.textContent = si(r.flops_per_token, 'FLOP');
    out.formula.textContent = r.formula;
    out.bar.style.width = `${Math.min(100, r.mfu * 100)}%`;
    out.bar.classList.toggle('over', r.mfu > 1);
    if (r.mfu > 1) widget.setNote('over', 'MFU above 100 % is impossible: check the throughput and GPU count.');
    else widget.clearNote('over');
    onChange(state);
  }

  return { controls, result, update };
}
