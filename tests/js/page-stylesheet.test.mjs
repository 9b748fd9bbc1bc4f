// ensurePageStylesheet: a widget adds the page-level stylesheet (reserved sizes, print) only when the page lacks it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ensurePageStylesheet } from '../../web/lib/page-stylesheet.js';

/** A document with just enough of the DOM: a head holding links with resolved hrefs. */
function fakeDocument(hrefs) {
  const head = {
    children: [],
    append(node) {
      this.children.push(node);
    },
  };
  for (const href of hrefs) head.append({ rel: 'stylesheet', href });
  return {
    head,
    createElement: () => ({ rel: '', href: '' }),
    querySelectorAll: () => head.children.filter((l) => l.rel.split(/\s+/).includes('stylesheet')),
  };
}

const EMBED = 'https://blog.example/parascope/css/embed.css';

test('adds the stylesheet to a page that does not link it', () => {
  const doc = fakeDocument(['https://blog.example/theme.css']);
  const link = ensurePageStylesheet(doc, EMBED);
  assert.equal(doc.head.children.length, 2);
  assert.deepEqual({ rel: link.rel, href: link.href }, { rel: 'stylesheet', href: EMBED });
});

test('leaves a page that links it alone, and adds it once however many widgets ask', () => {
  const doc = fakeDocument([EMBED]);
  ensurePageStylesheet(doc, EMBED);
  const empty = fakeDocument([]);
  ensurePageStylesheet(empty, EMBED);
  ensurePageStylesheet(empty, EMBED);
  assert.equal(doc.head.children.length, 1);
  assert.equal(empty.head.children.length, 1);
});
