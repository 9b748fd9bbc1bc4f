// Contrast from the rendered colours in headless Chromium: every text in every figure, light and dark, at 1280 and
// 360 px, at least 4.5:1 on what is behind it (3:1 for large text); every legend key and the data marks drawn in a
// key's colour at least 3:1 (WCAG 1.4.11, graphics); and axe-core clean on the article and the guide.
// axe cannot decide inside the figures' shadow roots ("incomplete"), hence the figures' own check.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';

import { FIGURES } from '../../web/widgets/index.js';
import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = FIGURES.map((f) => f.tag); // every figure the article shows (web/widgets/index.js, the one list)

/** Starts every figure on the page (printing does) and waits until each has drawn, its routing and search done. */
async function allDrawn(page) {
  await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
  await page.waitForFunction((tags) => tags.every((t) => {
    const el = document.querySelector(t);
    return el?.hasAttribute('data-ready') && !el.hasAttribute('data-routing')
      && (t !== 'parascope-planner' || el.hasAttribute('data-results'));
  }), TAGS, { timeout: 120_000 });
  await page.evaluate(() => dispatchEvent(new Event('afterprint')));
  await page.waitForTimeout(300);
}

/**
 * In the page: the colour arithmetic both checks use, kept on globalThis (page.evaluate sends a function's text,
 * so the checks cannot share a closure): parse a CSS colour, composite one over another, WCAG's contrast ratio, the
 * opaque background behind an element (crossing out of a shadow root) and the opacity on the way to it.
 */
function colourKit() {
  const rgba = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
  const lum = ({ r, g, b }) => [r, g, b].map((v) => v / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const parent = (el) => el.parentElement ?? el.getRootNode().host ?? null;
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = parent(e)) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) {
        layers.push(c);
        if (c.a >= 1) break;
      }
    }
    return layers.reverse().reduce((acc, c) => over(c, acc), { r: 255, g: 255, b: 255, a: 1 });
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = parent(e)) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  globalThis.parascopeColour = { rgba, over, ratio, parent, background, opacity };
}

/**
 * In the page: the texts of the figures below `minimum` contrast, as "tag: text (ratio, colour on background)".
 * Colours are composited with every ancestor's opacity; the background is the first opaque one behind the text
 * (crossing out of the shadow root). Screen-reader-only text, disabled controls and stale figures are exempt (WCAG).
 */
function lowContrast(tags) {
  const { rgba, over, ratio, parent, background, opacity } = globalThis.parascopeColour;
  const exempt = (el) => {
    for (let e = el; e; e = parent(e)) {
      if (e.matches?.('.disabled, :disabled, [aria-disabled="true"], [data-stale]')) return true;
      const box = e.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return true;  // clipped for screen readers
    }
    return false;
  };
  const found = [];
  for (const tag of tags) {
    const root = document.querySelector(tag)?.shadowRoot;
    if (!root) {
      found.push(`${tag}: not on the page`);
      continue;
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent.trim() || el.closest('style, script, [hidden], [aria-hidden="true"]')) continue;
      if (!el.getClientRects().length || getComputedStyle(el).visibility !== 'visible' || exempt(el)) continue;
      const style = getComputedStyle(el);
      const svg = el instanceof SVGElement;
      const ink = rgba(svg ? style.fill : style.color);
      if (!ink) continue;
      const halo = svg && style.paintOrder.startsWith('stroke') && parseFloat(style.strokeWidth) >= 2 ? rgba(style.stroke) : null;
      const behind = halo && halo.a >= 1 ? halo : background(el);
      const shown = over({ ...ink, a: ink.a * opacity(el) }, behind);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const value = ratio(shown, behind);
      if (value < (large ? 3 : 4.5)) {
        found.push(`${tag}: "${node.textContent.trim().slice(0, 40)}" ${value.toFixed(2)}:1 (${svg ? style.fill : style.color} on rgb(${Math.round(behind.r)}, ${Math.round(behind.g)}, ${Math.round(behind.b)}))`);
      }
    }
  }
  return found;
}

/**
 * The data marks whose colour is what a legend key names (a series, a stack family, the planner's fitting points and
 * its Pareto front): they carry meaning by colour, so each must stand out at 3:1 like its key.
 */
const DATA_MARKS = '.track-dot, .planner-points > *, .planner-pareto, .planner-pareto-points > *, [class*="series-"]';

/**
 * In the page: the legend keys (a swatch drawn before a text: ::before with a fill or a border) and the data marks
 * (`marks`) of the figures below 3:1 on what is behind them, as "tag: what (ratio, colour)". A mark's colour is its
 * fill (its stroke when unfilled) with every opacity on the way composited in.
 */
function lowGraphics({ tags, marks }) {
  const { rgba, over, ratio, parent, background, opacity } = globalThis.parascopeColour;
  const found = [];
  const check = (tag, what, el, ink) => {
    if (!ink) return;
    const behind = background(el);
    const value = ratio(over(ink, behind), behind);
    if (value < 3) found.push(`${tag}: ${what} ${value.toFixed(2)}:1`);
  };
  for (const tag of tags) {
    const root = document.querySelector(tag)?.shadowRoot;
    if (!root) continue;
    for (const el of root.querySelectorAll('*')) {
      if (!el.getClientRects().length || el.closest('[hidden], [data-stale], .disabled')) continue;
      const key = getComputedStyle(el, '::before');
      if (key.content !== 'none' && /block/.test(key.display) && parseFloat(key.width) > 0) {
        const fill = rgba(key.backgroundColor);
        const border = key.borderTopStyle !== 'none' && parseFloat(key.borderTopWidth) > 0 ? rgba(key.borderTopColor)
          : key.borderLeftStyle !== 'none' && parseFloat(key.borderLeftWidth) > 0 ? rgba(key.borderLeftColor) : null;
        const ink = fill && fill.a > 0 ? fill : border;
        if (ink) check(tag, `the key "${el.textContent.trim().slice(0, 30)}"`, el, { ...ink, a: ink.a * Number(key.opacity) * opacity(el) });
      }
      if (el instanceof SVGGeometryElement && el.matches(marks)) {
        const style = getComputedStyle(el);
        const filled = style.fill !== 'none' && !/^(line|polyline)$/.test(el.localName);
        const ink = rgba(filled ? style.fill : style.stroke);
        const alpha = Number(filled ? style.fillOpacity : style.strokeOpacity) * opacity(el);
        if (ink) check(tag, `a mark ${el.localName}.${el.parentNode.getAttribute?.('class') ?? ''} ${el.getAttribute('class') ?? ''}`.trim(), el, { ...ink, a: ink.a * alpha });
      }
    }
  }
  return found;
}

for (const colorScheme of ['light', 'dark']) {
  for (const width of [1280, 360]) {
    test(`every text in every figure reads at 4.5:1 (large 3:1), its keys and data marks at 3:1, ${colorScheme}, ${width} px`, async () => {
      const { page, context } = await openPage(site(), '', { width, colorScheme });
      await allDrawn(page);
      await page.evaluate(colourKit);
      const low = await page.evaluate(lowContrast, TAGS);
      assert.deepEqual([...new Set(low)].slice(0, 30), []);
      const graphics = await page.evaluate(lowGraphics, { tags: TAGS, marks: DATA_MARKS });
      assert.deepEqual([...new Set(graphics)].slice(0, 30), [], 'keys and data marks at 3:1');
      await context.close();
    });
  }
}

for (const path of ['', 'guide.html']) {
  for (const width of [1280, 360]) {
    test(`axe-core finds no violation on ${path || 'the article'} at ${width} px`, async () => {
      const { page, context } = await openPage(site(), path, { width, bypassCSP: true });
      if (!path) await allDrawn(page);
      else await page.waitForLoadState('networkidle');
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => (await globalThis.axe.run(document)).violations
        .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(violations, []);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(sideways <= 0, `the page scrolls sideways by ${sideways}px`);
      await context.close();
    });
  }
}
