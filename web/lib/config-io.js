// The "use my config" and "export as" panels, loaded on the first click (lib/config-io-tools.js). A file is read in
// the page only: its text goes to the planner's engine (wasm, in this page: config_import), never over the network.
// What the engine maps, leaves unmapped and assumes is shown before anything is used; an export is the engine's
// config_export text as it answers it, with its notes.
import { h } from './dom.js';
import { loadPlannerEngine } from './engine.js';
import {
  EXPORT_FORMATS,
  IMPORT_FORMATS,
  detectFormat,
  exportRequest,
  exportView,
  formatName,
  importErrorText,
  importRequest,
  importView,
  stepRefusalText,
} from './model/config-io.js';
import { applySheets, sheet } from './sheets.js';

const STYLE = sheet(new URL('./config-io.css', import.meta.url));
const styled = new WeakSet();

/** Adopts the panels' stylesheet into the widget's shadow root, once. */
function style(widget) {
  const root = widget.shadowRoot;
  if (!root || styled.has(root)) return;
  styled.add(root);
  applySheets(root, [STYLE], root);
}

/** The engine that answers config_import / config_export (the planner's module: the figures' leaves them out). */
const engine = () => loadPlannerEngine();

/** A titled list of { key, why } (or nothing when empty). */
function listed(title, items, out) {
  if (!items.length) return null;
  return h(
    'div',
    { class: 'cfg-list', 'data-out': out },
    h('h4', {}, `${title} (${items.length})`),
    h(
      'ul',
      {},
      items.map((x) => h('li', {}, h('code', {}, x.key), ': ', x.why)),
    ),
  );
}

/** The import panel: text box and drop zone, format, the engine's reading, and "use it". */
export async function importPanel(widget, { base, keeps, needsStep, onUse }, close) {
  style(widget);
  const wasm = await engine();
  let fileName = '';
  let answer = null;
  const text = h('textarea', {
    name: 'config-text',
    class: 'cfg-text-in',
    rows: 8,
    spellcheck: 'false',
    'aria-label': "Your config file's text",
    placeholder:
      'Paste a config.json, a Megatron-LM command line, a NeMo / Bridge YAML, a torchtitan TOML or a DeepSpeed JSON — or drop the file here.',
  });
  const format = h(
    'select',
    { name: 'config-format' },
    h('option', { value: '' }, 'Detect from the file'),
    IMPORT_FORMATS.map(([id, name]) => h('option', { value: id }, name)),
  );
  const number = (name) => h('input', { type: 'number', name, min: 1, step: 1, inputmode: 'numeric' });
  const seq = number('config-seq');
  const vocab = number('config-vocab');
  const file = h('input', { type: 'file', name: 'config-file', accept: '.json,.yaml,.yml,.toml,.sh,.txt' });
  const result = h('div', { class: 'cfg-result', 'data-out': 'config-result', 'aria-live': 'polite' });
  const drop = h('div', { class: 'cfg-drop', 'data-out': 'drop-zone' }, text);

  const read = () => {
    answer = null;
    const body = text.value;
    if (!body.trim()) {
      result.replaceChildren();
      return;
    }
    const chosen = format.value || detectFormat(body, fileName);
    if (!chosen) {
      result.replaceChildren(h('p', { class: 'cfg-error' }, 'Which format is this? Choose it above.'));
      return;
    }
    const typed = (input) => (input.value ? Number(input.value) : null);
    const request = importRequest(chosen, body, { base, seq: typed(seq), vocab: typed(vocab) });
    let got;
    try {
      got = wasm.call(request);
    } catch (err) {
      if (typeof err?.code !== 'string') throw err;
      result.replaceChildren(
        h('p', { class: 'cfg-error', 'data-out': 'config-error', 'data-code': err.code }, importErrorText(err, chosen)),
      );
      return;
    }
    answer = got;
    showAnswer(chosen);
  };

  const showAnswer = (chosen) => {
    const v = importView(answer, (id) => widget.presets?.hardware.find((x) => x.id === id)?.name ?? id);
    let refusal = null;
    try {
      wasm.call({ ...answer.request, op: 'step_check' });
    } catch (err) {
      if (typeof err?.code !== 'string') throw err;
      refusal = err;
    }
    const usable = !(needsStep && refusal);
    const use = h(
      'button',
      {
        type: 'button',
        class: 'tool cfg-use',
        name: 'config-use',
        disabled: !usable,
        onclick: () => {
          onUse(answer.request);
          close();
        },
      },
      'Use it in this figure',
    );
    result.replaceChildren(
      h('h4', {}, `What the engine read, as ${formatName(chosen)}`),
      h(
        'ul',
        { class: 'cfg-read', 'data-out': 'config-read' },
        v.sentences.map((s) => h('li', {}, s)),
      ),
      listed('Not used: the engine cannot express these', v.unmapped, 'config-unmapped') ??
        h('p', { class: 'cfg-none', 'data-out': 'config-unmapped' }, 'Every setting that bears on cost was used.'),
      listed('Assumed, since the file does not say', v.assumed, 'config-assumed'),
      v.ignored.length
        ? h(
            'details',
            { class: 'cfg-ignored' },
            h('summary', {}, `Set aside as having no bearing on cost (${v.ignored.length})`),
            h(
              'ul',
              {},
              v.ignored.map((x) => h('li', {}, h('code', {}, x.key), ': ', x.why)),
            ),
          )
        : null,
      h(
        'p',
        { class: refusal ? 'cfg-error' : 'cfg-ok', 'data-out': 'config-check' },
        refusal ? stepRefusalText(refusal) : 'The engine costs this run as the file splits it.',
      ),
      h('p', { class: 'cfg-keeps' }, keeps),
      use,
    );
  };

  const takeFile = async (f) => {
    fileName = f.name;
    text.value = await f.text();
    read();
  };
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer?.files?.[0];
    if (f) takeFile(f);
    else {
      fileName = '';
      text.value = e.dataTransfer?.getData('text/plain') ?? '';
      read();
    }
  });
  text.addEventListener('paste', () => {
    fileName = '';
    setTimeout(read, 0); // the pasted text is in the box after the event
  });
  file.addEventListener('change', () => file.files[0] && takeFile(file.files[0]));
  format.addEventListener('change', read);
  seq.addEventListener('change', read);
  vocab.addEventListener('change', read);
  const readButton = h('button', { type: 'button', class: 'tool', name: 'config-read', onclick: read }, 'Read it');

  return h(
    'section',
    { class: 'cfg cfg-import', 'aria-label': 'Use my model or my config' },
    h(
      'p',
      { class: 'cfg-lead' },
      'Paste your config or drop its file. It is read by the engine in this page: nothing leaves your browser.',
    ),
    drop,
    h(
      'div',
      { class: 'cfg-row' },
      h('label', { class: 'control' }, h('span', { class: 'label' }, 'Format'), format),
      h('label', { class: 'control' }, h('span', { class: 'label' }, 'Sequence length, tokens (config.json)'), seq),
      h('label', { class: 'control' }, h('span', { class: 'label' }, 'Vocabulary, tokens (Megatron-LM)'), vocab),
      h('label', { class: 'control cfg-file' }, h('span', { class: 'label' }, 'Or choose a file'), file),
      readButton,
    ),
    result,
  );
}

/** The export panel: the engine's config_export text for `request` in the chosen format, its notes, copy, download. */
export async function exportPanel(widget, { request, words, title }, close) {
  style(widget);
  const wasm = await engine();
  const format = h(
    'select',
    { name: 'export-format' },
    EXPORT_FORMATS.map(([id, name]) => h('option', { value: id }, name)),
  );
  const text = h('pre', { class: 'cfg-out', 'data-out': 'export-text', tabindex: '0' });
  const notes = h('div', { class: 'cfg-notes', 'data-out': 'export-notes' });
  const status = h('span', { class: 'cfg-status', role: 'status', 'data-out': 'export-status' });
  let view = null;
  const show = () => {
    try {
      view = exportView(wasm.call(exportRequest(format.value, request)), format.value, words);
    } catch (err) {
      if (typeof err?.code !== 'string') throw err;
      view = null;
      text.textContent = '';
      notes.replaceChildren(
        h('p', { class: 'cfg-error' }, `The engine cannot write this run as ${formatName(format.value)}.`),
      );
      return;
    }
    text.textContent = view.text;
    notes.replaceChildren(
      view.notes.length
        ? h(
            'div',
            { class: 'cfg-list' },
            h('h4', {}, `What ${formatName(format.value)} cannot say of this run (${view.notes.length})`),
            h(
              'ul',
              {},
              view.notes.map((n) => h('li', {}, h('code', {}, n.setting), ': ', n.why)),
            ),
          )
        : h('p', { class: 'cfg-none' }, `Every setting of this run is in the ${formatName(format.value)}.`),
    );
    status.textContent = '';
  };
  format.addEventListener('change', show);
  const copy = async () => {
    if (!view) return;
    try {
      await navigator.clipboard.writeText(view.text);
      status.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(text);
      const selection = widget.shadowRoot.getSelection?.() ?? document.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      status.textContent = 'Selected: copy it with your keyboard';
    }
  };
  const download = () => {
    if (!view) return;
    const href = URL.createObjectURL(new Blob([view.text], { type: 'text/plain' }));
    const link = h('a', { href, download: view.fileName, hidden: true });
    widget.shadowRoot.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 1000);
    status.textContent = `Saved ${view.fileName}`;
  };
  show();
  return h(
    'section',
    { class: 'cfg cfg-export', 'aria-label': 'Export as' },
    h('p', { class: 'cfg-lead', 'data-out': 'export-title' }, title),
    h(
      'div',
      { class: 'cfg-row' },
      h('label', { class: 'control' }, h('span', { class: 'label' }, 'Export as'), format),
      h('button', { type: 'button', class: 'tool', name: 'export-copy', onclick: copy }, 'Copy'),
      h('button', { type: 'button', class: 'tool', name: 'export-download', onclick: download }, 'Download'),
      h('button', { type: 'button', class: 'tool', name: 'export-close', onclick: close }, 'Close'),
      status,
    ),
    text,
    notes,
  );
}
