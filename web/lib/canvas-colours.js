// A canvas figure's colours as its drawing code needs them: the widget's CSS custom properties resolved where they are
// set (so a theme change follows), each normalised to [r, g, b] by the canvas itself (it turns any CSS colour into
// #rrggbb or rgba()). Read again on every theme change.
import { parseColour } from './model/colour.js';

/** The colours of `element` as `canvas` paints them: of('--name') for a custom property, fg for its text colour. */
export function canvasColours(element, canvas) {
  const style = getComputedStyle(element);
  const probe = canvas.getContext('2d');
  return {
    style,
    of(name) {
      probe.fillStyle = '#000';
      probe.fillStyle = style.getPropertyValue(name).trim() || '#000';
      return parseColour(probe.fillStyle) ?? [0, 0, 0];
    },
    fg: parseColour(style.color) ?? [0, 0, 0],
  };
}
