// The pipeline schedules the figures offer, by engine id, with the names readers see: one list for every widget
// (until the engine publishes its schedule registry, issue 14).

/** [engine id, name] per schedule, in the order the bubble figure lists them. */
export const SCHEDULES = [
  ['gpipe', 'GPipe'],
  ['1f1b', '1F1B'],
  ['interleaved', 'Interleaved 1F1B'],
  ['zb-h1', 'Zero bubble H1'],
  ['zb-h2', 'Zero bubble H2'],
  ['dualpipe', 'DualPipe'],
];

/** The name of schedule `id` (the id itself when it is not a schedule). */
export function scheduleLabel(id) {
  return SCHEDULES.find(([key]) => key === id)?.[1] ?? id;
}
