// Labelled form controls for widgets: select, number field, range slider. `input` while dragging, `change` on commit.
// Each control has a hint line under it: hint(text) explains there, next to the control, why its value moved or what
// it needs; hint('') hides it. Also the step-by-step buttons of the figures that are walked (stepButtons).
import { h, setAttributes, setText } from './dom.js';

/** The hint line of a control and its setter. */
function hintLine(id) {
  const line = h('span', { class: 'hint', id: `${id}-hint`, hidden: true });
  const hint = (text) => {
    line.textContent = text ?? '';
    line.hidden = !text;
  };
  return { line, hint };
}

let nextId = 0;
const uid = (prefix) => `${prefix}-${(nextId += 1)}`;

/**
 * Characters past which a select's choice no longer fits half the controls of a 360 px figure (about 110 px of 15 px
 * text): its control is marked data-long, and css/widget.css gives it the whole row there (more columns where a
 * figure's columns are narrow), so the choice shows whole. Fixed from the options, not measured: no layout shift.
 */
export const LONG_CHOICE = 13;

/** A labelled <select>; options are [value, label] pairs, or [value, label, whole label] (its title). onChange(value). */
export function selectControl({ label, options, value, onChange, name }) {
  const id = uid('sel');
  const select = h(
    'select',
    { id, name: name ?? id },
    options.map(([v, text, whole]) =>
      h('option', { value: v, selected: v === value, title: whole !== text ? whole : null }, text),
    ),
  );
  select.addEventListener('change', () => onChange(select.value));
  const { line, hint } = hintLine(id);
  select.setAttribute('aria-describedby', line.id);
  const long = options.some(([, text]) => String(text).length > LONG_CHOICE);
  return {
    element: h(
      'label',
      { class: 'control', for: id, 'data-long': long ? '' : null },
      h('span', { class: 'label' }, label),
      select,
      line,
    ),
    input: select,
    hint,
  };
}

/** A labelled numeric field; onChange(number) fires for valid numbers only, invalid text is marked aria-invalid. */
export function numberControl({ label, value, min, max, step = 'any', onChange, name, unit }) {
  const id = uid('num');
  const input = h('input', { id, name: name ?? id, type: 'number', inputmode: 'decimal', value, min, max, step });
  input.addEventListener('input', () => {
    const v = Number(input.value);
    const ok =
      input.value.trim() !== '' &&
      Number.isFinite(v) &&
      (min === undefined || v >= min) &&
      (max === undefined || v <= max);
    input.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) onChange(v);
  });
  const { line, hint } = hintLine(id);
  input.setAttribute('aria-describedby', line.id);
  return {
    element: h(
      'label',
      { class: 'control', for: id },
      h('span', { class: 'label' }, label),
      input,
      unit ? h('span', { class: 'unit' }, unit) : null,
      line,
    ),
    input,
    hint,
  };
}

/** A labelled range slider showing its value; onInput(value) while dragging, onChange(value) on release. */
export function sliderControl({ label, value, min, max, step = 1, onInput, onChange, name, format = String }) {
  const id = uid('rng');
  const input = h('input', {
    id,
    name: name ?? id,
    type: 'range',
    value,
    min,
    max,
    step,
    'aria-valuetext': format(value),
  });
  const output = h('output', { for: id }, format(value));
  const read = () => {
    const v = Number(input.value);
    const text = format(v);
    setText(output, text); // once per press: the figure's redraw sets the slider again (set) with the same value
    setAttributes(input, { 'aria-valuetext': text });
    return v;
  };
  input.addEventListener('input', () => onInput?.(read()));
  input.addEventListener('change', () => onChange?.(read()));
  const { line, hint } = hintLine(id);
  input.setAttribute('aria-describedby', line.id);
  /** Moves the slider without firing its handlers (a dependent control following another). */
  const set = (v) => {
    input.value = String(v);
    read();
  };
  return {
    element: h(
      'label',
      { class: 'control slider', for: id },
      h('span', { class: 'label' }, label),
      input,
      output,
      line,
    ),
    input,
    hint,
    set,
  };
}

/** The buttons of a figure walked step by step (ring, context): to the start, one back, play/pause, one forward. */
export function stepButtons({ start, back, toggle, forward }) {
  return {
    reset: h('button', { type: 'button', name: 'reset', onclick: start }, '↺ Start'),
    back: h('button', { type: 'button', name: 'back', onclick: back }, '◀ Back'),
    play: h('button', { type: 'button', name: 'play', 'aria-pressed': 'false', onclick: toggle }, '▶ Play'),
    forward: h('button', { type: 'button', name: 'forward', onclick: forward }, 'Step ▶'),
  };
}
