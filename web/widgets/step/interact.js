// <parascope-step>'s reading and moving: hover, drag, wheel and keys, the event walk, the readout of an event, the
// trace download and the CSV's rows, and a refusal's words. Loaded on the reader's first move, download or refused
// step (element.js, `moves`), so a figure only looked at never downloads it (embedded alone, ~2.5 KB gzip of its first
// bytes: issue 29). Each function takes the element and reads its state.
import { EngineError } from '../../lib/engine-error.js';
import { kindOfPiece } from '../../lib/model/focus.js';
import { eventAt, lowerBound } from './model/lanes.js';
import { rowAt } from './model/layout.js';
import * as R from './model/request.js';
import { eventText, timelineErrorText } from './model/text.js';
import { askWindow, clampView, keyMove, panView, wheelFactor, zoomView } from './model/view.js';
import { saveTrace, traceStages } from './trace-download.js';

/** Time at client x, and the plot's box. */
function timeAt(el, clientX) {
  const box = el.canvas.getBoundingClientRect();
  const x = clientX - box.left;
  return { t: el.view.t0 + (x / Math.max(1, box.width)) * (el.view.t1 - el.view.t0), box, x };
}

/** The pointer over the canvas: the event under it read (2 px either side), or none. */
export function hover(el, e) {
  if (!el.layout) return;
  const { t, box } = timeAt(el, e.clientX);
  const row = rowAt(el.layout, e.clientY - box.top);
  if (!row?.lane) return showEvent(el, null);
  const slack = (2 * (el.view.t1 - el.view.t0)) / Math.max(1, box.width); // 2 px either side
  const k = eventAt(row.lane, t, slack);
  showEvent(el, k >= 0 ? { row, k } : null);
}

/** A drag from el.drag ({ x, view } at the press): the window follows the pointer. */
export function dragTo(el, e) {
  const d = el.drag;
  if (!d?.view || !el.view) return;
  const { box } = timeAt(el, e.clientX);
  const fraction = -(e.clientX - d.x) / Math.max(1, box.width);
  moveView(el, panView(d.view, fraction, el.store.head.step_time));
}

/** A wheel the chart took (element.js decides, synchronously): across pans, up and down zoom about the pointer. */
export function wheel(el, e) {
  if (!el.view) return;
  const stepTime = el.store.head.step_time;
  const across = e.shiftKey ? e.deltaY : e.deltaX;
  const { t, box } = timeAt(el, e.clientX);
  if (Math.abs(across) > Math.abs(e.deltaY) || e.shiftKey) {
    moveView(el, panView(el.view, across / Math.max(1, box.width), stepTime));
    return;
  }
  moveView(el, zoomView(el.view, wheelFactor(e.deltaY * (e.deltaMode === 1 ? 33 : 1)), t, stepTime));
}

/** A key on the chart (or a zoom button): true when it was the chart's. */
export function key(el, name) {
  if (!el.view) return false;
  const move = keyMove(name, el.view, el.store.head.step_time, el.shown.length);
  if (!move) return false;
  if (move.view) moveView(el, move.view);
  else if (move.stages) el.change('first', Math.max(0, el.state.first + move.stages));
  else walk(el, move);
  return true;
}

/** The keys' event walk: the next or previous event of the row read, or the same time on the row below or above. */
function walk(el, { event = 0, row = 0 }) {
  if (!el.layout) return;
  const rows = el.layout.rows.filter((r) => r.lane);
  const hit = el.hit;
  const at = hit ? rows.indexOf(hit.row) : -1;
  const r = rows[Math.max(0, Math.min(rows.length - 1, at + row))];
  if (!r) return;
  const t = hit ? hit.row.lane.start[hit.k] : el.view.t0;
  const last = r.lane.start.length - 1;
  const k = Math.max(0, Math.min(last, at < 0 || row !== 0 ? lowerBound(r.lane.start, t) : hit.k + event));
  const past = at >= 0 && row === 0 && k !== hit.k + event;
  if (past && r.gpu.window !== null && relaid(el, () => el.ask(el.store.missing(el.shown), el.store))) {
    return walk(el, { event, row }); // read past the window answered: the whole step asked for, then read on
  }
  const { start, end } = r.lane;
  if (start[k] < el.view.t0 || end[k] > el.view.t1) {
    // bring the event into view, the window's width kept where it can be
    const span = Math.max(el.view.t1 - el.view.t0, end[k] - start[k]);
    const mid = (start[k] + end[k]) / 2;
    moveView(el, clampView({ t0: mid - span / 2, t1: mid + span / 2 }, el.store.head.step_time));
  }
  showEvent(el, { row: r, k });
}

function moveView(el, view) {
  el.view = view;
  cover(el);
  el.requestDraw();
}

/**
 * Asks again when the view has left the window the drawn stages were answered for (a zoomed view's pan or zoom out):
 * the new window, or the whole step once the view is wide. The event read stays read.
 */
function cover(el) {
  const missing = el.store.missing(el.shown, { from: el.view.t0, to: el.view.t1 });
  if (!missing.length) return;
  const window = askWindow(el.view, el.store.head.step_time);
  relaid(el, () => el.ask(missing, el.store, window));
}

/** Runs `asked` (which may replace the drawn stages' answers) and lays the GPUs out anew, the event read kept. */
function relaid(el, asked) {
  const h = el.hit;
  const was = h && { gpu: h.row.gpu.gpu, lane: h.row.laneId, t: h.row.lane.start[h.k] };
  if (!asked()) return false;
  el.gpus = el.store.gpusOf(el.shown);
  el.layout = null;
  el.drawNow(false);
  if (was) {
    const row = el.layout?.rows.find((r) => r.lane && r.gpu.gpu === was.gpu && r.laneId === was.lane);
    showEvent(el, row ? { row, k: lowerBound(row.lane.start, was.t) } : null);
  }
  return true;
}

/** Reads event `hit` ({ row, k }) in the readout and marks it on the chart; null: none (the element's own words). */
function showEvent(el, hit) {
  if (!hit) return el.unread();
  el.hit = hit;
  const { row, k } = hit;
  el.pointAt(kindOfPiece(el.store.head.pieces[row.lane.piece[k]]?.id));
  el.out.readout.textContent = eventText(row.gpu, row.laneId, k, el.store.head);
  el.colours ??= el.readColours();
  el.out.readout.style.borderLeftColor = el.colours.css[row.lane.piece[k]];
  placeMarker(el);
}

/** The outline around the event read, where the view puts it (hidden when it is off screen). */
export function placeMarker(el) {
  const hit = el.hit;
  if (!hit || !el.layout || !el.plotSize) return;
  const { row, k } = hit;
  const { t0, t1 } = el.view;
  const kx = el.plotSize.width / (t1 - t0);
  const x0 = Math.max(-2, (row.lane.start[k] - t0) * kx);
  const x1 = Math.min(el.plotSize.width + 2, (row.lane.end[k] - t0) * kx);
  Object.assign(el.marker.style, {
    left: `${x0 - 1}px`,
    top: `${row.top - 1}px`,
    width: `${Math.max(3, x1 - x0 + 2)}px`,
    height: `${row.h + 2}px`,
  });
  el.marker.hidden = x1 < 0 || x0 > el.plotSize.width;
}

/**
 * The engine's Chrome trace of this step (or of the stages shown, when the whole would be too large a file). The
 * figure's own module, embedded alone, writes columns only and refuses "chrome" naming the figures' engine
 * (CMakeLists.txt): that engine is loaded then, on this first click, and asked instead (el.figuresEngine).
 */
export async function traceFile(el) {
  const s = el.state;
  const held = el.gpus?.length ? el.gpus : [];
  const perStage = held.length ? held.reduce((n, g) => n + g.events.start.length, 0) / held.length : 1;
  const { stages } = traceStages(s.pp, el.shown ?? [0], perStage);
  const request = JSON.stringify(R.timelineRequest(s, stages, 'chrome'));
  let text = el.engine.callText(request);
  let err = text.startsWith('{"error"') ? JSON.parse(text).error : null;
  if (err?.code === 'unknown_op' && err.field === 'format') {
    text = (await el.figuresEngine()).callText(request);
    err = text.startsWith('{"error"') ? JSON.parse(text).error : null;
  }
  if (err) throw new EngineError(err);
  return { text, stages, pp: s.pp, name: `parascope-step-${el.fileWords().join('-')}.trace.json` };
}

/** The "Trace (Perfetto)" button's click: the file made and saved, `say(text)` reporting beside it. */
export const downloadTrace = (el, say) => saveTrace(() => traceFile(el), say);

/**
 * A refused step (`err`, an EngineError; `schedule` the one asked for) in a reader's words, over the stale step's
 * sentence, the chart greyed (step.css) and the words announced (element.js `refused`).
 */
export function refused(el, err, schedule) {
  const p = el.out.problem;
  p.textContent = timelineErrorText(err, schedule);
  p.dataset.code = err.code;
  p.hidden = false;
  el.toggleAttribute('data-stale', true);
  el.announce(p.textContent);
}

const TABLE_HEAD = [
  'gpu',
  'stage',
  'lane',
  'piece',
  'op',
  'microbatch',
  'chunk',
  'start (s)',
  'end (s)',
  'exposed (s)',
  'amount',
  'unit',
];

/** Every event in view on the GPUs drawn, one row each: the CSV download's rows (element.js exportFigure). */
export function eventTable(el) {
  const head = el.store.head;
  const rows = [TABLE_HEAD];
  const { t0, t1 } = el.view;
  for (const g of el.gpus) {
    const ev = g.events;
    for (let i = 0; i < ev.start.length; i += 1) {
      if (ev.end[i] < t0 || ev.start[i] > t1) continue;
      const p = head.pieces[ev.piece[i]];
      rows.push([
        g.gpu,
        g.stage,
        p.lane,
        p.id,
        ev.op[i],
        ev.microbatch[i],
        ev.chunk[i],
        ev.start[i],
        ev.end[i],
        ev.exposed[i],
        ev.amount[i],
        p.amount,
      ]);
    }
  }
  return rows;
}
