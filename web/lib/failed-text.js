// The note a reader sees in place of a figure whose script failed: lib/register-widgets.js writes it, and the embed's
// loader (embed.js) when the figure's own bundle could not load. A module of its own so the loader carries nothing else.

/** The note, with why the script failed. */
export const failedText = (why) =>
  `This figure could not start: its script failed (${why}). The other figures on this page ` +
  'are not affected; reloading the page may help.';
