// The engine's lists as the presets op answers them (schedules with their names, recomputation modes, ZeRO stages,
// attention conventions, plan objectives): no list of our own. Every widget's enginePresets() hands the answer over
// (useEngineLists) before it draws; the pure modules read the lists from here. Also the chips as a select offers
// them (chipChoices) and a name as a narrow row shows it (rowName). Pure: no DOM.

let lists = null;

/** Keeps the lists of a presets answer (the engine's, once per page; a test's, before it calls a model module). */
export function useEngineLists(presets) {
  lists = {
    schedules: presets.schedules.map((s) => ({ ...s })),
    recompute: [...presets.recompute],
    zero: [...presets.zero],
    attention: [...presets.attention],
    plan_objectives: [...presets.plan_objectives],
  };
}

/** The engine's list `name` (schedules, recompute, zero, attention, plan_objectives). */
export function engineList(name) {
  if (!lists) throw new Error("internal: the engine's presets were not read yet (useEngineLists)");
  return lists[name];
}

/**
 * Characters of a name a select shows whole where it takes a 360 px figure's whole row (264 px of 15 px text;
 * lib/controls.js LONG_CHOICE is half a row).
 */
export const ROW_CHOICE = 31;

/**
 * A name of the engine's as a 360 px row shows it: one longer than a row drops its closing parenthetical ("NVIDIA
 * GB200 NVL72 (per Blackwell GPU)" -> "NVIDIA GB200 NVL72", "ICI (2D torus across the 256-chip pod)" -> "ICI"), so it
 * shows whole at the house's 15 px; the figures keep the whole name for titles and sentences.
 */
export function rowName(name) {
  return name.length > ROW_CHOICE ? name.replace(/\s*\([^()]*\)$/, '') : name;
}

/** [id, name as a row shows it (rowName), whole name] per chip of a presets answer, in its order, for a select. */
export function chipChoices(presets) {
  return presets.hardware.map((x) => {
    const name = x.name ?? x.id;
    return [x.id, rowName(name), name];
  });
}

/** [id, name] per schedule, in the engine's order (the order readers are shown them). */
export function scheduleChoices() {
  return engineList('schedules').map((s) => [s.id, s.label]);
}

/** The name of schedule `id` (the id itself when it is not a schedule). */
export function scheduleLabel(id) {
  return lists?.schedules.find((s) => s.id === id)?.label ?? id;
}

/**
 * The schedules in the order a refused change tries them: the plain one first (no flag: neither drawn forward-only,
 * nor interleaved, nor splitting the backward; the engine's default at vpp = 1), then those that interleave (what
 * vpp > 1 needs), then the rest in the engine's order.
 */
export function scheduleTries() {
  const all = engineList('schedules');
  const plain = all.filter((s) => !s.forward_only && !s.interleaves && !s.splits_backward);
  const interleaving = all.filter((s) => s.interleaves && !plain.includes(s));
  return [...plain, ...interleaving, ...all.filter((s) => !plain.includes(s) && !interleaving.includes(s))].map(
    (s) => s.id,
  );
}
