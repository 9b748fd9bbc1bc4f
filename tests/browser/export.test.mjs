// Export in headless Chromium: every widget downloads its figure as SVG (well-formed XML, fonts and colours written on
// the elements, the figure's numbers in its text) and PNG (decodes, 2× the SVG's size), and its numbers as CSV and
// JSON (the engine's answer as shown), each file named after the widget's state. The export code is fetched only when
// a download is asked (issue 12): a page that loads has none of it, bundled (the article, the embed) or not.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { bytes } from '../../web/lib/format.js';
import { FIGURES } from '../../web/widgets/index.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { drawnIn, exportMismatches, onScreen } from './export-screen.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);
const engine = await nodeEngine();

/** Clicks a download button and returns { name, bytes } of the file the browser saved. */
async function download(page, widget, format) {
  const [file] = await Promise.all([page.waitForEvent('download'),
    widget.locator(`button[name="download-${format}"]`).evaluate((b) => b.click())]);
  const path = new URL(file.suggestedFilename(), SCREENSHOTS).pathname;
  await file.saveAs(path);
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

/** Parses XML in the page (DOMParser reports a malformed document as a <parsererror>); returns facts about it. */
function xmlFacts(page, text) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      root: root.localName,
      ns: root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      text: [...doc.getElementsByTagName('text')].map((n) => n.textContent).join(' '),
      classes: doc.querySelectorAll('[class]').length,
      fonts: [...doc.getElementsByTagName('text')].filter((n) => n.closest('[font-family]') !== root
        || n.hasAttribute('font-family')).length,
      texts: doc.getElementsByTagName('text').length,
      images: doc.getElementsByTagName('image').length,
      fills: doc.querySelectorAll('[fill^="rgb"]').length,
      rects: doc.getElementsByTagName('rect').length,
    };
  }, text);
}

/** PNG width and height from its IHDR chunk (after checking the signature). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const CASES = {
  bubble: {
    path: '#bubble.schedule=1f1b&bubble.stages=8&bubble.microbatches=32',
    name: 'parascope-bubble-1f1b-8x32',
    answer: () => engine.call({ op: 'pipeline', schedule: '1f1b', stages: 8, microbatches: 32, include_ops: false }),
    numbers: (r) => [`${(r.efficiency * 100).toFixed(1)} %`],
    vector: true, // the chart drawn as vectors (widgets/bubble/gantt-svg.js, loaded with the export code), not the canvas's pixels
  },
  ring: { path: '', name: 'parascope-ring-4gpus-h100-sxm-intra-1gib', numbers: () => ['3.6 ms'] },
  context: {
    path: '',
    name: 'parascope-context-llama3-8b-h100-sxm-cp4-tp2-32768tok-zigzag-p2p',
    numbers: () => ['Llama 3 8B', '16 MiB forward'],
  },
  axes: { path: '', name: 'parascope-axes-mixtral-8x7b-64gpus-tp2-pp4-ep8-all', numbers: () => ['Mixtral 8x7B'] },
  mfu: { path: '', name: 'parascope-mfu-palm-540b-tp12-pp1-mbs4-gb2048-full-zero3', numbers: () => ['46.2 % MFU'] },
  // its name once said "parascope-run-run-…" (the figure's words began with its own name): the reader's walk
  run: { path: '', name: 'parascope-run-llama3-405b-16384gpus-h100-sxm', numbers: () => ['Llama 3 405B', 'Goodput'] },
  memory: {
    path: '#memory.recompute=full',
    name: 'parascope-memory-llama3-70b-h100-sxm-tp4-pp8-stage0',
    // The figure's starting run with full recomputation, as the engine answers it (stage 0 is the most loaded).
    numbers: () => {
      const r = engine.call({
        op: 'memory_timeline',
        model: 'llama3-70b',
        hardware: 'h100-sxm',
        cluster: { gpus: 64 },
        parallel: { tp: 4, pp: 8, global_batch: 64, zero: 1, sequence_parallel: true, recompute: 'full' },
      });
      return [`peak ${bytes(r.peak.total)}`, 'capacity 80 GiB'];
    },
  },
};

for (const [widgetName, c] of Object.entries(CASES)) {
  test(`${widgetName}: SVG and PNG of the figure, CSV and JSON of its numbers, named after its state`, async () => {
    const { page, problems, context } = await openPage(site(), c.path, { width: 1000 });
    try {
      const widget = await widgetReady(page, `parascope-${widgetName}`);
      const svg = await download(page, widget, 'svg');
      assert.equal(svg.name, `${c.name}.svg`);
      const text = svg.bytes.toString('utf8');
      assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /);
      const facts = await xmlFacts(page, text);
      assert.equal(facts.error, false, 'well-formed XML');
      assert.equal(facts.root, 'svg');
      assert.equal(facts.ns, 'http://www.w3.org/2000/svg');
      assert.equal(facts.classes, 0, 'no class left for a stylesheet that is not there: styles are inlined');
      assert.equal(facts.fonts, facts.texts, 'every text names its font');
      assert.ok(facts.fills > 20, 'colours written as values');
      assert.doesNotMatch(text, /var\(--/, 'no custom property left unresolved');
      // A reader other than a browser (librsvg, as GNOME and many converters use) renders it too, where installed.
      if (existsSync('/usr/bin/rsvg-convert')) {
        const rendered = execFileSync('/usr/bin/rsvg-convert', ['--format=png'], { input: svg.bytes, maxBuffer: 1 << 28 });
        assert.deepEqual(pngSize(rendered), { width: facts.width, height: facts.height }, 'librsvg renders the SVG');
      }
      const answer = c.answer?.();
      for (const n of c.numbers(answer)) assert.ok(facts.text.includes(n), `the SVG says ${n}`);
      if (c.vector) {
        assert.equal(facts.images, 0, 'the chart as vectors, no canvas pixels');
        assert.ok(facts.rects > 8 * 64, `a rectangle per op (${facts.rects})`);
      }

      const png = await download(page, widget, 'png');
      assert.equal(png.name, `${c.name}.png`);
      const size = pngSize(png.bytes);
      assert.deepEqual(size, { width: facts.width * 2, height: facts.height * 2 }, 'PNG at 2×');
      const decoded = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight };
      }, png.bytes.toString('base64'));
      assert.deepEqual(decoded, size, 'the PNG decodes');

      const csv = await download(page, widget, 'csv');
      assert.equal(csv.name, `${c.name}.csv`);
      const rows = csv.bytes.toString('utf8').trimEnd().split('\r\n');
      assert.ok(rows.length > 3);
      const json = JSON.parse((await download(page, widget, 'json')).bytes.toString('utf8'));
      assert.equal(json.source, 'parascope');
      assert.ok(json.response, 'the engine\'s answer');
      if (answer) {
        assert.equal(json.response.efficiency, answer.efficiency);
        assert.equal(json.response.makespan, answer.makespan);
        assert.equal(json.request.stages, 8);
        assert.equal(rows[0], 'stage,microbatch,kind,chunk,start (forward passes),end (forward passes)');
        assert.equal(rows.length - 1, json.response.ops.count, 'one CSV row per op');
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test('an export in the dark theme keeps the dark background and light text', async () => {
  const { page, context } = await openPage(site(), '', { width: 1000 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const widget = await widgetReady(page, 'parascope-bubble');
  const text = (await download(page, widget, 'svg')).bytes.toString('utf8');
  const background = text.match(/<rect width="\d+" height="\d+" fill="([^"]+)"/)[1];
  assert.equal(background, 'rgb(22, 26, 33)');
  await context.close();
});

/** Strings only the export code holds (lib/export-figure.js, figure-svg.js, gantt-svg.js, model/export-data.js). */
const EXPORT_CODE = ['<?xml version="1.0" encoding="UTF-8"?>', 'image/svg+xml', 'text/csv'];

/** Records the scripts the page fetches: returns () => [{ url, exportCode }] (exportCode: the body holds EXPORT_CODE). */
function watchScripts(page) {
  const seen = [];
  page.on('response', (response) => {
    const url = response.url();
    if (!/\.m?js$/.test(new URL(url).pathname)) return;
    seen.push(response.text().then((body) => ({ url, exportCode: EXPORT_CODE.some((s) => body.includes(s)) })));
  });
  return () => Promise.all(seen);
}

for (const [where, path] of [['the article', ''], ['the embed', 'embed.html#widget=bubble'],
  ['the unbundled bubble', 'tests/bubble-unbundled.html']]) {
  test(`${where} loads the export code only when a download is asked, and then saves the file`, async () => {
    const context = await site().browser.newContext({ viewport: { width: 1000, height: 900 } });
    try {
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (err) => problems.push(err.message));
      const scripts = watchScripts(page);
      await page.goto(new URL(path, site().url).href);
      const widget = await widgetReady(page, 'parascope-bubble');
      await page.waitForLoadState('networkidle');
      const before = await scripts();
      assert.ok(before.length > 0);
      assert.deepEqual(before.filter((s) => s.exportCode).map((s) => s.url), [], 'no export code before a download');
      const svg = await download(page, widget, 'svg');
      assert.match(svg.name, /^parascope-bubble-[a-z0-9x-]+\.svg$/);
      const facts = await xmlFacts(page, svg.bytes.toString('utf8'));
      assert.equal(facts.error, false);
      assert.equal(facts.images, 0, 'the chart as vectors');
      assert.ok((await scripts()).some((s) => s.exportCode), 'the export code came with the click');
      assert.match((await download(page, widget, 'csv')).name, /\.csv$/, 'a second download reuses it');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test('every figure offers its four downloads from its first frame, the track record before its record has loaded', async () => {
  const { page, context } = await openPage(site(), '', { width: 1000 });
  await page.route('**/track-record*.json', () => {}); // never answered: the record stays on its way
  for (const { tag } of FIGURES) {
    const widget = await widgetReady(page, tag);
    const names = await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('button[name^="download-"]')].map((b) => b.name));
    assert.deepEqual(names, ['download-svg', 'download-png', 'download-csv', 'download-json'], tag);
  }
  await context.close();
});

// Every figure (web/widgets/index.js), at its defaults but the ring (a link asked for, and the InfiniBand it runs on)
// and the track record (one stack, so its band and the band's legend key are drawn).
const HASHES = { ring: '#ring.gpus=16&ring.link=intra', track: '#track.stack=pytorch' };
const SCREEN_CASES = Object.fromEntries(FIGURES.map(({ name }) => [name, HASHES[name] ?? '']));

for (const [name, hash] of Object.entries(SCREEN_CASES)) {
  test(`${name}: the SVG export shows what the screen shows: every text and swatch, nothing for screen readers only`, async () => {
    const { page, problems, context } = await openPage(site(), hash, { width: 1000 });
    try {
      const widget = await widgetReady(page, `parascope-${name}`);
      if (name === 'planner') await page.waitForFunction((el) => el.shadowRoot.querySelector('tr[data-rank="1"]'), await widget.elementHandle(), { timeout: 120_000 });
      if (name === 'track') await page.waitForFunction((el) => el.shadowRoot.querySelector('[data-out="summary"][data-value]'), await widget.elementHandle());
      const screen = await page.evaluate(`(${onScreen})(window, 'parascope-${name}')`);
      const svg = await download(page, widget, 'svg');
      const drawn = await page.evaluate(`(${drawnIn})(window, ${JSON.stringify(svg.bytes.toString('utf8'))})`);
      assert.deepEqual(exportMismatches(screen, drawn), []);
      // The heading above the figure never says again a sentence the figure shows (its headline, its summary).
      for (const said of screen.texts.filter((x) => x.length >= 30)) {
        assert.ok(!drawn.heading.includes(said), `the heading "${drawn.heading}" repeats "${said}"`);
      }
      if (name === 'ring') assert.match(svg.name, /-inter-/, 'named after the link the ring runs on');
      if (name === 'planner') {
        const ranks = await page.evaluate((el) => el.shadowRoot.querySelectorAll('tr[data-rank] .planner-load').length, await widget.elementHandle());
        for (let rank = 1; rank <= ranks; rank += 1) assert.ok(drawn.texts.includes(String(rank)), `the rank column's ${rank}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
