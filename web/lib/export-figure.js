// Downloads a widget's figure (SVG with fonts and colours inlined; PNG at 2×) and its numbers (CSV, JSON), each named
// after the widget and its state. The widget's exportFigure() says what to capture and which numbers it shows.
// Loaded only when a download is asked (lib/widget-tools.js); a widget that draws a canvas loads its own vector
// drawers (exportFigure().drawers) at the same moment.
import { figureSvg, pngBlob, svgText } from './figure-svg.js';
import { answerRows, csvText, fileName, jsonText } from './model/export-data.js';

/** Makes the file and starts its download; resolves to the file's name. */
export async function downloadFigure(widget, format) {
  const figure = widget.exportFigure();
  if (!figure) throw new Error('this figure has nothing to export');
  const name = fileName(widget.localName.replace(/^parascope-/, ''), figure.words, format);
  let blob;
  if (format === 'svg' || format === 'png') {
    const drawers = figure.drawers ? await figure.drawers() : {}; // what the widget's vector(canvas, box, drawers) uses
    const drawing = figureSvg(figure.root, {
      title: figure.title,
      vector: figure.vector && ((canvas, box) => figure.vector(canvas, box, drawers)),
      background: getComputedStyle(widget.body).backgroundColor,
    });
    const text = svgText(drawing);
    blob =
      format === 'svg'
        ? new Blob([text], { type: 'image/svg+xml' })
        : await pngBlob(text, Number(drawing.getAttribute('width')), Number(drawing.getAttribute('height')), 2);
  } else if (format === 'csv') {
    const table = typeof figure.table === 'function' ? await figure.table() : figure.table; // made on demand
    blob = new Blob([csvText(table ?? [['field', 'value'], ...answerRows(figure.data.response)])], {
      type: 'text/csv',
    });
  } else {
    blob = new Blob([jsonText({ source: 'parascope', title: figure.title, ...figure.data })], {
      type: 'application/json',
    });
  }
  save(blob, name);
  return name;
}

/** Hands a Blob to the browser as a download called `name`. */
function save(blob, name) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
