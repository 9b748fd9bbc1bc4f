// The integration layer (issue 28): the packed package (npm pack) in the tools people write with. A tiny site per tool,
// built offline against the tarball: Vite, webpack (with a style-loader/css-loader rule), esbuild, Astro + MDX (npm),
// Hugo and Jekyll (Debian) with the package's own shortcode and include under a sub-path; a plain host page; each
// served with the strict Content-Security-Policy of scripts/serve.mjs and checked in Chromium (page-check.mjs); the
// Astro site also under its dev server (Vite's dependency optimiser). Then node imports the package without a DOM,
// and tsc --strict checks a typed consumer and refuses a misspelt attribute.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { serve } from '../../scripts/serve.mjs';
import { checkFigures, launch } from './page-check.mjs';
import { bin, copyDist, prepare, run, siteCopy } from './tools.mjs';

/**
 * Runs `command args` in `cwd` as a dev server until `check(url)` settles: the URL is the first http://localhost one
 * the server prints. The server (started here) is stopped by its own pid afterwards.
 */
async function devServer(command, args, cwd, check, env = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL from ${command} in 60 s:\n${said}`)), 60_000);
      const read = (chunk) => {
        said += chunk;
        const found = said.replace(/\x1b\[[0-9;]*m/g, '').match(/http:\/\/(localhost|127\.0\.0\.1):\d+\/?/);
        if (found) {
          clearTimeout(timer);
          resolve(found[0]);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`${command} exited (${code}):\n${said}`)));
    });
    return await check(url);
  } finally {
    child.kill('SIGTERM');
  }
}

let tools;
let browser;
before(async () => {
  tools = await prepare();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Serves `root` under the strict CSP while `check(url)` runs. */
async function served(root, check) {
  const { server, url } = await serve({ root, port: 0 });
  try {
    return await check(url);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('Vite: a production build draws every figure, and both entries give one engine', async () => {
  const dir = await siteCopy('vite');
  run(bin('vite'), ['build', '--logLevel', 'warn'], dir);
  await served(join(dir, 'public'), async (url) => {
    await checkFigures(browser, url);
  });
  const built = await readFile(join(dir, 'public', 'index.html'), 'utf8');
  assert.doesNotMatch(built, /<style/, 'no inline style (the CSP blocks it)');
});

test('Vite: the engine is fetched once however the package is imported', async () => {
  const dir = join(tools.work, 'vite', 'public');
  await served(dir, async (url) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.oneEngine !== undefined, null, {
      timeout: 30_000,
    });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.oneEngine), 'true');
    const wasm = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.endsWith('.wasm')),
    );
    assert.equal(wasm.length, 1, `one wasm fetched on the page: ${wasm.join(', ')}`);
    await context.close();
  });
});

test('webpack 5 with a style-loader/css-loader rule: a production build draws every figure', async () => {
  const dir = await siteCopy('webpack');
  const log = run(bin('webpack'), ['--config', 'webpack.config.cjs', '--no-color'], dir);
  assert.doesNotMatch(log, /WARNING|Critical dependency/, log);
  await served(join(dir, 'public'), (url) => checkFigures(browser, url));
});

test('esbuild: the bundle and the copied dist/ (setAssetBase) draw every figure', async () => {
  const dir = await siteCopy('esbuild');
  await mkdir(join(dir, 'public'), { recursive: true });
  run(bin('esbuild'), ['app.js', '--bundle', '--format=esm', '--outdir=public', '--log-level=warning'], dir);
  await cp(join(dir, 'index.html'), join(dir, 'public', 'index.html'));
  await copyDist(join(dir, 'public', 'parascope'));
  await served(join(dir, 'public'), (url) => checkFigures(browser, url));
});

test('Astro 5 + MDX: a post built with the package draws every figure', async () => {
  const dir = await siteCopy('astro');
  run(bin('astro'), ['build', '--silent'], dir, { ASTRO_TELEMETRY_DISABLED: '1' });
  await served(join(dir, 'public-site'), (url) => checkFigures(browser, url));
});

test("Astro 5 dev server (Vite's dependency optimiser, the package excluded as the README says): a post draws every figure", async () => {
  const dir = await siteCopy('astro');
  await devServer(bin('astro'), ['dev', '--port', '0', '--host', '127.0.0.1'], dir, (url) => checkFigures(browser, url), {
    ASTRO_TELEMETRY_DISABLED: '1',
  });
});

test("Hugo (Debian): the package's shortcode under a sub-path draws every figure of a post", async () => {
  const dir = await siteCopy('hugo');
  await cp(join(tools.work, 'node_modules/parascope/dist/integrations/hugo/layouts'), join(dir, 'layouts'), {
    recursive: true,
  });
  await copyDist(join(dir, 'static', 'parascope'));
  const out = join(dir, 'out');
  run('hugo', ['--quiet', '--destination', join(out, 'blog')], dir);
  await served(out, (url) => checkFigures(browser, new URL('blog/posts/my-post/', url).href));
});

test("Jekyll (Debian): the package's include under a sub-path draws every figure of a post", async () => {
  const dir = await siteCopy('jekyll');
  await cp(join(tools.work, 'node_modules/parascope/dist/integrations/jekyll/_includes'), join(dir, '_includes'), {
    recursive: true,
  });
  await copyDist(join(dir, 'parascope'));
  const out = join(dir, 'out');
  run('jekyll', ['build', '--quiet', '--source', dir, '--destination', join(out, 'blog')], dir);
  await served(out, (url) => checkFigures(browser, new URL('blog/posts/my-post/', url).href));
});

test('a plain host page with a strict Content-Security-Policy: the copied dist/ draws every figure', async () => {
  const dir = await siteCopy('csp');
  await copyDist(join(dir, 'parascope'));
  await served(dir, (url) => checkFigures(browser, url));
});

test('node: importing the package defines nothing, and loadEngine reads the wasm from disk', async () => {
  const dir = await siteCopy('typed');
  const said = JSON.parse(
    run(
      'node',
      [
        '--input-type=module',
        '-e',
        `
    const { loadEngine, registered } = await import('parascope');
    const alone = await import('parascope/engine');
    const engine = await loadEngine();
    const presets = engine.call({ op: 'presets' });
    console.log(JSON.stringify({ registered: await registered, same: engine === await alone.loadEngine(),
      hardware: presets.hardware.length, dom: typeof HTMLElement }));`,
      ],
      dir,
    ),
  );
  assert.deepEqual(said.registered, {});
  assert.equal(said.same, true, 'one engine for both entries');
  assert.ok(said.hardware > 0);
  assert.equal(said.dom, 'undefined');
});

test('tsc --strict: a typed consumer compiles (bundler and node10 resolution); a misspelt attribute does not', async () => {
  const dir = join(tools.work, 'typed');
  run(bin('tsc'), ['-p', 'tsconfig.json'], dir);
  run(bin('tsc'), ['-p', 'tsconfig.node10.json'], dir);
  let refused = '';
  try {
    run(bin('tsc'), ['-p', 'tsconfig.fails.json'], dir);
  } catch (err) {
    refused = err.message;
  }
  assert.match(refused, /must-fail\.tsx.*error TS2322[\s\S]*stagse/, refused || 'tsc accepted a misspelt attribute');
  await rm(join(dir, 'out'), { recursive: true, force: true });
});
