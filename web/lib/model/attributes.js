// Every attribute of every parascope element, in one place: kind, range, default and what it does. The widgets read
// their attributes (and permalink values) with these specs (each from its own file, widgets/<name>/attributes.js, so a widget
// embedded alone loads no other widget's), the iframe route takes only these names, and the embed guide's table and
// the editor hints (types/, html-custom-data.json) are checked against this list.
import { FIGURES } from '../../widgets/index.js';

/** tag -> its attribute specs: each figure's widgets/<name>/attributes.js (widgets/index.js), read once at load. */
export const ATTRIBUTES = Object.fromEntries(
  await Promise.all(
    FIGURES.map(async ({ tag, name }) => [tag, (await import(`../../widgets/${name}/attributes.js`)).ATTRIBUTES]),
  ),
);

/** The element names, in the article's order. */
export const ELEMENTS = Object.keys(ATTRIBUTES);

/** The values of the engine's presets list `list` as attribute text: ids of objects (models, hardware, schedules), else the values. */
export function presetValues(presets, list) {
  return presets[list].map((x) => (typeof x === 'object' ? x.id : String(x)));
}

/** The spec of `element`'s attribute `name` with `choices` filled from the engine's presets answer where they come from it. */
export function attributeSpec(element, name, presets = null) {
  const spec = ATTRIBUTES[element]?.[name];
  if (!spec) return null;
  if (spec.engine && presets) return { ...spec, choices: presetValues(presets, spec.engine) };
  return spec;
}

/** What each presets list the attributes take values from holds, in words. */
const ENGINE_LIST_WORDS = {
  models: 'model presets',
  hardware: 'hardware presets',
  schedules: 'pipeline schedules',
  recompute: 'recomputation modes',
  zero: 'ZeRO stages',
  attention: 'attention FLOP conventions',
  plan_objectives: 'plan objectives',
  precisions: 'precisions',
  software: 'software stacks',
};

/** The range or values of a spec in words ("1 to 32", "gpipe, 1f1b, …", "any hardware preset"). */
export function rangeText(spec) {
  if (spec.kind === 'int') return `${spec.min.toLocaleString('en-US')} to ${spec.max.toLocaleString('en-US')}, whole`;
  if (spec.kind === 'number' && spec.min < 0) return `0 to ${spec.max}`;
  if (spec.kind === 'number') return spec.max < 1e17 ? `above ${spec.min}, at most ${spec.max}` : `above ${spec.min}`;
  if (spec.kind === 'flag') return 'present or absent';
  if (spec.kind === 'key') return 'a short name (letters, digits, - and _)';
  if (spec.choices) return spec.choices.join(', ');
  return `one of the engine's ${ENGINE_LIST_WORDS[spec.engine]}`;
}

/** The default of a spec in words. */
export function defaultText(spec) {
  if (spec.defaultText) return spec.defaultText;
  if (spec.kind === 'flag') return 'absent';
  return typeof spec.fallback === 'number' ? spec.fallback.toLocaleString('en-US') : String(spec.fallback);
}
