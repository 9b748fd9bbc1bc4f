// The widgets' stylesheets as constructable sheets: text inside the JavaScript (scripts/bundle.mjs writes each sheet's
// text where its source names the file), so no bundler's CSS rule, no CSS request and no `style-src` exception is
// involved; the unbundled sources link the file instead. Engines without adoptedStyleSheets get a <style> element.

/** A stylesheet: `from` is its text (bundled) or its URL (unbundled sources). Returns { text } or { href }. */
export function sheet(from) {
  return typeof from === 'string' ? { text: from } : { href: String(from) };
}

const constructable = () =>
  typeof CSSStyleSheet === 'function' &&
  'replaceSync' in CSSStyleSheet.prototype &&
  typeof Document === 'function' &&
  'adoptedStyleSheets' in Document.prototype;

/** One CSSStyleSheet per text, shared by every root that adopts it. */
const built = new Map();
function constructed(text) {
  let made = built.get(text);
  if (!made) {
    made = new CSSStyleSheet();
    made.replaceSync(text);
    built.set(text, made);
  }
  return made;
}

/**
 * Applies `sheets` (from sheet()) to `root` (a shadow root or a document): texts adopted after the sheets it already
 * adopts, URLs as <link> elements appended to `linkParent`. Returns the <link> and <style> elements it added.
 */
export function applySheets(root, sheets, linkParent) {
  const texts = sheets.filter((s) => s.text !== undefined);
  const added = [];
  if (texts.length && constructable()) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...texts.map((s) => constructed(s.text))];
  } else {
    for (const s of texts)
      added.push(Object.assign(linkParent.ownerDocument.createElement('style'), { textContent: s.text }));
  }
  for (const s of sheets.filter((x) => x.href !== undefined)) {
    const link = (linkParent.ownerDocument ?? linkParent).createElement('link');
    link.rel = 'stylesheet';
    link.href = s.href;
    added.push(link);
  }
  linkParent.append(...added);
  return added;
}
