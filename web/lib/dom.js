// Tiny DOM and SVG builders: h('div', {class: 'x'}, child, ...) and svg('rect', {x: 1}). No inline styles (CSP).
const SVG_NS = 'http://www.w3.org/2000/svg';

function build(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element in the current document. */
export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element. */
export function svg(tag, attributes, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

/**
 * Writes `text` into `node` only when it differs: writing the same text replaces the node's text all the same, which
 * the browser then restyles, lays out and paints again (a slider's press rewrote up to six unchanged lines).
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Sets each attribute of `node` whose text differs (a number as String writes it); the same value is not written. */
export function setAttributes(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    const v = String(value);
    if (node.getAttribute(name) !== v) node.setAttribute(name, v);
  }
}
