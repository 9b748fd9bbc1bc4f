// The figure as shown, as a standalone SVG document: the boxes, text and inline SVG inside a widget's body (controls
// and tools left out), with the computed fonts and colours written on each element, so it opens the same anywhere
// (browsers, Inkscape) without the page's CSS. A canvas is replaced by the vector drawing its widget supplies.
import { exportHeading } from './model/export-heading.js';
const NS = 'http://www.w3.org/2000/svg';
// Controls are left out; a button inside a table cell (the planner's rank) is the figure's text and stays.
const SKIP =
  '.controls, .control, .tools, .notes-anchor, .announcer, .bubble-sr, button:not(td > button), input, select, ' +
  '[hidden], .bubble-marker, .bubble-readout, .sizer, .mfu-presets, [role="tablist"]';
const PAD = 16; // margin around the figure, px
const GAP_KEPT = 12; // an empty band taller than GAP_MIN (where the controls were) shrinks to this, px
const GAP_MIN = 28;
/** SVG properties copied from the computed style onto each cloned element. */
const SVG_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'stroke-linejoin',
  'stroke-linecap',
  'visibility',
  'display',
];

/** A computed colour in the rgb()/rgba() syntax every SVG reader takes (color(srgb …) from color-mix converted). */
export function plainColour(c) {
  const m = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(c ?? '');
  if (!m) return c;
  const [r, g, b] = m.slice(1, 4).map((v) => Math.round(Math.min(1, Math.max(0, Number(v))) * 255));
  return m[4] === undefined ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${Number(m[4])})`;
}

/** Text for screen readers only: clipped to nothing, or a box of at most 1 px (the visually-hidden pattern). */
const screenReaderOnly = (cs, r) =>
  /inset\(50%\)/.test(cs.clipPath) || (cs.overflow === 'hidden' && r.width <= 1 && r.height <= 1);

const transparent = (c) => !c || c === 'transparent' || /rgba\(.*,\s*0\)$/.test(c) || / \/ 0\)$/.test(c);
const round = (v) => Math.round(v * 100) / 100;

function el(name, attributes) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attributes)) {
    if (v !== null && v !== undefined && v !== '')
      node.setAttribute(k, k === 'fill' || k === 'stroke' ? plainColour(String(v)) : String(v));
  }
  return node;
}

/** A copy of an inline <svg> with every element's computed paint and font written as attributes. */
function inlineSvg(source, box) {
  const copy = source.cloneNode(true);
  const from = [source, ...source.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((node, i) => {
    const cs = getComputedStyle(node);
    for (const p of SVG_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v && !(p === 'display' && v !== 'none') && !(p === 'visibility' && v === 'visible'))
        to[i].setAttribute(p, plainColour(v));
    }
    to[i].removeAttribute('class');
    to[i].removeAttribute('style');
  });
  copy.setAttribute('x', round(box.x));
  copy.setAttribute('y', round(box.y));
  copy.setAttribute('width', round(box.width));
  copy.setAttribute('height', round(box.height));
  if (!copy.getAttribute('viewBox')) copy.setAttribute('viewBox', `0 0 ${round(box.width)} ${round(box.height)}`);
  return copy;
}

/** Text of one DOM text node, one <text> per line it wraps to (words grouped by their line box). */
function textRuns(node, origin, out) {
  const words = node.textContent.split(/(\s+)/);
  const cs = getComputedStyle(node.parentElement);
  if (cs.visibility !== 'visible' || Number(cs.opacity) === 0) return;
  const size = parseFloat(cs.fontSize);
  const range = document.createRange();
  let offset = 0;
  let line = null;
  const flush = () => {
    if (!line || !line.text.trim()) return;
    out.append(
      Object.assign(
        el('text', {
          x: round(line.x - origin.left),
          y: round(line.top - origin.top + (line.height + size * 0.7) / 2),
          'font-family': cs.fontFamily,
          'font-size': cs.fontSize,
          'font-weight': cs.fontWeight,
          fill: cs.color,
          'font-style': cs.fontStyle === 'normal' ? null : cs.fontStyle,
          'xml:space': 'preserve',
          'data-top': round(line.top - origin.top),
          'data-bottom': round(line.top - origin.top + line.height),
        }),
        { textContent: line.text },
      ),
    );
  };
  for (const word of words) {
    const start = offset;
    offset += word.length;
    if (!word) continue;
    range.setStart(node, start);
    range.setEnd(node, offset);
    const r = range.getBoundingClientRect();
    if (/^\s+$/.test(word) || r.width === 0) {
      if (line) line.text += word;
      continue;
    }
    if (!line || Math.abs(r.top - line.top) > size * 0.5) {
      flush();
      line = { x: r.left, top: r.top, height: r.height, text: word };
    } else {
      line.text += word;
    }
  }
  flush();
}

/** A box's background and border as a <rect>, when it has either. */
function boxRect(node, cs, origin) {
  const r = node.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  const fill = transparent(cs.backgroundColor) ? 'none' : cs.backgroundColor;
  const bw = parseFloat(cs.borderTopWidth) || 0;
  const stroke = bw > 0 && cs.borderTopStyle !== 'none' && !transparent(cs.borderTopColor) ? cs.borderTopColor : null;
  const leftOnly = !stroke && parseFloat(cs.borderLeftWidth) > 0 && !transparent(cs.borderLeftColor);
  const shapes = [];
  if (fill !== 'none' || stroke) {
    shapes.push(
      el('rect', {
        x: round(r.left - origin.left + bw / 2),
        y: round(r.top - origin.top + bw / 2),
        width: round(Math.max(0, r.width - bw)),
        height: round(Math.max(0, r.height - bw)),
        rx: parseFloat(cs.borderTopLeftRadius) || null,
        fill,
        stroke,
        'stroke-width': stroke ? bw : null,
      }),
    );
  }
  if (leftOnly) {
    const w = parseFloat(cs.borderLeftWidth);
    shapes.push(
      el('rect', {
        x: round(r.left - origin.left),
        y: round(r.top - origin.top),
        width: w,
        height: round(r.height),
        fill: cs.borderLeftColor,
      }),
    );
  }
  return shapes;
}

/**
 * A swatch drawn by CSS before an element's text (a legend key's ::before): pseudo-elements have no box to measure, so
 * it is placed at the element's start, centred on its first line, with the size and colour its style gives it.
 */
function markerRect(node, origin) {
  const before = getComputedStyle(node, '::before');
  if (!before.content || before.content === 'none' || !/inline-block|block/.test(before.display)) return null;
  const border = (side) =>
    before[`border${side}Style`] !== 'none' && !transparent(before[`border${side}Color`])
      ? parseFloat(before[`border${side}Width`]) || 0
      : 0;
  const content = before.boxSizing === 'border-box' ? 0 : 1; // width and height exclude the borders
  const w = parseFloat(before.width) + content * (border('Left') + border('Right'));
  const hgt = parseFloat(before.height) + content * (border('Top') + border('Bottom'));
  if (!(w > 0 && hgt > 0)) return null;
  let fill = transparent(before.backgroundColor) ? null : before.backgroundColor;
  if (!fill && before.backgroundImage !== 'none')
    fill = (before.backgroundImage.match(/(?:rgba?|color)\([^)]*\)/) ?? [null])[0];
  const ring = border('Top') > 0 && border('Left') > 0; // a framed swatch (the planner's "best", the ring's keys)
  // A rule drawn by one border: upright by a left one (the planner's limit), level by a top one (the track's y = x).
  const side = border('Left') > 0 ? 'Left' : 'Top';
  const bar = !fill && !ring && border(side) > 0;
  if (!fill && !ring && !bar) return null;
  const r = node.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(node).lineHeight) || r.height;
  const bw = ring ? border('Top') : 0;
  return el('rect', {
    x: round(r.left - origin.left + (parseFloat(before.marginLeft) || 0) + bw / 2),
    y: round(r.top - origin.top + (Math.min(line, r.height) - hgt) / 2 + bw / 2),
    width: w - bw,
    height: hgt - bw,
    rx: parseFloat(before.borderTopLeftRadius) || null,
    fill: fill ?? (bar ? before[`border${side}Color`] : 'none'),
    stroke: ring ? before.borderTopColor : null,
    'stroke-width': ring ? bw : null,
    'fill-opacity': Number(before.opacity) < 1 ? before.opacity : null,
  });
}

/**
 * The SVG document (an <svg> element, detached) of `root` as it stands. `title` is its <title>, and is written above
 * the figure less what the figure's own headline already says (model/export-heading.js); `vector(canvas, box)` returns the <svg> to put in place of a canvas (or null: the canvas's pixels).
 */
export function figureSvg(root, { title, vector = () => null, background }) {
  const origin = root.getBoundingClientRect();
  const rootStyle = getComputedStyle(root);
  const body = el('g', {});
  const items = []; // every drawn node with its vertical extent, to close the bands left by the controls
  const shown = []; // the text of every element drawn: the heading leaves out what the figure says itself
  const add = (node, top, bottom) => {
    body.append(node);
    items.push({ node, top, bottom });
  };
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (!child.textContent.trim()) continue;
        const runs = el('g', {});
        textRuns(child, origin, runs);
        for (const t of [...runs.children]) add(t, Number(t.dataset.top), Number(t.dataset.bottom));
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE || child.matches(SKIP)) continue;
      const cs = getComputedStyle(child);
      if (cs.display === 'none' || Number(cs.opacity) === 0) continue;
      const r = child.getBoundingClientRect();
      if (screenReaderOnly(cs, r)) continue;
      const box = { x: r.left - origin.left, y: r.top - origin.top, width: r.width, height: r.height };
      if (child instanceof SVGSVGElement) {
        if (cs.visibility === 'visible' && box.width > 0) add(inlineSvg(child, box), box.y, box.y + box.height);
        continue;
      }
      if (child instanceof HTMLCanvasElement) {
        const drawn =
          vector(child, box) ??
          el('image', { x: box.x, y: box.y, width: box.width, height: box.height, href: child.toDataURL('image/png') });
        add(drawn, box.y, box.y + box.height);
        continue;
      }
      if (cs.visibility === 'visible') {
        shown.push(child.textContent);
        for (const shape of boxRect(child, cs, origin) ?? []) add(shape, box.y, box.y + box.height);
        const mark = markerRect(child, origin);
        if (mark)
          add(
            mark,
            Number(mark.getAttribute('y')),
            Number(mark.getAttribute('y')) + Number(mark.getAttribute('height')),
          );
      }
      walk(child);
    }
  };
  walk(root);
  const shift = closeGaps(items);
  for (const item of items) {
    item.node.removeAttribute('data-top');
    item.node.removeAttribute('data-bottom');
  }
  const width = Math.ceil(origin.width) + 2 * PAD;
  const heading = exportHeading(title, shown);
  const lines = heading ? wrap(heading, Math.max(20, Math.floor((width - 2 * PAD) / 9.2))) : [];
  const head = lines.length ? PAD + lines.length * 20 + 8 : PAD;
  const height = Math.ceil(Math.max(0, ...items.map((i) => i.bottom)) - shift) + head + PAD;
  const out = el('svg', {
    xmlns: NS,
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    'font-family': rootStyle.fontFamily,
  });
  out.append(Object.assign(el('title', {}), { textContent: title }));
  out.append(el('rect', { width, height, fill: background ?? rootStyle.backgroundColor }));
  lines.forEach((line, i) =>
    out.append(
      Object.assign(
        el('text', {
          x: PAD,
          y: PAD + 15 + i * 20,
          'font-family': rootStyle.fontFamily,
          'font-size': '15px',
          'font-weight': '600',
          fill: rootStyle.color,
          'xml:space': 'preserve',
        }),
        { textContent: line },
      ),
    ),
  );
  body.setAttribute('transform', `translate(${PAD} ${head})`);
  out.append(body);
  return out;
}

/** Words of `text` in lines of at most `chars` characters. */
function wrap(text, chars) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (lines[last] && lines[last].length + 1 + word.length > chars) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines;
}

/**
 * Closes the empty bands (no drawn node across them) taller than GAP_MIN, down to GAP_KEPT, by moving every node below
 * up (and shortening boxes that span a band). Returns how much the figure's top moved up (the empty band above it).
 */
function closeGaps(items) {
  const spans = items.map((i) => [i.top, i.bottom]).sort((a, b) => a[0] - b[0]);
  const cuts = []; // [y, removed]: everything below y moves up by removed
  let reach = spans.length ? spans[0][0] : 0;
  const lead = Math.max(0, reach);
  if (lead > 0) cuts.push([0, lead]);
  for (const [top, bottom] of spans) {
    if (top - reach > GAP_MIN) cuts.push([reach, top - reach - GAP_KEPT]);
    reach = Math.max(reach, bottom);
  }
  const moved = (y) => cuts.reduce((sum, [at, removed]) => sum + (y > at ? removed : 0), 0);
  for (const item of items) {
    const up = moved(item.top + 0.01);
    const shorter = moved(item.bottom - 0.01) - up;
    const { node } = item;
    node.setAttribute('y', round(Number(node.getAttribute('y')) - up));
    if (shorter > 0 && node.localName === 'rect')
      node.setAttribute('height', round(Number(node.getAttribute('height')) - shorter));
    item.bottom -= up + shorter;
    item.top -= up;
  }
  return 0;
}

/** The SVG document's text (UTF-8 XML with its declaration). */
export function svgText(svgElement) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svgElement)}\n`;
}

/** A PNG (Blob) of the SVG text at `scale` × its CSS size. */
export async function pngBlob(text, width, height, scale = 2) {
  const image = new Image();
  image.decoding = 'sync';
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  image.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  ctx.drawImage(image, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'),
  );
}
