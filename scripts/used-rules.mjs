// The rules of a stylesheet that one figure's code can meet: scripts/bundle.mjs writes css/widget.css (the rules every
// figure shares) into each figure's own embed file with the rules naming a class that file's code never writes left
// out (the bar, the facts list, the config panel's room... in a figure that draws none). A selector is dropped only when
// one of its class names is nowhere in the code as a word (a string, a template's text, a name); the rest stay as
// written. tests/js/used-rules.test.mjs.

/** The words of `code` (a bundle's text without its stylesheets): every run of letters, digits, `_` and `-`. */
export const wordsOf = (code) => new Set(code.match(/[A-Za-z_][\w-]*/g));

/** `css` without its comments, and without the selectors naming a class `has(name)` denies (a rule left empty goes). */
export function usedRules(css, has) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let out = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open < 0) break;
    const head = text.slice(at, open).trim();
    const close = blockEnd(text, open);
    const body = text.slice(open + 1, close);
    if (/^@(media|container|supports)\b/.test(head)) {
      const inner = usedRules(body, has).trim();
      if (inner) out += `${head} {\n${inner}\n}\n`;
    } else if (head.startsWith('@')) {
      out += `${head} {${body}}\n`;
    } else {
      const kept = selectors(head).filter((s) => [...s.matchAll(/\.([A-Za-z_][\w-]*)/g)].every(([, c]) => has(c)));
      if (kept.length) out += `${kept.join(',\n')} {${body}}\n`;
    }
    at = close + 1;
  }
  return out;
}

/** The index of the `}` closing the block that opens at `open`. */
function blockEnd(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`a stylesheet block opened at ${open} is never closed`);
}

/** A selector list's selectors (commas inside parentheses, as in :has(a, b), stay inside theirs). */
function selectors(list) {
  const out = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i += 1) {
    if (list[i] === '(') depth += 1;
    else if (list[i] === ')') depth -= 1;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(list.slice(from).trim());
  return out.filter(Boolean);
}
