// The line an exported figure (SVG, PNG) is headed with: the export's title less the part the figure already says in
// a headline of its own (the memory and run figures' configuration line, the context figure's summary, the nccl
// figure's table title), so that no sentence is drawn twice. Pure: texts in, text out.

/**
 * A text of the figure that ends the title counts as its headline when it is at least this many characters and at
 * least half the title: a number and its unit ending both ("3.6 ms per all-reduce") is a readout, not the same sentence.
 */
const LEAST_HEADLINE = 20;

const squash = (text) =>
  String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The heading for `title` over a figure that shows `shown` (the texts of its elements): the title whole when the
 * figure does not end it with one of them, else what comes before (its trailing ":" or "," dropped; '' when the
 * figure shows the whole title: then the export has no heading of its own).
 */
export function exportHeading(title, shown) {
  const whole = squash(title);
  let cut = whole.length;
  for (const text of shown) {
    const said = squash(text);
    const long = said.length >= Math.max(LEAST_HEADLINE, whole.length / 2);
    if (long && whole.endsWith(said)) cut = Math.min(cut, whole.length - said.length);
  }
  return whole.slice(0, cut).replace(/[\s:;,.–—-]+$/u, '');
}
