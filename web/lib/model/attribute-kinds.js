// The kinds of a parascope element's attribute, and the two every element has (theme, permalink).

/**
 * Kinds: "int" (whole number in [min, max]; out of range: clamped), "number" (above min, at most max), "choice" (one
 * of `choices`; `engine` names the presets op list the choices come from when they are the engine's), "flag" (present
 * or "true" means yes). `fallback` is the default; `defaultText` says it in words when it depends on something else.
 */
export const int = (min, max, fallback, about, extra = {}) => ({ kind: 'int', min, max, fallback, about, ...extra });
export const choice = (choices, fallback, about, extra = {}) => ({
  kind: 'choice',
  choices,
  fallback,
  about,
  ...extra,
});

export const THEME = choice(['light', 'dark'], null, "force a colour scheme (otherwise the reader's)", {
  defaultText: "the reader's setting",
  css: true,
});
export const PERMALINK = {
  kind: 'key',
  fallback: null,
  about:
    'mirror the state in the URL hash under this key (empty: the ' +
    'tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link"',
  defaultText: 'off',
};
