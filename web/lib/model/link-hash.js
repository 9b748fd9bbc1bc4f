// Widget state in the URL hash: "#bubble.stages=8&bubble.schedule=1f1b&ring.gpus=8", each widget under its own key.
// Pure: takes and returns hash strings. Values come back as raw text; the widget parses them like its attributes.

/** Longest hash read (characters): a longer one is cut here, so a hostile link cannot make the page parse megabytes. */
export const MAX_HASH = 4096;

/** The params of a hash ("#a=1&b=2" or "a=1&b=2"), in order; parts without "=" (a heading's anchor) are dropped. */
function params(hash) {
  const text = String(hash ?? '')
    .slice(0, MAX_HASH)
    .replace(/^#/, '');
  const out = [];
  for (const part of text.split('&')) {
    if (!part.includes('=')) continue;
    for (const [name, value] of new URLSearchParams(part)) out.push([name, value]);
  }
  return out;
}

const prefixOf = (key) => (key ? `${key}.` : '');

/** Whether a param name belongs to the widget with `key` ('' is the bare names of an embed: no dot in them). */
function owns(key, name) {
  if (!key) return !name.includes('.');
  return name.startsWith(prefixOf(key)) && name.length > key.length + 1;
}

/** The values the hash holds for the widget with `key`: a Map from attribute name to raw text (first one wins). */
export function readHash(hash, key) {
  const found = new Map();
  for (const [name, value] of params(hash)) {
    if (!owns(key, name)) continue;
    const attribute = name.slice(prefixOf(key).length);
    if (!found.has(attribute)) found.set(attribute, value);
  }
  return found;
}

/**
 * The key of the widget the hash was written for: the one whose values come first ("#ring.gpus=6&axes.axis=data" ->
 * "ring"), so a link carrying several figures' states opens at the figure whose link was copied. null when the hash
 * names no keyed widget (bare names of an embed, a heading's anchor).
 */
export function firstKey(hash) {
  for (const [name] of params(hash)) {
    const dot = name.indexOf('.');
    if (dot > 0 && dot < name.length - 1) return name.slice(0, dot);
  }
  return null;
}

/** Whether the hash names anything for the widget with `key`. */
export function hashNames(hash, key) {
  return readHash(hash, key).size > 0;
}

/**
 * The hash with the widget's values replaced by `values` ({ attribute: value }; null, undefined and false are left
 * out, true is written "true"), placed first so a link opens at this widget; every other widget's values are kept.
 * `keep` lists bare names that are not this widget's state (the embed's "widget") and stay in front.
 */
export function writeHash(hash, key, values, { keep = [] } = {}) {
  const mine = new URLSearchParams();
  const kept = [];
  const others = [];
  for (const [name, value] of params(hash)) {
    if (keep.includes(name)) kept.push([name, value]);
    else if (!owns(key, name)) others.push([name, value]);
  }
  for (const [name, value] of kept) mine.append(name, value);
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === false) continue;
    mine.append(`${prefixOf(key)}${name}`, value === true ? 'true' : String(value));
  }
  for (const [name, value] of others) mine.append(name, value);
  const text = mine.toString();
  return text ? `#${text}` : '';
}
