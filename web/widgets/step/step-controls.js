// The step figure's controls: the step request (model, chip, tp, pp, dp, schedule, microbatches per pipeline, each
// list from the engine's presets or powers of two) and which stages are drawn. Builds them; the element decides.
import { selectControl, sliderControl } from '../../lib/controls.js';
import { chipChoices, scheduleChoices } from '../../lib/model/engine-lists.js';
import { dataParallel, microbatches, powersUpTo } from './model/request.js';

/** The most stages drawn at once (the attribute's bound). */
export const MOST_SHOWN = 64;

const numbers = (list) => list.map((v) => [String(v), String(v)]);

/**
 * Builds the controls for state `s`, in the order they stand; `on(key, value)` is called with the state key and the new
 * value. Four to a row (step.css: the model, the chip and the schedule take two columns each) the rows are full: model
 * and chip; tp, pp, dp and microbatches; schedule and the two stage sliders. Two to a row, too.
 */
export function stepControls(presets, s, on) {
  const dp = dataParallel(s);
  const m = microbatches(s);
  const select = (label, name, value, options, key, read = Number) =>
    selectControl({ label, name, value: String(value ?? ''), options, onChange: (v) => on(key, read(v)) });
  const c = {
    model: select(
      'Model',
      'model',
      s.model,
      presets.models.map((x) => [x.id, x.name]),
      'model',
      String,
    ),
    hardware: select('Chip', 'hardware', s.hardware, chipChoices(presets), 'hardware', String),
    tp: select('Tensor parallel (tp)', 'tp', s.tp, numbers(powersUpTo(64, s.tp)), 'tp'),
    pp: select('Pipeline stages (pp)', 'pp', s.pp, numbers(powersUpTo(128, s.pp)), 'pp'),
    dp: select('Data parallel (dp)', 'dp', dp ?? '', numbers(powersUpTo(1024, dp ?? undefined)), 'dp'),
    microbatches: select(
      'Microbatches per pipeline',
      'microbatches',
      m ?? '',
      numbers(powersUpTo(1024, m ?? undefined)),
      'microbatches',
    ),
    schedule: select(
      'Schedule',
      'schedule',
      s.schedule ?? '',
      [['', "the engine's choice"], ...scheduleChoices()],
      'schedule',
      (v) => v || null,
    ),
    shown: sliderControl({
      label: 'Stages drawn',
      name: 'stages-shown',
      value: Math.min(s.shown, s.pp),
      min: 1,
      max: Math.max(1, Math.min(MOST_SHOWN, s.pp)),
      onChange: (v) => on('shown', v),
    }),
    first: sliderControl({
      label: 'From stage',
      name: 'first-stage',
      value: s.first,
      min: 0,
      max: Math.max(0, s.pp - Math.min(s.shown, s.pp)),
      onInput: (v) => on('first', v),
    }),
  };
  c.shown.input.disabled = s.pp < 2;
  c.first.input.disabled = s.pp <= s.shown;
  return c;
}
