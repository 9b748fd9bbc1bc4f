// Downloads a widget's figure (SVG with fonts and colours inlined; PNG at 2×) and its numbers (CSV, JSON).
export async function downloadFigure() {
  throw new Error('not yet');
}
