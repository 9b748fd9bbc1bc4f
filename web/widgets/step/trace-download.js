// "Download trace": the engine's own Chrome Trace Event file (`timeline` with "format": "chrome", engine/API.md) for
// the step shown, which Perfetto UI and chrome://tracing open. Made in the page; nothing is sent anywhere.
import { h } from '../../lib/dom.js';
import { grouped } from '../../lib/format.js';

/**
 * The most events one file is asked for: ~110 bytes of text each at the trace's full detail (engine/API.md: up to
 * 150,000 events), so ~11 MB, inside the 20 MB trace budget and well inside the wasm's heap. A larger step is
 * written for the stages on screen, every event drawn.
 */
export const MOST_TRACE_EVENTS = 100_000;

/**
 * Which stages to write: every stage when their events (estimated from the stages held: events per stage alike
 * within a schedule) stay under MOST_TRACE_EVENTS, else the stages shown, cut to fit. { stages (null: all), whole }.
 */
export function traceStages(pp, shown, eventsPerStage) {
  const per = Math.max(1, eventsPerStage);
  if (pp * per <= MOST_TRACE_EVENTS) return { stages: null, whole: true };
  const fit = Math.max(1, Math.floor(MOST_TRACE_EVENTS / per));
  return { stages: shown.slice(0, fit), whole: false };
}

/** Saves `text` as file `name` (an object URL, revoked after the click). */
function save(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The button; `act()` runs on its click (element.js: saveTrace, in the module loaded on first use). */
export function traceButton(act) {
  return h(
    'button',
    {
      type: 'button',
      name: 'trace', // not download-*: those are the four figure exports every figure offers (export.test.mjs)
      class: 'tool',
      'aria-label': 'Download this step as a Chrome trace (opens in Perfetto)',
      onclick: act,
    },
    'Trace (Perfetto)',
  );
}

/**
 * The button's click. `make()` resolves to { text (the engine's answer), name, stages (null: all), pp } or rejects
 * with an EngineError (or a failed load of the engine that writes it); `say(text)` reports beside the button.
 */
export async function saveTrace(make, say) {
  try {
    const t = await make();
    save(t.text, t.name);
    say(
      t.stages
        ? `Saved ${t.name}: stages ${t.stages[0]}–${t.stages[t.stages.length - 1]} of ${grouped(t.pp)} (the whole step would be too large a file)`
        : `Saved ${t.name}; open it at ui.perfetto.dev`,
    );
  } catch (err) {
    say(
      `Could not make the trace: ${err.code === 'too_large' ? 'too many events for one file' : err.code ? err.message : 'the engine that writes it did not load'}`,
    );
  }
}
