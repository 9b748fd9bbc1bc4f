// The embed guide (guide.html): shows each live example's own HTML as its snippet, and fills the attribute table from
// the list the figures read their attributes with (lib/model/attributes.js), with the engine's preset ids.
import { loadEngine } from './lib/engine.js';
import { attributeRows } from './lib/model/attribute-docs.js';

/**
 * The HTML of an example's live part, as a reader would paste it (indentation removed). The figures mark their own
 * state with data-* attributes (data-ready, data-routing, ...) once started; those are not part of what one pastes, and
 * whether a figure has started by the time this runs depends on load order.
 */
function snippetOf(live) {
  const copy = live.cloneNode(true);
  for (const el of copy.querySelectorAll('*')) {
    for (const name of el.getAttributeNames()) if (name.startsWith('data-')) el.removeAttribute(name);
  }
  return copy.innerHTML.trim().replace(/^ {8}/gm, '');
}

for (const code of document.querySelectorAll('code[data-snippet]')) {
  const name = code.dataset.snippet;
  if (name === 'embed-size') {
    fetch('embed-size.js')
      .then((r) => r.text())
      .then((text) => {
        code.textContent = `<script>\n${text.trim()}\n</script>`;
      });
    continue;
  }
  const live = document.querySelector(`[data-live="${name}"]`);
  if (live)
    code.textContent = snippetOf(live)
      .replace(/="\s*"/g, '')
      .replace(/ permalink=""/g, ' permalink');
}

const table = document.querySelector('[data-out="attribute-table"] tbody');
loadEngine()
  .then((engine) => engine.call({ op: 'presets' }))
  .catch(() => null)
  .then((presets) => {
    table.replaceChildren(
      ...attributeRows(presets).map((cells) => {
        const row = document.createElement('tr');
        cells.forEach((text, i) => {
          const cell = document.createElement(i < 2 ? 'th' : 'td');
          if (i < 2) cell.scope = 'row';
          const code = i < 2 ? document.createElement('code') : null;
          (code ?? cell).textContent = i === 0 ? `<${text}>` : text;
          if (code) cell.append(code);
          row.append(cell);
        });
        return row;
      }),
    );
    table.closest('table').dataset.rows = String(table.childElementCount);
  });
