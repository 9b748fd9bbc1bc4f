// Themes in headless Chromium: the palette follows the reader's light/dark setting, theme="dark" on a light page and
// theme="light" on a dark page win, a page's --parascope-* properties reach inside, forced colours use system colours,
// and every palette colour is a valid colour in each case (a broken variable silently inherits the page's colour).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);
const PALETTE = ['--fg', '--muted', '--bg', '--surface', '--line', '--control-line', '--track', '--grid', '--selected',
  '--accent', '--on-accent', '--tax', '--good', '--bad', '--bad-strong', '--warn-bg', '--warn-line', '--error-bg',
  '--error-line', '--invalid-bg'];
const IDS = ['auto', 'dark', 'light', 'branded'];
const LIGHT_BG = 'rgb(247, 248, 251)';
const DARK_BG = 'rgb(22, 26, 33)';

/** Opens the themes page under `media` options, starts every widget; returns per widget its resolved palette. */
async function palettes(media) {
  const { page, problems, context } = await openPage(site(), 'tests/themes.html', { width: 900, height: 900 });
  await page.emulateMedia(media);
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).hasAttribute('data-ready')), IDS);
  const result = await page.evaluate(({ ids, names }) => Object.fromEntries(ids.map((id) => {
    const host = document.getElementById(id);
    const probe = document.createElement('span');
    host.shadowRoot.querySelector('.frame').append(probe);
    const resolve = (name) => { // the colour a property using var(name) would get
      probe.style.color = '';
      probe.style.setProperty('color', `var(${name}, rgb(1, 2, 3))`);
      return getComputedStyle(probe).color;
    };
    const colours = Object.fromEntries(names.map((n) => [n, resolve(n)]));
    probe.remove();
    const frame = getComputedStyle(host.shadowRoot.querySelector('.frame'));
    const body = getComputedStyle(host.shadowRoot.querySelector('.body'));
    return [id, { colours, text: frame.color, font: frame.fontFamily, background: body.backgroundColor, scheme: frame.colorScheme }];
  })), { ids: IDS, names: PALETTE });
  const page_ = { background: await page.evaluate(() => getComputedStyle(document.body).backgroundColor) };
  return { page, problems, context, result, page_ };
}

function assertValidPalette(widget, id) {
  for (const [name, colour] of Object.entries(widget.colours)) {
    assert.notEqual(colour, 'rgb(1, 2, 3)', `${id}: ${name} is not a valid colour`);
  }
}

test('light reader: light widgets and page; theme="dark" is dark; custom properties reach inside', async () => {
  const { page, problems, context, result, page_ } = await palettes({ colorScheme: 'light' });
  for (const id of IDS) assertValidPalette(result[id], id);
  assert.equal(page_.background, 'rgb(255, 255, 255)');
  assert.equal(result.auto.background, LIGHT_BG);
  assert.equal(result.auto.text, 'rgb(29, 35, 48)');
  assert.equal(result.light.background, LIGHT_BG);
  assert.equal(result.dark.background, DARK_BG);
  assert.equal(result.dark.text, 'rgb(228, 231, 238)');
  assert.equal(result.dark.scheme, 'dark');
  assert.deepEqual(
    [result.branded.colours['--accent'], result.branded.text, result.branded.background, result.branded.colours['--surface'], result.branded.font],
    ['rgb(200, 0, 100)', 'rgb(10, 20, 30)', 'rgb(250, 240, 230)', 'rgb(255, 250, 245)', 'Georgia, serif']);
  // This page does not link css/embed.css: the widgets added it, once (a link from the sources, an adopted sheet from
  // the bundle: lib/page-stylesheet.js), and it reserves their size.
  const embed = await page.evaluate(() => ({
    links: document.querySelectorAll('link[href*="/css/embed"]').length + document.adoptedStyleSheets.length,
    reserved: parseFloat(getComputedStyle(document.getElementById('auto'), '::before').paddingTop),
  }));
  assert.equal(embed.links, 1);
  assert.ok(embed.reserved > 300, `reserved ${embed.reserved}px`);
  await page.screenshot({ path: new URL('themes-light.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark reader: dark widgets and page; theme="light" stays light', async () => {
  const { page, problems, context, result, page_ } = await palettes({ colorScheme: 'dark' });
  for (const id of IDS) assertValidPalette(result[id], id);
  assert.equal(page_.background, 'rgb(17, 20, 25)');
  assert.equal(result.auto.background, DARK_BG);
  assert.equal(result.dark.background, DARK_BG);
  assert.equal(result.light.background, LIGHT_BG);
  assert.equal(result.light.text, 'rgb(29, 35, 48)');
  assert.equal(result.light.scheme, 'light');
  assert.equal(result.branded.colours['--accent'], 'rgb(200, 0, 100)');
  await page.screenshot({ path: new URL('themes-dark.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('forced colours: the palette becomes system colours and charts keep their own', async () => {
  const { page, problems, context, result } = await palettes({ forcedColors: 'active' });
  const system = await page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const of = (c) => { probe.style.color = c; return getComputedStyle(probe).color; };
    const out = { CanvasText: of('CanvasText'), Canvas: of('Canvas'), Highlight: of('Highlight') };
    probe.remove();
    return out;
  });
  for (const id of ['auto', 'dark', 'light']) {
    assert.equal(result[id].text, system.CanvasText, `${id} text`);
    assert.equal(result[id].colours['--bg'], system.Canvas, `${id} background`);
    assert.equal(result[id].colours['--accent'], system.Highlight, `${id} accent`);
  }
  await page.screenshot({ path: new URL('themes-forced.png', SCREENSHOTS).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
  // On the article, the axes chart (an SVG whose colours are the shards) keeps its colours; the page uses system ones.
  const article = await openPage(site(), '', { width: 1280, height: 800 });
  await article.page.emulateMedia({ forcedColors: 'active' });
  const axes = await widgetReady(article.page, 'parascope-axes');
  assert.equal(await axes.locator('svg').first().evaluate((svg) => getComputedStyle(svg).forcedColorAdjust), 'none');
  const chosen = await axes.locator('[aria-pressed="true"], [aria-selected="true"]').first()
    .evaluate((b) => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]);
  const selection = await article.page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const of = (c) => { probe.style.color = c; return getComputedStyle(probe).color; };
    return [of('HighlightText'), of('Highlight')];
  });
  assert.deepEqual(chosen, selection, 'the chosen axis button reads in the system selection colours');
  assert.equal(await article.page.evaluate(() => getComputedStyle(document.body).backgroundColor), system.Canvas);
  await axes.screenshot({ path: new URL('themes-forced-axes.png', SCREENSHOTS).pathname });
  await article.context.close();
});
