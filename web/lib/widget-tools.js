// The row of tools under every widget: "Copy link" (with the permalink attribute) and downloads of the figure (SVG,
// PNG) and of its numbers (CSV, JSON), for widgets that can export. The files are made by lib/export-figure.js.
import { asset } from './assets.js';
import { h } from './dom.js';

const SAID_MS = 2500;

/**
 * The export code (lib/export-figure.js and what it draws with), loaded on the first download asked: a reader who
 * never clicks one never fetches it. Its URL is written where bundlers copy the file (scripts/bundle.mjs points it at
 * a one-file bundle of that module, also on the article, which is bundled without splitting: issue 12), and the
 * import() is marked for them to leave as it is (webpack would otherwise warn of an expression it cannot follow).
 */
const exportUrl = () => asset(new URL('./export-figure.js', import.meta.url), 'lib/export-figure.js');
const exportCode = () => import(/* webpackIgnore: true */ /* @vite-ignore */ exportUrl().href);

/** Builds the tools row for `widget` (a ParascopeWidget that has run setup); returns { element }. */
export function widgetTools(widget) {
  const status = h('span', {
    class: 'tools-status',
    role: 'status',
    'aria-live': 'polite',
    'data-out': 'tools-status',
  });
  let timer = 0;
  const say = (text) => {
    status.textContent = text;
    clearTimeout(timer);
    timer = setTimeout(() => {
      status.textContent = '';
    }, SAID_MS);
  };
  const linkField = h('input', {
    class: 'tools-link',
    type: 'text',
    readonly: true,
    hidden: true,
    'aria-label': 'Link to this figure as it stands',
    'data-out': 'copied-link',
  });
  const copy =
    widget.hasAttribute('permalink') && widget.linkState()
      ? h(
          'button',
          { type: 'button', name: 'copy-link', class: 'tool', onclick: () => copyLink(widget, linkField, say) },
          'Copy link',
        )
      : null;
  const downloads = widget.exportFigure()
    ? ['svg', 'png', 'csv', 'json'].map((format) =>
        h(
          'button',
          {
            type: 'button',
            name: `download-${format}`,
            class: 'tool',
            'aria-label': `Download the ${format === 'svg' || format === 'png' ? 'figure' : 'numbers'} as ${format.toUpperCase()}`,
            onclick: () =>
              exportCode()
                .then((code) => code.downloadFigure(widget, format))
                .then(
                  (name) => say(`Saved ${name}`),
                  (err) => say(`Could not make the file: ${err.message}`),
                ),
          },
          format.toUpperCase(),
        ),
      )
    : [];
  const extra = widget.extraTools?.() ?? null; // a figure's own tools (lib/config-io-tools.js: import, export)
  const element = h(
    'div',
    { class: 'tools screen-only', hidden: !copy && downloads.length === 0 && !extra },
    copy,
    extra,
    downloads.length
      ? h('span', { class: 'tools-downloads' }, h('span', { class: 'tools-label' }, 'Download'), ...downloads)
      : null,
    status,
    linkField,
  );
  return { element };
}

/** Copies the widget's link; where the clipboard is not allowed, shows the link selected so the reader can copy it. */
async function copyLink(widget, field, say) {
  widget.writeLinkNow(); // the address bar shows the same link at once
  const href = widget.linkHref();
  field.value = href;
  widget.dataset.link = href;
  try {
    await navigator.clipboard.writeText(href);
    field.hidden = true;
    say('Link copied');
  } catch {
    field.hidden = false;
    field.focus();
    field.select();
    say('Copy the selected link');
  }
}
