// Adds a stylesheet link to a document's <head> unless the page already links it (compared by resolved URL).
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
