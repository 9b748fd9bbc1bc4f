// Everything <parascope-axes> shows for one state, from the engine's answers: the widget only paints this.
import { caption, colourKey, gpuReadout, gridName } from './captions.js';
import { expertPanel, noRoutingText } from './expert-facts.js';
import { focusLinks, gridLayout } from './layout.js';
import { AXES, TABS } from './tabs.js';
import { trafficRows } from './traffic-rows.js';

/** The words that do not depend on the tab or the focused GPU, for every tab at once (stacked to a steady height). */
export function staticText(placement) {
  const readouts = placement.ranks.map((r) => gpuReadout(placement, r.rank));
  return {
    captions: TABS.map((axis) => ({ axis, text: caption(axis, placement) })),
    keys: TABS.map((axis) => ({ axis, ...colourKey(axis, placement) })),
    longestReadout: readouts.reduce((a, b) => (b.length > a.length ? b : a), ''),
  };
}

/** Stroke width of an axis's links: ∝ √(bytes per GPU per step), from the engine's traffic rows. */
export function linkWidths(traffic) {
  const rows = traffic?.axes ?? [];
  const max = Math.max(1, ...rows.map((r) => r.bytes_per_gpu));
  // In half pixels: with arbitrary fractions the same links were anti-aliased differently on the plain and the hostile
  // test pages (tests/browser/isolation.test.mjs); half-pixel widths draw alike.
  return Object.fromEntries(
    rows.map((r) => [r.axis, Math.round(2 * (1.5 + 3.5 * Math.sqrt(r.bytes_per_gpu / max))) / 2]),
  );
}

/**
 * The view for `state` ({ axis, focus, skew }) given the engine's `placement` and `traffic` answers, the routing
 * `route` answered to `routeAsked` (both null when nothing is routed), the presets entry `model` (null before the
 * presets answer is read: no text about the router then) and the grid's width in CSS pixels.
 */
export function axesView({ state, placement, traffic, route, routeAsked, model, width }) {
  const { axis, focus } = state;
  const expert = route ? expertPanel(route, routeAsked, placement) : null;
  const hot = expert?.hotGpus ?? [];
  const drawnAxes = axis === 'all' ? AXES : [axis];
  return {
    axis,
    focus,
    readout: gpuReadout(placement, focus),
    rows: trafficRows(traffic, axis),
    layout: gridLayout(placement, width),
    links: focusLinks(placement, drawnAxes, focus),
    widths: linkWidths(traffic),
    hot,
    gridName: gridName({ axis, placement, focus, hot, hotExpert: expert?.hotExpert ?? null }),
    expert,
    noRouting: expert || !model ? '' : noRoutingText(model),
  };
}
