// The "Use my config…" and "Export as…" buttons a figure shows (the planner, the MFU figure), and the room under them
// where their panels open. The panels' code (lib/config-io.js, its stylesheet and the planner's engine that answers
// config_import / config_export) loads on the first click: a reader who never clicks fetches none of it.
import { asset } from './assets.js';
import { h } from './dom.js';

/** The panels' code: its own bundle (scripts/bundle.mjs), loaded as lib/widget-tools.js loads the export code. */
const panelsUrl = () => asset(new URL('./config-io.js', import.meta.url), 'lib/config-io.js');
const panelsCode = () => import(/* webpackIgnore: true */ /* @vite-ignore */ panelsUrl().href);

/**
 * widget: the ParascopeWidget; importing: () => { base, keeps, needsStep, onUse(request) } (what the figure takes of an
 * imported run); exporting: () => { request, words, title } | null (the configuration shown). Returns { element,
 * openExport(what) } (what: the same shape, e.g. one planner row).
 */
export function configTools(widget, { importing, exporting }) {
  const room = h('div', { class: 'cfg-room', 'data-out': 'config-panel' });
  let open = null; // 'import' | 'export' | null
  const buttons = {};
  const mark = () => {
    for (const [key, b] of Object.entries(buttons)) b.setAttribute('aria-expanded', String(open === key));
  };
  const close = () => {
    open = null;
    room.replaceChildren();
    mark();
  };
  let shown = 0; // the latest panel asked for: a slower earlier one never replaces it
  const show = async (key, build) => {
    if (open === key && key !== 'export-row') return close();
    open = key === 'export-row' ? 'export' : key;
    const mine = (shown += 1);
    mark();
    room.replaceChildren(h('p', { class: 'cfg-wait' }, 'Loading…'));
    try {
      const panel = await build(await panelsCode());
      if (mine === shown && open) room.replaceChildren(panel);
    } catch {
      // its code or the planner's engine could not be fetched or compiled (offline, a blocked file)
      if (mine === shown && open)
        room.replaceChildren(
          h('p', { class: 'cfg-error', role: 'alert' }, 'This panel could not load: its code did not arrive.'),
        );
    }
    return undefined;
  };
  const openExport = (what) => show('export-row', (code) => code.exportPanel(widget, what, close));
  buttons.import = h(
    'button',
    {
      type: 'button',
      class: 'tool',
      name: 'config-import',
      onclick: () => show('import', (code) => code.importPanel(widget, importing(), close)),
    },
    'Use my config…',
  );
  buttons.export = h(
    'button',
    {
      type: 'button',
      class: 'tool',
      name: 'config-export',
      onclick: () => {
        const what = exporting();
        if (what) show('export', (code) => code.exportPanel(widget, what, close));
        else if (open === 'export') close();
        else {
          open = 'export';
          shown += 1;
          mark();
          room.replaceChildren(
            h('p', { class: 'cfg-wait' }, 'Choose a run with a split first: there is none to export.'),
          );
        }
      },
    },
    'Export as…',
  );
  mark();
  const element = h(
    'div',
    { class: 'cfg-tools' },
    h('div', { class: 'cfg-buttons' }, buttons.import, buttons.export),
    room,
  );
  return { element, openExport, close };
}
