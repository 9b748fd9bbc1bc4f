// Gives a document the page-level stylesheet (css/embed.css: reserved sizes, print) unless the page already has it:
// a link to it (compared by resolved URL, or by its name when a bundler renamed it), or its text adopted before.
import { applySheets } from './sheets.js';

/** Returns the <link> for `href` in `doc`, adding one when missing. */
export function ensurePageStylesheet(doc, href) {
  const present = [...doc.querySelectorAll('link[rel~="stylesheet"]')].find((link) => link.href === href);
  if (present) return present;
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  doc.head.append(link);
  return link;
}

/** A link a page wrote to embed.css under any folder, or a bundler's renamed copy of it (embed-<hash>.css). */
const EMBED_LINK = /(^|\/)embed([-.]\w{6,})?\.css([?#]|$)/;
const ADOPTED = Symbol.for('parascope.embedSheet');

/**
 * `css` from sheet() (lib/sheets.js): a URL is linked as ensurePageStylesheet does; a text is adopted by the
 * document once, unless the page links its own embed.css (then its rules, in the page's order, are the ones in force).
 */
export function ensurePageSheet(doc, css) {
  if (css.href !== undefined) return ensurePageStylesheet(doc, css.href);
  if (doc[ADOPTED]) return null;
  doc[ADOPTED] = true;
  const linked = [...doc.querySelectorAll('link[rel~="stylesheet"]')].some((l) =>
    EMBED_LINK.test(l.getAttribute('href') ?? ''),
  );
  return linked ? null : (applySheets(doc, [css], doc.head)[0] ?? null);
}
