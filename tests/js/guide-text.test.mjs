// The embed guide's and the README's prose about the figures agrees with the one list of them (lib/widget-modules.js):
// how many the package registers and types, and which ones the iframe route names.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { WIDGET_MODULES } from '../../web/lib/widget-modules.js';

const guide = (await readFile(new URL('../../web/guide.html', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
const readme = (await readFile(new URL('../../README.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
const names = Object.keys(WIDGET_MODULES).map((tag) => tag.replace(/^parascope-/, ''));
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

test('the guide says the package registers as many elements as there are figures', () => {
  const said = guide.match(/registers the (\w+) elements/);
  assert.ok(said, 'the guide says how many elements the package registers');
  assert.equal(said[1], WORDS[names.length]);
});

test('the iframe section names every figure the embed route can show', () => {
  const section = guide.slice(guide.indexOf('id="iframe"'), guide.indexOf('id="npm"'));
  const listed = section.match(/\(<code>widget=axes<\/code>[^)]*\)/)?.[0] ?? '';
  for (const name of names) assert.match(listed, new RegExp(`<code>(widget=)?${name}</code>`), name);
});

test('the README counts the elements the package registers and types as the guide does: one per figure', () => {
  const counts = [...readme.matchAll(/\b(\w+) (elements|tags)\b/g)].filter(([, word]) => WORDS.includes(word));
  assert.ok(counts.length >= 2, 'the README says how many elements are registered and typed');
  for (const [said, word] of counts) assert.equal(word, WORDS[names.length], said);
});

/** The guide's section that starts at id="<id>", up to the next h2. */
const section = (id) => {
  const start = guide.indexOf(`id="${id}"`);
  const end = guide.indexOf('<h2', start + 1);
  return start < 0 ? '' : guide.slice(start, end < 0 ? undefined : end);
};

test("Hugo and Jekyll: the guide uses the package's own shortcode and include, and overrides no theme head", async () => {
  const blogs = section('markdown');
  for (const file of ['hugo/layouts/shortcodes/parascope.html', 'jekyll/_includes/parascope.html']) {
    await readFile(new URL(`../../web/integrations/${file}`, import.meta.url)); // shipped in dist/integrations/
    assert.ok(blogs.includes(`node_modules/parascope/dist/integrations/${file}`), `the guide names ${file}`);
  }
  assert.match(blogs, /\{\{&lt; parascope figure="\w+"[^}]*&gt;\}\}/, 'the shortcode as a post writes it');
  assert.match(blogs, /\{% include parascope\.html figure="\w+"[^}]*%\}/, 'the include as a post writes it');
  // Tags written by hand need the head's two lines at paths that hold under a sub-path (baseURL / baseurl).
  assert.match(blogs, /\| relURL/);
  assert.match(blogs, /\| relative_url/);
  // Overriding a theme's head file replaces the theme's own head.
  assert.doesNotMatch(blogs, /layouts\/partials\/head\.html|_includes\/head\.html/);
});

test('the copied folder is named for npm users, and esbuild is told to set the asset base', () => {
  assert.match(section('html'), /node_modules\/parascope\/dist/);
  const npm = section('npm');
  assert.match(npm, /esbuild[^.]*copies none/);
  assert.match(npm, /setAssetBase\('\/parascope\/'\)/);
  assert.match(npm, /optimizeDeps: \{ exclude: \['parascope'\] \}/, "Vite's dev server");
  assert.match(npm, /Node/);
});

test('a Content-Security-Policy section lists what the figures need, as the site is served', async () => {
  const { CONTENT_SECURITY_POLICY } = await import('../../scripts/serve.mjs');
  const csp = section('csp');
  assert.ok(guide.includes('href="#csp"'), 'listed in the contents');
  for (const directive of CONTENT_SECURITY_POLICY.split('; ')) {
    if (/^(script|style|img|connect)-src /.test(directive)) assert.ok(csp.includes(directive), directive);
  }
  assert.match(csp, /worker-src/);
  assert.match(csp, /inlineStylesheets: 'never'/);
  assert.match(csp, /assetsInlineLimit: 0/);
});
