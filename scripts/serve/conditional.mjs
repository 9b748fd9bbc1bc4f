// If-None-Match per RFC 9110 §13.1.2: "*", a list of entity tags, compared weakly (W/"x" matches "x").

/** The opaque part of an entity tag ("x" of W/"x" or "x"), or null when the text is not one. */
function opaqueTag(text) {
  const tag = text.trim().replace(/^W\//, '');
  return /^"[\x21\x23-\x7e\x80-\xff]*"$/.test(tag) ? tag : null;
}

/**
 * Whether a GET or HEAD with this If-None-Match header (a string, or undefined when absent) must be answered 304
 * for a file whose entity tag is `etag`: "*" matches any current representation (§13.1.2: "the condition is false
 * if ... the field value is '*'"), otherwise any listed tag that matches by weak comparison (§8.8.3.2: two tags
 * match weakly when their opaque parts are equal, whether or not either is marked weak).
 */
export function notModified(ifNoneMatch, etag) {
  if (typeof ifNoneMatch !== 'string') return false;
  if (ifNoneMatch.trim() === '*') return true;
  const mine = opaqueTag(etag);
  return ifNoneMatch.split(',').some((part) => opaqueTag(part) === mine);
}
