// Export against screen, for any browser engine: page functions (sent as source text, `win` the page's window) that
// read what a figure shows and what its SVG export draws, a capture of the export's download inside the page, and the
// comparison of the two. Used by export.test.mjs (Chromium) and walk.test.mjs (Chromium, Firefox, WebKit).

/**
 * In the page: what figure `tag` shows as text (each text node's words, screen-reader-only text and the controls an
 * export leaves out excepted) and how many legend swatches CSS draws before a text (::before boxes).
 */
export function onScreen(win, tag) {
  const doc = win.document;
  const widget = doc.querySelector(tag);
  const root = widget.exportFigure().root;
  const left = '.controls, .control, .tools, .notes-anchor, .announcer, button:not(td > button), input, select, [hidden], '
    + '.bubble-marker, .bubble-readout, .sizer, .mfu-presets, [role="tablist"]';
  const hidden = (el) => {
    for (let e = el; e && e !== root.parentNode; e = e.parentElement) {
      const cs = win.getComputedStyle(e);
      const r = e.getBoundingClientRect();
      if (e.matches(left) || cs.display === 'none' || Number(cs.opacity) === 0 || cs.visibility !== 'visible') return true;
      if (/inset\(50%\)/.test(cs.clipPath) || (cs.overflow === 'hidden' && r.width <= 1 && r.height <= 1)) return true;
    }
    return false;
  };
  const texts = [];
  const walker = doc.createTreeWalker(root, win.NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent.replace(/\s+/g, ' ').trim();
    if (!t || n.parentElement.closest('svg, style') || hidden(n.parentElement) || !n.parentElement.getClientRects().length) continue;
    texts.push(t);
  }
  let swatches = 0;
  for (const el of root.querySelectorAll('*')) {
    if (hidden(el)) continue;
    const b = win.getComputedStyle(el, '::before');
    const size = (a, c, d) => parseFloat(b[a]) + (b.boxSizing === 'border-box' ? 0 : parseFloat(b[c]) + parseFloat(b[d]));
    if (b.content !== 'none' && /inline-block|block/.test(b.display)
      && size('width', 'borderLeftWidth', 'borderRightWidth') > 0 && size('height', 'borderTopWidth', 'borderBottomWidth') > 0) {
      swatches += 1;
    }
  }
  return { texts, swatches };
}

/**
 * In the page: the texts and legend swatches of an exported SVG (the figure's boxes; an inline <svg> is copied whole),
 * and its heading (the lines above the figure) as one text.
 */
export function drawnIn(win, svgText) {
  const doc = new win.DOMParser().parseFromString(svgText, 'image/svg+xml');
  const texts = [...doc.querySelectorAll('svg > g > text')].filter((n) => n.closest('svg') === doc.documentElement)
    .map((n) => n.textContent);
  const swatches = [...doc.querySelectorAll('svg > g > rect')].filter((r) => Number(r.getAttribute('width')) <= 16
    && Number(r.getAttribute('height')) <= 16).length;
  const heading = [...doc.querySelectorAll('svg > text')].filter((n) => n.parentNode === doc.documentElement)
    .map((n) => n.textContent).join(' ');
  return { texts, swatches, heading, error: doc.getElementsByTagName('parsererror').length > 0 };
}

/**
 * In the page: from now on, a download the page starts (lib/export-figure.js hands a Blob to a link and clicks it) is
 * kept as text in `win.parascopeDownloads` ({ name, text }) instead of only being saved. Returns true.
 */
export function captureDownloads(win) {
  if (win.parascopeDownloads) return true;
  win.parascopeDownloads = [];
  const blobs = new Map();
  const create = win.URL.createObjectURL.bind(win.URL);
  win.URL.createObjectURL = (blob) => {
    const href = create(blob);
    blobs.set(href, blob);
    return href;
  };
  const click = win.HTMLAnchorElement.prototype.click;
  win.HTMLAnchorElement.prototype.click = function clickAndKeep() {
    const blob = this.download ? blobs.get(this.href) : null;
    if (!blob) return click.call(this);
    const entry = { name: this.download, text: null };
    win.parascopeDownloads.push(entry);
    blob.text().then((text) => { entry.text = text; });
    return undefined;  // kept, not saved: a headless browser may ask where to save
  };
  return true;
}

/** In the page: clicks figure `tag`'s download button for `format`; true once clicked. */
export function clickDownload(win, tag, format) {
  const button = win.document.querySelector(tag).shadowRoot.querySelector(`button[name="download-${format}"]`);
  if (!button) return false;
  button.click();
  return true;
}

/**
 * What differs between the screen and the export: texts on screen the export lacks, texts the export draws that are
 * not on screen, fewer swatches. [] when the export shows what the screen shows.
 */
export function exportMismatches(screen, drawn) {
  const all = drawn.texts.join(' ').replace(/\s+/g, ' ');
  const shown = screen.texts.join(' ');
  return [
    ...screen.texts.filter((t) => !all.includes(t)).map((t) => `the export lacks "${t}"`),
    ...drawn.texts.filter((t) => !shown.includes(t.replace(/\s+/g, ' ').trim())).map((t) => `"${t}" is not on screen`),
    ...(drawn.swatches >= screen.swatches ? [] : [`${drawn.swatches} swatches drawn of ${screen.swatches} on screen`]),
  ];
}
