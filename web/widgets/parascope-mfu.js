// <parascope-mfu>: what MFU says about a run. Pick a model and GPU, type the measured throughput, read MFU and HFU.
import { numberControl, selectControl } from '../lib/controls.js';
import { h } from '../lib/dom.js';
import { count, percent, si } from '../lib/format.js';
import { ParascopeWidget } from '../lib/widget.js';

const DEFAULTS = { model: 'palm-540b', hardware: 'tpu-v4', gpus: 6144, tokensPerSecond: 238300, attention: 'full' };

class ParascopeMfu extends ParascopeWidget {
  setup(body) {
    const presets = this.ask({ op: 'presets' });
    const modelIds = presets.models.map((m) => m.id);
    const hardwareIds = presets.hardware.map((x) => x.id);
    this.state = {
      model: this.choiceAttribute('model', modelIds, DEFAULTS.model),
      hardware: this.choiceAttribute('hardware', hardwareIds, DEFAULTS.hardware),
      gpus: this.intAttribute('gpus', { min: 1, max: 10_000_000, fallback: DEFAULTS.gpus }),
      tokensPerSecond: this.numberAttribute('tokens-per-second', { fallback: DEFAULTS.tokensPerSecond }),
      attention: this.choiceAttribute('attention', ['full', 'causal'], DEFAULTS.attention),
    };

    const set = (key) => (value) => {
      this.state[key] = value;
      this.update();
    };
    const controls = h(
      'div',
      { class: 'controls' },
      selectControl({ label: 'Model', name: 'model', value: this.state.model, onChange: set('model'),
        options: presets.models.map((m) => [m.id, m.name]) }).element,
      selectControl({ label: 'Accelerator', name: 'hardware', value: this.state.hardware, onChange: set('hardware'),
        options: presets.hardware.map((x) => [x.id, x.name]) }).element,
      numberControl({ label: 'GPUs', name: 'gpus', value: this.state.gpus, min: 1, max: 10_000_000, step: 1,
        onChange: set('gpus') }).element,
      numberControl({ label: 'Throughput', name: 'tokens-per-second', unit: 'tokens/s', value: this.state.tokensPerSecond,
        min: 0, onChange: set('tokensPerSecond') }).element,
      selectControl({ label: 'Attention FLOPs', name: 'attention', value: this.state.attention, onChange: set('attention'),
        options: [['full', 'full (PaLM, nanoGPT)'], ['causal', 'causal (half)']] }).element,
    );

    this.out = {
      mfu: h('strong', { class: 'big', 'data-out': 'mfu' }),
      achieved: h('span', { 'data-out': 'achieved' }),
      peak: h('span', { 'data-out': 'peak' }),
      params: h('span', { 'data-out': 'params' }),
      flops: h('span', { 'data-out': 'flops-per-token' }),
      formula: h('p', { class: 'formula', 'data-out': 'formula' }),
      bar: h('div', { class: 'bar-fill' }),
    };
    const result = h(
      'div',
      { class: 'result' },
      h('p', { class: 'headline' }, 'MFU ', this.out.mfu),
      h('div', { class: 'bar', role: 'img', 'aria-label': 'useful FLOPs as a share of peak' }, this.out.bar),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Useful FLOP/s'), h('dd', {}, this.out.achieved),
        h('dt', {}, 'Peak FLOP/s'), h('dd', {}, this.out.peak),
        h('dt', {}, 'N (parameters in 6N)'), h('dd', {}, this.out.params),
        h('dt', {}, 'FLOPs per token'), h('dd', {}, this.out.flops)),
      this.out.formula,
    );
    body.append(h('div', { class: 'mfu-calc' }, controls, result));
    this.update();
  }

  update() {
    const { model, hardware, gpus, tokensPerSecond, attention } = this.state;
    const r = this.ask({ op: 'mfu', model, hardware, gpus, tokens_per_second: tokensPerSecond, attention });
    this.toggleAttribute('data-stale', r === null);
    if (!r) return;
    this.out.mfu.textContent = percent(r.mfu);
    this.out.mfu.dataset.value = String(r.mfu);
    this.out.achieved.textContent = si(r.achieved_flops, 'FLOP/s');
    this.out.peak.textContent = si(r.peak_flops, 'FLOP/s');
    this.out.params.textContent = count(r.params);
    this.out.flops.textContent = si(r.flops_per_token, 'FLOP');
    this.out.formula.textContent = r.formula;
    this.out.bar.style.width = `${Math.min(100, r.mfu * 100)}%`;
    this.out.bar.classList.toggle('over', r.mfu > 1);
    if (r.mfu > 1) this.setNote('over', 'MFU above 100 % is impossible: check the throughput and GPU count.');
    else this.clearNote('over');
  }
}

customElements.define('parascope-mfu', ParascopeMfu);
