// <parascope-mfu>: what the dashboard shows (every GPU busy) against what MFU shows (useful FLOPs over peak, and the
// tax that fills the rest of the step), for published runs you can re-split, or for your own measured throughput.
// State and text live in model/*.js; this file binds the controls and paints.
import { selectControl, sliderControl } from '../../lib/controls.js';
import { h } from '../../lib/dom.js';
import { scheduleChoices } from '../../lib/model/engine-lists.js';
import { grouped, percent } from '../../lib/format.js';
import { gpuGrid } from './gpu-grid.js';
import { memoryBar } from './memory-bar.js';
import { PRESETS, YOUR_RUN } from './model/presets.js';
import { yourRunPanel } from './your-run.js';
import { makeAsker } from './model/asker.js';
import { deviceWords } from './model/devices.js';
import { ATTRIBUTES as A } from './attributes.js';
import { MFU_CUSTOM, MFU_IMPORTED, importedRun } from './model/custom.js';
import { configTools } from '../../lib/config-io-tools.js';
import {
  SELECTS,
  SLIDERS,
  choices,
  offered,
  presetSplit,
  resolve,
  sameStepChoices,
  settle,
  stepRequest,
} from './model/split.js';
import { recomputeHint, stepView } from './model/step-view.js';
import { stepBar } from './step-bar.js';
import { listenFocus, sendFocus } from '../../lib/focus.js';
import { focusKey } from '../../lib/model/focus.js';
import { sheet } from '../../lib/sheets.js';
import { ParascopeWidget } from '../../lib/widget.js';
import { readNetwork, withNetwork } from '../../lib/model/network.js';
import { readChoice, withOffload } from '../../lib/model/step-state.js';

/** This element's attributes: ranges and defaults (lib/model/attributes.js, the one list the guide shows). */

/** The recomputation values the figure may offer (the engine's list). */
const offeredRecompute = (listed) => listed.recompute.map(([v]) => v);

/** A control's value as the reader sees it ("2,048", "Interleaved 1F1B"); `listed`: the widget's this.choices. */
function shown(key, value, listed) {
  const choice = listed[key]?.find(([v]) => v === value);
  return choice ? choice[1] : grouped(Number(value));
}

class ParascopeMfu extends ParascopeWidget {
  /** <parascope-nccl>'s "use my cluster" loads its fitted links into this figure (lib/model/network.js). */
  static takesNetwork = true;

  setup(body) {
    this.presets = this.enginePresets();
    this.network = readNetwork(this); // your cluster's links, or null: the hardware preset's
    this.onNetwork = new WeakMap(); // preset -> the same preset on your links (one object each: preset() is compared)
    if (this.network)
      this.setNote('network', "Costed on your measured network (your nccl-tests fit), not the preset's links.");
    // The schedules offered and their names: the engine's schedule registry (presets op), not a list of our own.
    this.choices = { ...choices(), schedule: scheduleChoices() };
    this.asker = makeAsker(this.engine);
    const ids = [...PRESETS.map((p) => p.id), YOUR_RUN];
    const modes = [...ids, MFU_CUSTOM];
    // Without a preset attribute, any of the calculator's attributes asks for "your run".
    const runAttributes = ['model', 'hardware', 'gpus', 'tokens-per-second', 'attention'];
    const fallback = runAttributes.some((a) => this.hasAttribute(a)) ? YOUR_RUN : PRESETS[0].id;
    this.mode = this.choiceAttribute('preset', modes, fallback);
    this.run = {
      model: this.choiceAttribute(
        'model',
        this.presets.models.map((m) => m.id),
        A.model.fallback,
      ),
      hardware: this.choiceAttribute(
        'hardware',
        this.presets.hardware.map((x) => x.id),
        A.hardware.fallback,
      ),
      gpus: String(this.intAttribute('gpus', A.gpus)),
      tokensPerSecond: String(this.numberAttribute('tokens-per-second', A['tokens-per-second'])),
      attention: this.choiceAttribute('attention', this.presets.attention, A.attention.fallback),
    };
    if (this.mode === MFU_CUSTOM) this.custom = this.customRun();

    const picker = h(
      'div',
      { class: 'mfu-presets', role: 'radiogroup', 'aria-label': 'Training run' },
      ...ids.map((id) => {
        const p = PRESETS.find((x) => x.id === id);
        const input = h('input', {
          type: 'radio',
          name: 'preset',
          value: id,
          checked: id === this.mode,
          onchange: () => this.pick(id),
        });
        return h(
          'label',
          { class: 'mfu-preset' },
          input,
          h('span', {}, h('strong', {}, p ? p.label : 'Your run'), h('small', {}, p ? p.where : 'type tokens/s')),
        );
      }),
    );
    this.about = h('p', { class: 'mfu-about', 'data-out': 'about' });

    // The modelled side: controls for the split, dashboard vs MFU, memory.
    this.controls = {};
    this.stops = {};
    const sliders = SLIDERS.map(([key, label]) => {
      this.stops[key] = [];
      const c = sliderControl({
        label,
        name: key,
        min: 0,
        max: 0,
        value: 0,
        format: (i) => (this.stops[key][i] === undefined ? '' : shown(key, this.stops[key][i], this.choices)),
        // While dragging only the figure follows (one engine answer); on release every control's offer is renewed.
        onInput: (i) => this.change(key, this.stops[key][i], { offers: false }),
        onChange: () => this.update([], { keepHints: true }),
      });
      this.controls[key] = c;
      return c.element;
    });
    const selects = SELECTS.map(([key, label]) => {
      const c = selectControl({
        label,
        name: key,
        value: '',
        options: this.choices[key].map(([v, t]) => [String(v), t]),
        onChange: (v) => this.change(key, key === 'zero' ? Number(v) : v),
      });
      this.controls[key] = c;
      return c.element;
    });
    this.splitControls = h('div', { class: 'controls mfu-split' }, ...sliders, ...selects);
    this.grid = gpuGrid();
    this.bar = stepBar((kind) => sendFocus(this, this.focusKey, kind));
    this.stopFocus = listenFocus(
      this,
      () => this.focusKey,
      (kind) => this.bar.show(kind),
    );
    this.memory = memoryBar();
    this.out = {
      modelled: h('strong', { class: 'big', 'data-out': 'modelled-mfu' }),
      band: h('p', { class: 'mfu-band', 'data-out': 'mfu-band' }),
      published: h('strong', { 'data-out': 'published-mfu' }),
      publishedSource: h('span', { class: 'source' }),
      stepTime: h('dd', { 'data-out': 'step-time' }),
      tokens: h('dd', { 'data-out': 'tokens-per-second' }),
      hfu: h('dd', { 'data-out': 'hfu' }),
      dpLabel: h('dt', {}),
      dp: h('dd', { 'data-out': 'dp' }),
      microbatches: h('dd', { 'data-out': 'microbatches' }),
      dashboardNote: h('p', { class: 'formula mfu-dashboard-note', 'data-out': 'dashboard-note' }),
      kernelNote: h('p', { class: 'formula', 'data-out': 'kernel-note' }),
      formula: h('p', { class: 'formula', 'data-out': 'step-formula' }),
    };
    const truth = h(
      'section',
      { class: 'mfu-truth', 'aria-label': 'What MFU shows' },
      h('h3', {}, 'What MFU shows'),
      h('p', { class: 'headline' }, 'MFU ', this.out.modelled, ' modelled'),
      this.out.band,
      h('p', { class: 'mfu-published' }, 'Published: ', this.out.published, ' ', this.out.publishedSource),
      this.bar.element,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Step time (one optimizer step)'),
        this.out.stepTime,
        h('dt', {}, 'Throughput (whole cluster)'),
        this.out.tokens,
        h('dt', {}, 'HFU (recomputation counted)'),
        this.out.hfu,
        this.out.dpLabel,
        this.out.dp,
        h('dt', {}, 'Microbatches per step, per pipeline'),
        this.out.microbatches,
      ),
      h('div', { class: 'mfu-notes' }, this.out.kernelNote, this.out.formula),
    );
    const dashboard = h(
      'section',
      { class: 'mfu-dashboard', 'aria-label': 'What the dashboard shows' },
      h('h3', {}, 'What the dashboard shows'),
      this.grid.element,
      this.out.dashboardNote,
    );
    this.stepPanel = h(
      'div',
      { class: 'mfu-step' },
      this.splitControls,
      h('div', { class: 'mfu-compare' }, dashboard, truth),
      this.memory.element,
    );

    // "Your run": the throughput calculator, with its own dashboard.
    this.runGrid = gpuGrid();
    this.yourRun = yourRunPanel(this.asker, this.presets, this.run, (view) => this.paintRun(view));
    this.runPanel = h(
      'div',
      { class: 'mfu-run' },
      this.yourRun.controls,
      h(
        'div',
        { class: 'mfu-compare' },
        h(
          'section',
          { class: 'mfu-dashboard', 'aria-label': 'What the dashboard shows' },
          h('h3', {}, 'What the dashboard shows'),
          this.runGrid.element,
          h(
            'p',
            { class: 'formula' },
            'Only the throughput is known here, so the figure cannot say where the rest of ' +
              'the time went: choose a published run for the breakdown.',
          ),
        ),
        h(
          'section',
          { class: 'mfu-truth', 'aria-label': 'What MFU shows' },
          h('h3', {}, 'What MFU shows'),
          this.yourRun.result,
        ),
      ),
    );

    // Both panels share one grid cell: the figure is as tall as the taller one whichever is shown.
    this.root = h(
      'div',
      { class: 'mfu' },
      picker,
      this.about,
      h('div', { class: 'mfu-panels' }, this.stepPanel, this.runPanel),
    );
    body.append(this.root);
    if (this.mode !== YOUR_RUN) this.split = this.startSplit(this.preset());
    this.yourRun.update();
    this.show();
  }

  preset() {
    const p =
      this.mode === MFU_CUSTOM
        ? this.custom
        : this.mode === MFU_IMPORTED
          ? this.imported
          : (PRESETS.find((x) => x.id === this.mode) ?? null);
    // A TPU slice's chips ride their own ICI links: a GPU cluster's nccl-tests fit is not theirs.
    const gpu = this.presets.hardware.find((x) => x.id === p?.run.hardware)?.kind === 'gpu';
    if (!p || !this.network || !gpu) return p;
    if (!this.onNetwork.has(p)) {
      this.onNetwork.set(p, { ...p, run: { ...p.run, cluster: withNetwork(p.run.cluster, this.network) } });
    }
    return this.onNetwork.get(p);
  }

  /**
   * preset="custom" (what the planner loads): a run shaped like a preset from the model, hardware and gpus attributes,
   * with cp, ep, sequence parallelism and the optimizer's share on the host held as given; the split controls move the
   * rest. Nothing published for it.
   */
  customRun() {
    const model = this.presets.models.find((m) => m.id === this.run.model);
    const hardware = this.presets.hardware.find((x) => x.id === this.run.hardware);
    const gpus = Number(this.run.gpus);
    const words = deviceWords(this.presets, this.run.hardware);
    return {
      id: MFU_CUSTOM,
      label: model?.name ?? this.run.model,
      where: `${grouped(gpus)} ${hardware?.name ?? this.run.hardware} ${gpus === 1 ? words.one : words.many}`,
      run: {
        model: this.run.model,
        hardware: this.run.hardware,
        cluster: { gpus },
        parallel: withOffload(
          {
            tp: 1,
            pp: 1,
            global_batch: A['global-batch'].fallback ?? 256,
            cp: this.intAttribute('cp', A.cp),
            ep: this.intAttribute('ep', A.ep),
            sequence_parallel: this.flagAttribute('sequence-parallel'),
          },
          readChoice(this, A, 'offload', A.offload.choices),
        ),
      },
      published: null,
    };
  }

  /** The preset's split with the element's split attributes applied, made valid by the engine (first render only). */
  startSplit(p) {
    const s = presetSplit(p);
    for (const [key, , attr] of SLIDERS) s[key] = this.intAttribute(attr, { ...A[attr], fallback: s[key] });
    for (const [key] of SELECTS) {
      const values = this.choices[key].map(([v]) => String(v));
      const raw = this.choiceAttribute(key, values, s[key] === '' ? '' : String(s[key]));
      s[key] = key === 'zero' ? Number(raw) : raw;
    }
    const r = settle(this.asker, p, s);
    if (r.fellBack) {
      this.setNote(
        'attr-split',
        "The engine refuses the split these attributes ask for; showing the preset's own split.",
      );
    }
    this.startMoves = r.moved;
    return r.split;
  }

  pick(id) {
    this.mode = id;
    const p = this.preset();
    if (p) {
      this.split = presetSplit(p);
      this.split = settle(this.asker, p, this.split).split;
      this.startMoves = [];
    }
    this.show();
  }

  /** Shows the current mode: the other panel stays laid out (invisible) so the height does not change. */
  show() {
    const p = this.preset();
    this.stepPanel.inert = !p;
    this.runPanel.inert = Boolean(p);
    this.stepPanel.classList.toggle('off', !p);
    this.runPanel.classList.toggle('off', Boolean(p));
    if (!p) {
      this.about.textContent =
        'Your run: pick a model and an accelerator, type the throughput you measured, and read ' +
        'its MFU; the engine counts the FLOPs per token.';
      this.yourRun.update();
      return;
    }
    this.about.textContent =
      p.id === MFU_CUSTOM
        ? `${p.label} on ${p.where}, split as the planner (or this figure's attributes) chose; move the controls to re-split it.`
        : p.id === MFU_IMPORTED
          ? `Your config: ${p.label} on ${p.where}, split as your file says; move the controls to re-split it.`
          : `${p.label} on ${p.where}. Not stated in the paper, our choice: ${p.assumed}`;
    this.showPublished(p);
    this.update(this.startMoves ?? []);
    this.startMoves = [];
  }

  /** A control moved by the reader: the engine's answer for it, dependents moved with a hint beside each. */
  change(key, value, { offers = true } = {}) {
    const p = this.preset();
    if (!p || value === undefined) return;
    const r = resolve(this.asker, p, this.split, key, value);
    if (r) this.split = r.split; // else the offer was out of date: the controls snap back to the split shown
    this.update(r ? r.moved : [], { offers: offers || !r });
  }

  /**
   * Redraws the modelled side from the engine and (unless `offers` is false, mid-drag) offers, on every control, only
   * the values the engine accepts now. `keepHints` leaves the hints of the last move in place.
   */
  update(moved, { offers: renew = true, keepHints = false } = {}) {
    const p = this.preset();
    const request = stepRequest(p, this.split);
    const answer = this.asker(request);
    this.shownStep = { request, response: answer.response };
    if (!answer.response) throw new Error(`internal: the settled split was refused (${answer.error.message})`);
    if (!keepHints) this.paintStep(p, answer.response); // a drag's release: the figure is already this split's
    // Choices the engine answers exactly as the one chosen are not offered apart from it (issue 25 item 4).
    if (renew || !this.twins) this.twins = sameStepChoices(this.asker, p, this.split, offeredRecompute(this.choices));
    const standing = recomputeHint(this.split.recompute, this.twins, (v) => shown('recompute', v, this.choices));
    this.showMoves(moved, keepHints);
    if (!moved.some((m) => m.key === 'recompute')) this.hintOn('recompute', standing);
    this.stateChanged();
    // Mid-drag the offers stay as they were, unless a moved control now holds a value its slider does not offer.
    if (!renew && SLIDERS.every(([key]) => this.stops[key].includes(this.split[key]))) {
      for (const [key] of SLIDERS) this.controls[key].set(this.stops[key].indexOf(this.split[key]));
      return;
    }
    const offers = offered(this.asker, p, this.split);
    for (const [key] of SLIDERS) {
      const c = this.controls[key];
      this.stops[key] = offers[key];
      c.input.max = String(offers[key].length - 1);
      c.input.disabled = offers[key].length < 2;
      c.set(offers[key].indexOf(this.split[key]));
    }
    const listed = this.choices.recompute.filter(([v]) => !this.twins.includes(v));
    this.controls.recompute.input.replaceChildren(...listed.map(([v, t]) => h('option', { value: v }, t)));
    for (const [key] of SELECTS) {
      const c = this.controls[key];
      for (const option of c.input.options) {
        const v = key === 'zero' ? Number(option.value) : option.value;
        option.disabled = !offers[key].includes(v);
      }
      c.input.value = String(this.split[key]);
    }
  }

  /**
   * A hint beside each control a change moved, said to screen readers too; the others show their `standing` line
   * (key -> text: what the engine's answer says of that control's value) or none.
   */
  showMoves(moved, keep, standing = {}) {
    if (keep) return;
    for (const key of Object.keys(this.controls)) this.hintOn(key, standing[key] ?? '');
    const said = moved.map((m) => {
      const text = `Moved ${shown(m.key, m.from, this.choices)} → ${shown(m.key, m.to, this.choices)}: ${m.reason}.`;
      this.hintOn(m.key, text);
      return `${this.controls[m.key].element.querySelector('.label').textContent} ${text[0].toLowerCase()}${text.slice(1)}`;
    });
    if (said.length) this.announce(`${this.announcement ?? ''} ${said.join(' ')}`.trim());
  }

  /** Shows `text` under control `key` (its whole text also in the title: a long hint is cut to two lines). */
  hintOn(key, text) {
    this.controls[key].hint(text);
    const line = this.controls[key].element.querySelector('.hint');
    if (text) line.title = text;
    else line.removeAttribute('title');
  }

  stop() {
    this.stopFocus?.();
  }

  paintStep(p, r) {
    const words = deviceWords(this.presets, p.run.hardware);
    const gpus = p.run.cluster.gpus;
    const key = focusKey({ model: p.run.model, hardware: p.run.hardware, gpus }, r);
    if (key !== this.focusKey) this.bar.show(null); // another step: what another figure pointed at is not this one's
    this.focusKey = key;
    const v = stepView(r, { gpus, words });
    this.grid.update({ count: gpus, label: v.gridLabel, aria: v.gridAria, utilization: r.dashboard_utilization });
    this.out.dashboardNote.textContent = v.dashboardNote;
    this.out.modelled.textContent = v.modelled;
    this.out.modelled.dataset.value = String(r.mfu);
    this.out.band.textContent = v.band;
    this.bar.update(r);
    this.out.stepTime.textContent = v.stepTime;
    this.out.tokens.textContent = v.tokens;
    this.out.hfu.textContent = v.hfu;
    this.out.dpLabel.textContent = `dp (${words.many} ÷ tp·pp)`;
    this.out.dp.textContent = v.dp;
    this.out.microbatches.textContent = v.microbatches;
    this.out.kernelNote.textContent = v.kernelNote;
    this.out.formula.textContent = v.formula;
    this.memory.update(r, words);
    this.announce(v.announce);
  }

  paintRun(view) {
    this.shownRun = { inputs: { ...this.run }, response: view.response ?? null };
    const gpus = view.response ? Number(this.run.gpus) : 0;
    this.runGrid.update({ count: gpus, label: view.texts.dashboard, aria: view.texts.dashboard });
    if (this.mode === YOUR_RUN) {
      this.announce(view.texts.announce);
      this.stateChanged();
    }
  }

  /** What an export holds: the figure as drawn and the engine's answer it shows (step, or "your run"'s mfu). */
  exportFigure() {
    const p = this.preset();
    const data = p ? this.shownStep : this.shownRun;
    if (!data?.response) return p || !this.shownRun ? null : { ...this.#runExport(), data: this.shownRun };
    if (!p) return { ...this.#runExport(), data };
    const s = this.split;
    return {
      title: `${p.label}: tp ${s.tp}, pp ${s.pp}, global batch ${s.global_batch}: MFU ${this.out.modelled.textContent} modelled`,
      words: [
        p.id,
        `tp${s.tp}`,
        `pp${s.pp}`,
        s.vpp > 1 ? `vpp${s.vpp}` : '',
        `mbs${s.microbatch_size}`,
        `gb${s.global_batch}`,
        s.recompute !== 'none' ? s.recompute : '',
        s.zero ? `zero${s.zero}` : '',
      ],
      root: this.root,
      data,
    };
  }

  #runExport() {
    const r = this.run;
    return {
      title: `Your run: ${r.model} on ${r.gpus} × ${r.hardware} at ${r.tokensPerSecond} tokens/s`,
      words: ['your-run', r.model, r.hardware, `${r.gpus}gpus`],
      root: this.root,
    };
  }

  /** The run shown, as attributes (permalinks, file names): the preset and its split, or "your run"'s fields. */
  linkState() {
    if (!this.mode || this.mode === MFU_IMPORTED) return null; // an imported model is no attribute: no link to it
    if (this.mode === YOUR_RUN) {
      const r = this.run;
      return {
        preset: YOUR_RUN,
        model: r.model,
        hardware: r.hardware,
        gpus: r.gpus,
        'tokens-per-second': r.tokensPerSecond,
        attention: r.attention,
      };
    }
    const state = { preset: this.mode };
    if (this.mode === MFU_CUSTOM) {
      const q = this.custom.run.parallel;
      Object.assign(state, {
        model: this.run.model,
        hardware: this.run.hardware,
        gpus: this.run.gpus,
        cp: q.cp,
        ep: q.ep,
        'sequence-parallel': q.sequence_parallel ? 'true' : 'false',
        offload: q.offload_optimizer === undefined ? null : String(q.offload_optimizer),
      });
    }
    for (const [key, , attr] of SLIDERS) state[attr] = this.split[key];
    for (const [key] of SELECTS) state[key] = this.split[key] === '' ? null : this.split[key];
    return { ...state, ...this.network };
  }

  /** "Use my config" and "Export as…" in the tools row (lib/config-io-tools.js; their code loads on first use). */
  extraTools() {
    this.configTools ??= configTools(this, {
      importing: () => ({
        // A DeepSpeed config has no model nor tp/pp: the run shown now gives them (config_import's `base`).
        base: this.preset() ? { ...stepRequest(this.preset(), this.split), op: undefined } : null,
        keeps:
          'Used here: the model, the accelerators, the split, the batch and the memory settings; the controls then ' +
          're-split it.',
        needsStep: true,
        onUse: (request) => this.useImported(request),
      }),
      exporting: () => {
        const p = this.preset();
        if (!p || !this.shownStep) return null;
        return {
          request: this.shownStep.request,
          words: this.exportFigure().words,
          title: `This run (${p.label}), as split now, in a launcher's settings (written by the engine):`,
        };
      },
    });
    return this.configTools.element;
  }

  /** Runs an imported step request (config_import's, checked by the engine) as the figure's run. */
  useImported(request) {
    this.imported = importedRun(request, this.presets);
    for (const radio of this.root.querySelectorAll('input[name="preset"]')) radio.checked = false;
    this.mode = MFU_IMPORTED;
    this.split = settle(this.asker, this.imported, presetSplit(this.imported)).split;
    this.startMoves = [];
    this.show();
  }

  showPublished(p) {
    const pub = p.published;
    if (!pub) {
      this.out.publishedSource.textContent = '(a run of your choice: nothing published to compare with)';
      this.out.published.textContent = '—';
      delete this.out.published.dataset.value;
      return;
    }
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
}

/** Its own rules, after css/widget.css in its shadow root (lib/widget-shell.js; text in the bundle: lib/sheets.js). */
ParascopeMfu.stylesheet = sheet(new URL('./mfu.css', import.meta.url));
customElements.define('parascope-mfu', ParascopeMfu);
