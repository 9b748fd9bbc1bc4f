// Opening the site where it cannot fully run, in headless Chromium: from file:// the page says in plain words why the
// figures do not run and gives the one command that serves it; a widget whose engine is missing says so in place.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { serve } from '../../scripts/serve.mjs';
import { startSite } from './harness.mjs';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let site;
before(async () => {
  site = await startSite();
});
after(async () => {
  await site?.close();
});

test('from file:// the article explains why its figures do not run and the one command that serves it', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  const note = page.locator('.parascope-file-note');
  await note.waitFor();
  assert.match(await note.textContent(), /opened as a file/);
  assert.equal(await note.locator('code').textContent(), 'python3 -m http.server 8000');
  assert.match(await note.textContent(), /http:\/\/localhost:8000\/index\.html/);
  for (const tag of ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu']) {
    const said = page.locator(`${tag} .parascope-stopped`);
    assert.equal(await said.count(), 1, `${tag} says why in place`);
    assert.ok(await said.isVisible());
  }
  await page.screenshot({ path: new URL('./screenshots/file-url-1000.png', import.meta.url).pathname });
  await context.close();
});

test('the iframe route from file:// explains it too, and over http does not download the explanation', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${pathToFileURL(join(DIST, 'embed.html')).href}#widget=ring`);
  const note = page.locator('.parascope-file-note');
  await note.waitFor();
  assert.match(await note.textContent(), /opened as a file/);
  assert.match(await note.textContent(), /http:\/\/localhost:8000\/embed\.html/);
  const served = await context.newPage();
  const asked = [];
  served.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await served.goto(`${site.url}embed.html#widget=ring`);
  await served.locator('parascope-ring').evaluate((el) => new Promise((resolve) => {
    if (el.shadowRoot?.querySelector('canvas, svg')) resolve();
    else el.addEventListener('parascope-ready', resolve, { once: true });
  }));
  assert.ok(asked.includes('/opens-from-file.js'));
  assert.ok(!asked.some((p) => p.endsWith('/opens-anywhere.js')), asked.join(' '));
  assert.ok(!asked.some((p) => p.includes('favicon')), asked.join(' '));
  await context.close();
});

/** A page that loads the unbundled modules (as a package user importing dist/widgets/* does). */
const UNBUNDLED_PAGE = `<!doctype html><meta charset="utf-8"><title>unbundled</title>
<link rel="stylesheet" href="css/embed.css"><parascope-bubble></parascope-bubble>
<script type="module" src="widgets/bubble/element.js"></script>`;

/**
 * Serves a copy of dist/ with the files matching `missing` (regular expressions over paths under dist/) removed;
 * runs check(page) on its article page, or on a page of the unbundled modules with `unbundled`.
 */
async function withBrokenCopy(missing, check, { unbundled = false } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'parascope-broken-'));
  await cp(DIST, dir, { recursive: true });
  const files = await readdir(dir, { recursive: true });
  const gone = files.filter((file) => missing.some((pattern) => pattern.test(file.split(sep).join('/'))));
  assert.ok(gone.length > 0, `nothing in dist/ matches ${missing.join(', ')}`);
  for (const file of gone) await rm(join(dir, file));
  if (unbundled) await writeFile(join(dir, 'unbundled.html'), UNBUNDLED_PAGE);
  const { server, url } = await serve({ root: dir, port: 0 });
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(unbundled ? new URL('unbundled.html', url).href : url);
    await check(page);
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

// The article's bundle holds the engine's JS glue, so only the wasm can go missing under it; the glue can go missing
// under the unbundled modules a package user imports.
const BROKEN = [
  { what: 'the article without its wasm', missing: [/^wasm\/parascope(-[A-Z2-7]{8})?\.wasm$/], unbundled: false },
  { what: 'the unbundled modules without the wasm glue (wasm/parascope.mjs)', missing: [/^wasm\/parascope\.mjs$/], unbundled: true },
];
for (const { what, missing, unbundled } of BROKEN) {
  test(`a widget whose engine cannot load (${what}) says so in place instead of spinning`, () =>
    withBrokenCopy(missing, async (page) => {
      const widget = page.locator('parascope-bubble');
      await widget.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('parascope-bubble')?.hasAttribute('data-failed'), null,
        { timeout: 15000 });
      const said = widget.locator('[data-out="load-failed"]');
      assert.match(await said.textContent(), /^This figure cannot run here: its engine \(WebAssembly\) did not load/);
      assert.equal(await widget.locator('.loading').count(), 0, 'no spinner left');
      assert.equal(await page.evaluate(() => document.querySelector('.parascope-file-note')), null);
    }, { unbundled }));
}

test('a page whose policy forbids WebAssembly gets a note in each figure instead of a spinner', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    // The page as a stricter host would serve it: the same policy without 'wasm-unsafe-eval'.
    await context.route(`${site.url}`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers(), 'content-security-policy':
        response.headers()['content-security-policy'].replace(" 'wasm-unsafe-eval'", '') };
      await route.fulfill({ response, headers });
    });
    const page = await context.newPage();
    const warnings = [];
    page.on('console', (msg) => msg.type() === 'warning' && /^parascope:/.test(msg.text()) && warnings.push(msg.text()));
    await page.goto(site.url);
    const widget = page.locator('parascope-ring');
    await widget.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('parascope-ring')?.hasAttribute('data-failed'), null,
      { timeout: 15000 });
    assert.match(await widget.locator('[data-out="load-failed"]').textContent(), /did not load/);
    // The console says it once for the page, naming what the policy lacks.
    await page.locator('parascope-bubble').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('parascope-bubble')?.hasAttribute('data-failed'), null,
      { timeout: 15000 });
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /'wasm-unsafe-eval'/);
  } finally {
    await context.close();
  }
});

test('a figure whose script never loads says so in its reserved box once the page has waited (embed.css)', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    const url = new URL('no-script.html', site.url).href;
    await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html>
      <link rel="stylesheet" href="css/embed.css"><script type="module" src="missing/main.js"></script>
      <parascope-ring style="--parascope-late: 0.1s"></parascope-ring><parascope-bubble></parascope-bubble>
      <parascope-mfu data-failed style="--parascope-late: 0.1s"></parascope-mfu>` }));
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForTimeout(400);
    const after = (tag) => page.evaluate((t) => {
      const style = getComputedStyle(document.querySelector(t), '::after');
      return { visibility: style.visibility, content: style.content };
    }, tag);
    const ring = await after('parascope-ring');
    assert.equal(ring.visibility, 'visible');
    assert.match(ring.content, /This figure did not load: its script/);
    assert.equal((await after('parascope-bubble')).visibility, 'hidden', 'not before the page has waited 10 s');
    assert.equal((await after('parascope-mfu')).content, 'none', 'a figure that says why keeps its own words');
  } finally {
    await context.close();
  }
});
