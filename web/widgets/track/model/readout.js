// What the figure says about one point and about the view, in a reader's words, from the record's numbers.
import { familyLabel } from './families.js';
import { sourceName } from './sources.js';

const pct = (v) => `${v.toFixed(1)} %`;
const gib = (v) => `${v.toFixed(1)} GiB`;
const ratio = (v) => v.toFixed(3);
const counted = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The point's text: { title (the run), numbers (predicted, measured, measured / predicted in words), where (stack,
 * chip, GPUs), publication (its name), verdict (memory: the engine's fits call against what happened), label
 * (all of it in one line, for the keyboard's announcement) }.
 */
export function pointText(p, view) {
  const fmt = view === 'speed' ? pct : gib;
  const what = view === 'speed' ? 'MFU' : 'peak memory per GPU';
  const numbers =
    `Predicted ${what} ${fmt(p.x)}, measured ${fmt(p.y)}: measured / predicted ${ratio(p.ratio)}` +
    (view === 'speed' ? ' (held out: fitted without this publication)' : ' (reserve fitted without this publication)');
  const where = `${familyLabel(p.family)} (software "${p.software}"), ${p.gpus} × ${p.hardware}`;
  const verdict = `The engine called it ${p.calledFits ? 'fits' : 'does not fit'}; the source reports: ${p.outcome}.`;
  const publication = sourceName(p.publication);
  return {
    title: p.run,
    numbers,
    where,
    publication,
    verdict,
    label: `${p.run}. ${numbers}. ${where}. ${publication}.`,
  };
}

/** The summary under the title: how many runs are drawn, from how many publications, and the view's median. */
export function viewSummary(points, rows, view, medianRatio) {
  const what = view === 'speed' ? 'MFU' : 'peak memory per GPU';
  return (
    `${counted(points.length, 'published run')} from ${counted(rows.length, 'publication')}: measured against ` +
    `predicted ${what}, each predicted without its own publication. Median measured / predicted: ` +
    `${ratio(medianRatio)}.`
  );
}
