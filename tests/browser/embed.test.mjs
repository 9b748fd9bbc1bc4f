// The iframe route in headless Chromium: embed.html#widget=… framed by a page on another origin shows just that widget
// with the hash's state, the parent's snippet (web/embed-size.js) sizes the iframe from the posted height, and the
// server lets other origins frame embed.html only.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import { FIGURES } from '../../web/widgets/index.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { useSite } from './harness.mjs';

const site = useSite(before, after);
const engine = await nodeEngine();
const SNIPPET = await readFile(new URL('../../web/embed-size.js', import.meta.url), 'utf8');
/**
 * The blog: a plain server on another port (another origin, no policy of ours), which serves the page for the iframe
 * source in its query. A real loopback server: Chromium keeps a page it cannot place on loopback from framing one.
 */
let blog;
before(async () => {
  blog = createServer((req, res) => {
    const src = new URL(req.url, 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(parentPage(src.replace(/"/g, '&quot;')));
  });
  await new Promise((resolve) => blog.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise((resolve) => blog.close(resolve)));
const parentUrl = (src) => `http://127.0.0.1:${blog.address().port}/blog.html?src=${encodeURIComponent(src)}`;

/** A blog page on another origin holding the iframe and the snippet (inline, as a blogger would paste it). */
function parentPage(src) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>A blog</title></head><body style="margin:0">
<p>Some prose before the figure.</p>
<iframe src="${src}" title="Pipeline bubble (parascope)" width="100%" height="300" style="border:0; display:block"></iframe>
<p id="after">Some prose after it.</p>
<script>${SNIPPET}</script></body></html>`;
}

async function openParent(src, { width = 800 } = {}) {
  const context = await site().browser.newContext({ viewport: { width, height: 900 } });
  const problems = [];
  const origin = new URL(site().url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith(parentUrl(''))) return route.continue();
    problems.push(`request left the origins: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console error: ${msg.text()}`));
  await page.goto(parentUrl(src));
  return { page, context, problems };
}

test('a page on another origin frames the bubble; the snippet sizes the iframe to the figure', async () => {
  const src = `${site().url}embed.html#widget=bubble&stages=8&microbatches=32&schedule=1f1b`;
  const { page, context, problems } = await openParent(src);
  const frame = page.frameLocator('iframe');
  await frame.locator('parascope-bubble[data-ready]').waitFor();
  const inner = page.frames().find((f) => f.url().startsWith(site().url));
  assert.equal(await inner.evaluate(() => document.querySelectorAll('h1, h2, footer, nav').length), 0, 'no chrome');
  assert.equal(await inner.evaluate(() => document.body.querySelectorAll('[class^="parascope"], parascope-bubble').length), 1);
  const widget = frame.locator('parascope-bubble');
  assert.equal(await widget.locator('input[name="stages"]').inputValue(), '8');
  assert.equal(await widget.locator('input[name="microbatches"]').inputValue(), '32');
  assert.equal(await widget.locator('select[name="schedule"]').inputValue(), '1f1b');
  const expected = engine.call({ op: 'pipeline', schedule: '1f1b', stages: 8, microbatches: 32, include_ops: false });
  assert.equal(Number(await widget.locator('[data-out="efficiency"]').getAttribute('data-value')), expected.efficiency);
  // The iframe takes the document's height, so the figure is whole and nothing scrolls inside it.
  await page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 400);
  await page.waitForTimeout(300);
  const inside = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const outside = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
  assert.equal(outside, inside);
  assert.equal(await inner.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, 'no inner scroll');
  // A change in the figure is mirrored in the iframe's own hash (its copy-link control gives the embed link).
  await widget.locator('input[name="stages"]').evaluate((el) => {
    el.value = '4';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await inner.waitForFunction(() => location.hash.includes('stages=4'));
  assert.match(await inner.evaluate(() => location.hash), /^#widget=bubble&/);
  await page.screenshot({ path: new URL('./screenshots/embed-bubble-800.png', import.meta.url).pathname, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the server lets any origin frame embed.html and only the site frame the article', async () => {
  const embed = await fetch(new URL('embed.html', site().url));
  assert.match(embed.headers.get('content-security-policy'), /frame-ancestors \*/);
  const article = await fetch(site().url);
  assert.match(article.headers.get('content-security-policy'), /frame-ancestors 'self'/);
});

test('an embed of every widget starts, and hostile values get the widget\'s own notes', async () => {
  for (const [widget, rest] of [['ring', 'gpus=99'], ['axes', 'axis=expert'], ['mfu', 'preset=gpt3-175b'],
    ['bubble', 'stages=%3Cb%3E'], ['planner', 'gpus=512'], ['run', 'price=-3'], ['nccl', 'example=a100-1x8'],
    ['context', 'cp=6'], ['memory', 'tp=3'], ['step', 'global-batch=63']]) {
    const { page, context, problems } = await openParent(`${site().url}embed.html#widget=${widget}&${rest}`);
    const el = page.frameLocator('iframe').locator(`parascope-${widget}[data-ready]`);
    await el.waitFor();
    if (widget === 'ring') assert.match(await el.locator('.note').first().textContent(), /^Link value gpus="99" .* using 16\./);
    if (widget === 'bubble') assert.match(await el.locator('.note').first().textContent(), /^Link value stages="<b>"/);
    if (widget === 'axes') assert.equal(await el.locator('[role="tab"][aria-selected="true"]').getAttribute('data-axis'), 'expert');
    if (widget === 'mfu') assert.ok(await el.locator('input[name="preset"][value="gpt3-175b"]').isChecked());
    // a negative price reaches the engine, whose refusal the reader reads in the figure's own words
    // a batch the replicas cannot split: the engine's refusal in the figure's own words
    // (its words come with the code a refusal loads, web/widgets/step/interact.js: waited for as shown)
    if (widget === 'step') assert.match(await el.locator('[data-out="problem"]:not([hidden])').textContent(), /^The batch must split into whole microbatches/);
    if (widget === 'run') assert.match(await el.locator('[data-out="problem"]').textContent(), /price per GPU-hour/);
    if (widget === 'nccl') await el.locator('[data-out="fit"][data-bandwidth]').waitFor();
    // 32,768 tokens do not cut into 12 chunks: the engine's refusal, in the figure's own words
    if (widget === 'context') assert.match(await el.locator('[data-out="problem"]').textContent(), /do not cut into 12/);
    // a tensor-parallel size that does not divide the heads: the engine refuses, the figure says why in words
    if (widget === 'memory') assert.match(await el.locator('[data-out="problem"]').textContent(), /attention heads/);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('an embed link that names no widget says how to name one', async () => {
  const { page, context } = await openParent(`${site().url}embed.html#widget=nope`);
  const text = await page.frameLocator('iframe').locator('.embed-unknown').textContent();
  assert.match(text, /names no parascope figure/);
  await context.close();
});

test('an embed downloads its own widget\'s code and no other widget\'s (each figure is a file of its own)', async () => {
  const ALL = FIGURES.map((f) => f.name);
  for (const widget of ['bubble', 'planner']) {
    const context = await site().browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    const scripts = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.text().then((body) => ({ url: r.url(), body })));
    });
    await page.goto(`${site().url}embed.html#widget=${widget}`);
    await page.locator(`parascope-${widget}[data-ready]`).waitFor();
    await page.waitForLoadState('networkidle');
    const bodies = await Promise.all(scripts);
    const defining = (name) => bodies.filter((s) => s.body.includes(`customElements.define("parascope-${name}"`)).map((s) => s.url);
    assert.equal(defining(widget).length, 1, `${widget}'s own code came once`);
    assert.match(defining(widget)[0], new RegExp(`/js/embed-${widget}-[A-Z2-7]{8}\\.js$`), 'in its own hashed file');
    // the loader, the figure's file and (the planner) its worker: no chunk shared with another figure
    const files = bodies.map((s) => new URL(s.url).pathname).filter((p) => p.startsWith('/js/'));
    assert.deepEqual(files.filter((p) => !/^\/js\/(embed|worker)(-[a-z]+)?-[A-Z2-7]{8}\.js$/.test(p)), [], files.join(', '));
    for (const other of ALL.filter((w) => w !== widget)) {
      assert.deepEqual(defining(other), [], `the ${widget} embed downloaded no code of parascope-${other}`);
    }
    await context.close();
  }
});

test('an embedded widget runs its own small engine: it fetches that module\'s wasm, never the figures\' parascope.wasm', async () => {
  const { WIDGET_ENGINES } = await import('../../web/lib/widget-engines.js');
  for (const widget of ['axes', 'context', 'ring', 'bubble', 'mfu', 'step', 'memory', 'planner', 'run', 'nccl']) {
    const context = await site().browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    const wasm = []; // the module names of the wasm files the page (or its worker) asked for
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('.wasm')) wasm.push(path.replace(/^.*\//, '').replace(/-[A-Z2-7]{8}\.wasm$/, ''));
    });
    await page.goto(`${site().url}embed.html#widget=${widget}`);
    await page.locator(`parascope-${widget}[data-ready]`).waitFor();
    // The planner's worker fetches its engine after the page is ready, maybe after a quiet moment on a busy machine:
    // wait for the first search's answer (it needs that engine) before listing what was fetched.
    if (widget === 'planner') {
      await page.waitForFunction(() => {
        const el = document.querySelector('parascope-planner');
        return el.hasAttribute('data-results') && !el.hasAttribute('data-searching');
      }, null, { timeout: 60000 });
    }
    await page.waitForLoadState('networkidle');
    const own = WIDGET_ENGINES[`parascope-${widget}`][0];
    // The planner's search runs in its worker on the planner's engine.
    const expected = widget === 'planner' ? [own, 'parascope-planner'] : [own];
    assert.deepEqual([...new Set(wasm)].sort(), expected.sort(), `the ${widget} embed fetched ${wasm.join(', ')}`);
    assert.equal(wasm.filter((w) => w === own).length, 1, `${own} fetched once`);
    const notes = (await page.locator(`parascope-${widget} .note`).allTextContents()).join(' ');
    assert.doesNotMatch(notes, /answered by|unknown op/, 'no op its engine leaves out');
    await context.close();
  }
});

test('an embed whose widget\'s file fails to load says so in its place', async () => {
  const context = await site().browser.newContext({ viewport: { width: 800, height: 900 } });
  await context.route(/\/js\/embed-ring-[A-Z2-7]{8}\.js$/, (route) => route.abort()); // the ring's own file
  const page = await context.newPage();
  await page.goto(`${site().url}embed.html#widget=ring`);
  const note = page.locator('parascope-ring [data-out="load-failed"]');
  await note.waitFor({ state: 'attached', timeout: 30000 });
  assert.match(await note.textContent(), /^This figure could not start: its script failed/);
  await context.close();
});

test('an embed starts its engine\'s download before its figure\'s file has come (the loader starts both)', async () => {
  const context = await site().browser.newContext({ viewport: { width: 800, height: 900 } });
  const seen = [];
  let held = 0;
  await context.route(/\/js\/embed-memory-[A-Z2-7]{8}\.js$/, async (route) => {
    held = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the figure's file, slow to come
    seen.push(['figure', Date.now()]);
    return route.continue();
  });
  const page = await context.newPage();
  page.on('request', (r) => r.url().endsWith('.wasm') && seen.push(['wasm', Date.now()]));
  await page.goto(`${site().url}embed.html#widget=memory`);
  await page.locator('parascope-memory[data-ready]').waitFor();
  assert.ok(held > 0, 'the figure came through its own file');
  assert.deepEqual(seen.map(([what]) => what), ['wasm', 'figure'], 'the wasm was asked for while the figure was held');
  await context.close();
});
