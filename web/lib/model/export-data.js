// The numbers of an export: CSV text from a table or from any engine answer (one row per field), JSON text, and the
// file name made from the widget and its state ("parascope-bubble-1f1b-8x32.csv"). Pure.

/** One CSV field: quoted when it holds a comma, quote or line break; numbers written as JS writes them (full precision). */
function field(value) {
  const text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text (RFC 4180, CRLF) from rows of values, the first row the header. */
export function csvText(rows) {
  return `${rows.map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

/** An engine answer as rows [field, value]: nested fields by dotted path, arrays of numbers kept whole in one cell. */
export function answerRows(answer, prefix = '') {
  const rows = [];
  for (const [key, value] of Object.entries(answer ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) {
      rows.push(...answerRows(value, path));
    } else if (Array.isArray(value) && value.some((v) => v && typeof v === 'object')) {
      value.forEach((v, i) =>
        rows.push(...(v && typeof v === 'object' ? answerRows(v, `${path}.${i}`) : [[`${path}.${i}`, v]])),
      );
    } else {
      rows.push([path, ArrayBuffer.isView(value) ? Array.from(value) : value]);
    }
  }
  return rows;
}

/** JSON text of what was asked and answered; typed arrays written as plain arrays. */
export function jsonText(data) {
  return `${JSON.stringify(data, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v), 2)}\n`;
}

/** A file name from the widget's short name and its state's words: lower case, [a-z0-9.-] only. */
export function fileName(widget, words, extension) {
  const slug = [widget, ...words]
    .map((w) =>
      String(w)
        .toLowerCase()
        .replace(/[^a-z0-9.]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter(Boolean)
    .join('-');
  return `parascope-${slug}.${extension}`;
}
