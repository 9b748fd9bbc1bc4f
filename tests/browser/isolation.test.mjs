// Isolation from the host page in headless Chromium: the same widgets inside a hostile blog stylesheet (justified,
// spaced, upper-case, huge line height, `* { box-sizing: content-box }`, red text) compute every inherited text
// style exactly as on a plain page, keep their size, and draw the same pixels.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { SCREENSHOTS, openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const WIDGETS = ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu'];
const PROPERTIES = ['text-align', 'text-align-last', 'letter-spacing', 'word-spacing', 'text-transform', 'text-indent',
  'line-height', 'font-size', 'font-family', 'font-style', 'font-weight', 'font-variant-caps', 'font-stretch', 'color',
  'white-space-collapse', 'text-wrap-mode', 'hyphens', 'text-shadow', 'cursor', 'overflow-wrap', 'word-break',
  'line-break', 'tab-size', 'font-size-adjust', 'box-sizing', 'text-underline-offset', 'direction', 'writing-mode'];

/** How many pixels of two same-sized PNGs differ by more than 60 in some colour channel (decoded in `page`). */
function strongDifferences(page, a, b) {
  return page.evaluate(async ([a, b]) => {
    const pixels = async (base64) => {
      const image = new Image(); // the page's CSP allows data: images (not data: fetches)
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height).data;
    };
    const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
    if (pa.length !== pb.length) return Infinity;
    let count = 0;
    for (let i = 0; i < pa.length; i += 4) {
      if (Math.max(Math.abs(pa[i] - pb[i]), Math.abs(pa[i + 1] - pb[i + 1]), Math.abs(pa[i + 2] - pb[i + 2])) > 60) count += 1;
    }
    return count;
  }, [a.toString('base64'), b.toString('base64')]);
}

/** Every element's computed PROPERTIES inside every widget, in document order, plus each widget's size. */
async function styles(path) {
  const { page, problems, context } = await openPage(site(), path, { width: 900, height: 900 });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint'))); // starts every widget at once
  await page.waitForFunction((names) => names.every((n) => document.querySelector(n).hasAttribute('data-ready')), WIDGETS);
  // The axes routes its MoE layer after its first draw and then redraws what the routing changes (the links' widths,
  // the table): compare the settled figures.
  await page.waitForFunction(() => !document.querySelector('parascope-axes').hasAttribute('data-routing'));
  await page.waitForTimeout(300);
  const computed = await page.evaluate(({ names, properties }) => names.map((name) => {
    const host = document.querySelector(name);
    const rect = host.getBoundingClientRect();
    const elements = [...host.shadowRoot.querySelectorAll('*')].filter((el) => el.localName !== 'link' && el.localName !== 'style');
    return {
      name,
      size: [Math.round(rect.width), Math.round(rect.height)],
      elements: elements.map((el) => {
        const cs = getComputedStyle(el);
        return `${el.localName}.${el.getAttribute('class') ?? ''} ${properties.map((p) => `${p}:${cs.getPropertyValue(p)}`).join('; ')}`;
      }),
    };
  }), { names: WIDGETS, properties: PROPERTIES });
  return { page, problems, context, computed };
}

test('hostile blog CSS does not reach the text, sizes or pixels inside the widgets', async () => {
  const plain = await styles('tests/isolation-plain.html');
  const hostile = await styles('tests/isolation-hostile.html');
  for (const [i, widget] of plain.computed.entries()) {
    const other = hostile.computed[i];
    assert.deepEqual(other.size, widget.size, `${widget.name} size`);
    assert.equal(other.elements.length, widget.elements.length, `${widget.name} element count`);
    for (const [j, style] of widget.elements.entries()) assert.equal(other.elements[j], style, `${widget.name} element ${j}`);
  }
  // Same pixels: each widget's inside (inset past the rounded corners, where the page's own background shows). A
  // leak (an underline, a shifted or re-cased word) changes pixels strongly; anti-aliasing differences stay faint.
  for (const name of WIDGETS) {
    const shots = [];
    for (const { page } of [plain, hostile]) {
      const box = await page.locator(name).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
      });
      shots.push(await page.screenshot({ fullPage: true, clip: { x: box.x + 12, y: box.y + 12, width: box.width - 24, height: box.height - 24 } }));
    }
    const strong = await strongDifferences(plain.page, shots[0], shots[1]);
    if (strong > 0) {
      await writeFile(new URL(`isolation-${name}-plain.png`, SCREENSHOTS), shots[0]);
      await writeFile(new URL(`isolation-${name}-hostile.png`, SCREENSHOTS), shots[1]);
    }
    assert.equal(strong, 0, `${name} draws ${strong} pixels differently inside the hostile page (screenshots saved)`);
  }
  await hostile.page.screenshot({ path: new URL('isolation-hostile.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual([...plain.problems, ...hostile.problems], []);
  await plain.context.close();
  await hostile.context.close();
});
