// The axis tabs of <parascope-axes>: their order and names, and where ←/→/Home/End move the selection (WAI-ARIA tabs).

/** The four parallel axes, in the order the figure introduces them. */
export const AXES = ['data', 'tensor', 'pipeline', 'expert'];

/** The tabs: one per axis, then all four together. */
export const TABS = [...AXES, 'all'];

/** The text on each tab. */
export const TAB_NAMES = { data: 'data', tensor: 'tensor', pipeline: 'pipeline', expert: 'expert', all: 'all four' };

/**
 * The tab a key press in the tablist selects from `current`, or null when the key is not a tab key.
 * ← and → wrap around the ends (as the WAI-ARIA Authoring Practices' tabs pattern does); Home and End jump.
 */
export function tabAfterKey(current, key) {
  const i = TABS.indexOf(current);
  if (i < 0) return null;
  if (key === 'ArrowRight') return TABS[(i + 1) % TABS.length];
  if (key === 'ArrowLeft') return TABS[(i - 1 + TABS.length) % TABS.length];
  if (key === 'Home') return TABS[0];
  if (key === 'End') return TABS[TABS.length - 1];
  return null;
}
