// Every widget in Chromium, Firefox ESR and WebKitGTK: it starts on the article page, shows engine numbers, one real
// interaction changes its number, no console or page errors; screenshots at 1280 and 360 px, light and dark, go to
// tests/browser/screenshots/<engine>/. PARASCOPE_ENGINES=firefox,webkit and PARASCOPE_WIDGETS=ring,mfu run a subset.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, beforeEach, describe, test } from 'node:test';

import { serve } from '../../scripts/serve.mjs';
import { ENGINE_NAMES, launchEngine } from './engines/index.mjs';

const SCREENSHOTS = new URL('./screenshots/', import.meta.url);
const ENGINES = process.env.PARASCOPE_ENGINES ? process.env.PARASCOPE_ENGINES.split(',') : ENGINE_NAMES;
const ONLY_WIDGETS = process.env.PARASCOPE_WIDGETS?.split(',');  // e.g. bubble,ring (while working on one)
const SIZES = [{ width: 1280, height: 1000 }, { width: 360, height: 800 }];

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** Scrolls the widget to the top of the viewport (it starts when on screen); true once done. */
function scrollTo(win, tag) {
  win.document.querySelector(tag).scrollIntoView({ block: 'start' });
  return true;
}

function isReady(win, tag) {
  return win.document.querySelector(tag)?.hasAttribute('data-ready') ?? false;
}

/** The engine numbers the widget shows (every data-value in its shadow root) and any broken-number text. */
function shownNumbers(win, tag) {
  const shadow = win.document.querySelector(tag).shadowRoot;
  const values = [...shadow.querySelectorAll('[data-value]')].map((el) => el.dataset.value);
  const text = shadow.textContent;
  return { numbers: values.filter((v) => v !== '' && Number.isFinite(Number(v))).length,
    broken: (text.match(/\b(NaN|undefined|Infinity)\b/g) ?? []).join(', ') };
}

/** Waits two frames (and the fonts), so a screenshot shows what was just rendered. */
function settled(win) {
  return win.document.fonts.ready.then(() => new Promise((resolve) =>
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => resolve(true)))));
}

/** Scrolls a control inside the widget to the middle of the viewport; its (label's) centre in viewport px. */
function centreOf(win, tag, selector) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(selector);
  if (!el) return null;
  const target = el.closest('label') ?? el;
  target.scrollIntoView({ block: 'center' });
  const r = target.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Sets a range/number input to another value of its range the way a drag does (value, then input and change). */
function moveSlider(win, tag, selector) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(selector);
  const min = Number(el.min || 0);
  const step = Number(el.step) || 1;
  el.value = String(Number(el.value) === min ? min + step : min);
  el.dispatchEvent(new win.Event('input', { bubbles: true }));
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
  return el.value;
}

/** The value of the widget's [data-out=name] element (its data-value, else its text). */
function out(win, tag, name) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(`[data-out="${name}"]`);
  return el ? (el.dataset.value ?? el.textContent) : null;
}

/** Focuses the widget's element matched by `selector` (e.g. its keyboard-driven figure); true when it took focus. */
function focusOn(win, tag, selector) {
  const shadow = win.document.querySelector(tag).shadowRoot;
  const el = shadow.querySelector(selector);
  if (!el) return false;
  el.scrollIntoView({ block: 'center' });
  el.focus();
  return shadow.activeElement === el;
}

/** The planner's best MFU once its search has finished (null while it searches). */
function plannedMfu(win, tag) {
  const el = win.document.querySelector(tag);
  if (!el.hasAttribute('data-results') || el.hasAttribute('data-searching')) return null;
  return el.shadowRoot.querySelector('tbody .col-mfu[data-value]')?.dataset.value ?? null;
}

/** The software stack the planner's shown plan was asked for, its link's, and whether its export title names it. */
function plannedFor(win, tag) {
  const el = win.document.querySelector(tag);
  const label = el.shadowRoot.querySelector('select[name="software"]').selectedOptions[0].textContent;
  return { request: el.answered.request.software, link: el.linkState().software,
    title: el.exportFigure().title.endsWith(`costed for ${label}`) };
}

/** Picks another value of the widget's select `name` (the next option, or the first) and fires its change. */
function pickOther(win, tag, name) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(`select[name="${name}"]`);
  el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
  return el.value;
}

/**
 * The widget's selects on screen with an option wider than the room inside them (its text cut off were it chosen):
 * its name, the text, the px it needs and the px it has. The text is measured in the select's own font on a canvas.
 * Every option, not only the chosen one: a reader may pick any (at 1280 px ring's and context's three-column chip
 * select cut B200's name; at 360 px the ring's link select cut every network's name, GB200's chip name before that).
 */
function clippedSelects(win, tag) {
  const ctx = win.document.createElement('canvas').getContext('2d');
  const out = [];
  for (const el of win.document.querySelector(tag).shadowRoot.querySelectorAll('select')) {
    if (!el.clientWidth || (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true }))) continue;
    const cs = win.getComputedStyle(el);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const have = Math.floor(el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
    for (const option of el.options) {
      const need = Math.ceil(ctx.measureText(option.textContent).width);
      if (need > have) out.push(`${el.name}: "${option.textContent}" needs ${need} px, has ${have}`);
    }
  }
  return out;
}

/** Picks option `index` of the widget's select `name` (none: keeps its choice) and fires its change; the option count
 *  and the index chosen before. */
function pickOption(win, tag, name, index) {
  const el = win.document.querySelector(tag).shadowRoot.querySelector(`select[name="${name}"]`);
  const before = el.selectedIndex;
  if (index != null && index !== before) {
    el.selectedIndex = index;
    el.dispatchEvent(new win.Event('change', { bubbles: true }));
  }
  return { count: el.options.length, before };
}

/**
 * The empty cells of the widget's control grids on screen: a row of controls that stops short of the grid's right
 * edge, or leaves a gap wider than the column gap between two controls (a cell no control took).
 */
function gridHoles(win, tag) {
  const out = [];
  for (const grid of win.document.querySelector(tag).shadowRoot.querySelectorAll('.controls')) {
    const cs = win.getComputedStyle(grid);
    if (cs.display !== 'grid' || !grid.clientWidth) continue;
    const box = grid.getBoundingClientRect();
    const right = box.right - parseFloat(cs.paddingRight);
    const gap = parseFloat(cs.columnGap) || 0;
    const rows = new Map();
    for (const c of grid.children) {
      const r = c.getBoundingClientRect();
      if (!r.width || (c.checkVisibility && !c.checkVisibility({ visibilityProperty: true }))) continue;
      const top = Math.round(r.top);
      rows.set(top, [...(rows.get(top) ?? []), r]);
    }
    if (rows.size < 2) continue; // one row of controls is a toolbar, not a grid with cells to fill
    for (const [top, cells] of rows) {
      cells.sort((a, b) => a.left - b.left);
      const name = `${grid.className} row at ${Math.round(top - box.top)} px`;
      if (right - cells.at(-1).right > gap + 2) out.push(`${name}: ${Math.round(right - cells.at(-1).right)} px empty at its end`);
      for (let i = 1; i < cells.length; i += 1) {
        if (cells[i].left - cells[i - 1].right > gap + 2) out.push(`${name}: an empty cell inside it`);
      }
    }
  }
  return out;
}

function pageWidth(win) {
  return { scrollWidth: win.document.documentElement.scrollWidth, innerWidth: win.innerWidth };
}

/** The track record's median measured / predicted once its record has loaded, else null. */
function trackMedian(win, tag) {
  return win.document.querySelector(tag).shadowRoot.querySelector('[data-out="summary"]')?.dataset.value ?? null;
}

/** The bandwidth <parascope-nccl> fitted to its paste, once fitted (null while its example loads). */
function ncclFit(win, tag) {
  const el = win.document.querySelector(tag);
  if (el.hasAttribute('data-loading')) return null;
  return el.shadowRoot.querySelector('[data-out="fit"]')?.dataset.bandwidth ?? null;
}

function ringState(win, tag) {
  const shadow = win.document.querySelector(tag).shadowRoot;
  const round = shadow.querySelector('[data-out="status"]')?.dataset.round;
  const cells = [...shadow.querySelectorAll('.ring-cell')].map((c) => c.dataset.value ?? c.textContent).join(' ');
  return `round ${round}: ${cells}`;
}

// ---- per widget: the number an interaction must change, and that interaction ----

const clickOn = async (page, tag, selector) => {
  const at = await page.evaluate(centreOf, tag, selector);
  assert.ok(at, `${tag}: no ${selector}`);
  await page.click(at.x, at.y);
};

const WIDGETS = [
  {
    tag: 'parascope-axes',
    what: 'the expert tab shows the all-to-all time; the router-skew slider changes it',
    async prepare(page, tag) {
      await clickOn(page, tag, 'button[data-axis="expert"]');
    },
    read: (page, tag) => page.evaluate(out, tag, 'a2a-time'),
    act: (page, tag) => page.evaluate(moveSlider, tag, 'input[name="skew"]'),
  },
  {
    tag: 'parascope-context',
    what: 'the sequence-length slider changes the K/V bytes each ring step sends',
    read: (page, tag) => page.evaluate(out, tag, 'kv'),
    act: (page, tag) => page.evaluate(moveSlider, tag, 'input[name="sequence"]'),
  },
  {
    tag: 'parascope-ring',
    what: 'the right-arrow key steps one round of the engine trace',
    choicesFollow: 'hardware', // the link menu names the chip's links: every chip's must fit
    read: (page, tag) => page.evaluate(ringState, tag),
    numeric: false,
    async act(page, tag) {
      assert.ok(await page.evaluate(focusOn, tag, '[role="slider"][tabindex]'), 'the ring figure (a slider over the rounds) takes focus');
      await page.press('ArrowRight');
    },
  },
  {
    tag: 'parascope-bubble',
    what: 'the stages slider changes the useful-work share',
    read: (page, tag) => page.evaluate(out, tag, 'efficiency'),
    act: (page, tag) => page.evaluate(moveSlider, tag, 'input[name="stages"]'),
  },
  {
    tag: 'parascope-mfu',
    what: 'another preset changes the modelled MFU',
    read: (page, tag) => page.evaluate(out, tag, 'modelled-mfu'),
    act: (page, tag) => clickOn(page, tag, 'input[name="preset"]:not(:checked):not([value="your-run"])'),
  },
  {
    tag: 'parascope-step',
    what: 'another pipeline size gives another step time from the timeline op',
    read: (page, tag) => page.evaluate(out, tag, 'step'),
    act: (page, tag) => page.evaluate(pickOther, tag, 'pp'),
  },
  {
    tag: 'parascope-memory',
    what: 'the next ZeRO stage changes the peak the engine answers',
    read: (page, tag) => page.evaluate(out, tag, 'headline'),
    act: (page, tag) => page.evaluate(pickOther, tag, 'zero'),
  },
  {
    tag: 'parascope-track',
    what: 'the memory view replaces the held-out MFU median with the memory one',
    until: trackMedian,
    read: (page, tag) => page.evaluate(trackMedian, tag),
    async act(page, tag) {
      await page.evaluate(pickOther, tag, 'view');
    },
  },
  {
    tag: 'parascope-planner',
    what: 'another software stack gives another plan, searched in the worker for that stack',
    until: plannedMfu,
    read: (page, tag) => page.evaluate(plannedMfu, tag),
    async act(page, tag) {
      this.picked = await page.evaluate(pickOther, tag, 'software');
    },
    async verify(page, tag) {
      const costed = await page.evaluate(plannedFor, tag);
      assert.deepEqual(costed, { request: this.picked, link: this.picked, title: true },
        'the plan shown was asked for the stack picked, and its link and export say so');
    },
  },
  {
    tag: 'parascope-run',
    what: 'the failure-rate slider changes the goodput the engine answers',
    read: (page, tag) => page.evaluate(out, tag, 'goodput'),
    act: (page, tag) => page.evaluate(moveSlider, tag, 'input[name="failure-rate"]'),
  },
  {
    tag: 'parascope-nccl',
    what: 'the other example gives another fitted bandwidth',
    until: ncclFit,
    read: (page, tag) => page.evaluate(ncclFit, tag),
    act: (page, tag) => page.evaluate(pickOther, tag, 'example'),
  },
];

// ---- the tests ----

let site;
before(async () => {
  site = await serve({ port: 0 });
});
after(async () => {
  await new Promise((resolve) => site?.server.close(resolve));
});

/** Calls `read` until `ok(value)` (15 s at most); returns the value or throws. */
async function poll(read, ok, what, timeout = 15_000) {
  for (const until = Date.now() + timeout; ;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${value})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Brings `tag` on screen, waits for it to start and checks it shows engine numbers. */
async function startWidget(page, { tag, until }) {
  await page.evaluate(scrollTo, tag);
  await page.waitFor(isReady, [tag], { what: `${tag} to start (data-ready)` });
  if (until) await poll(() => page.evaluate(until, tag), (v) => v != null, `${tag}'s first answer`, 60_000);
  const shown = await page.evaluate(shownNumbers, tag);
  assert.ok(shown.numbers > 0, `${tag} shows no engine number (no numeric data-value)`);
  assert.equal(shown.broken, '', `${tag} shows broken numbers`);
}

async function screenshot(page, browser, tag) {
  await page.evaluate(scrollTo, tag);
  await page.evaluate(settled);
  const dir = new URL(`${browser.name}/`, SCREENSHOTS);
  await mkdir(dir, { recursive: true });
  const file = `${tag.replace('parascope-', '')}-${page.width}-${browser.colorScheme}.png`;
  await page.screenshot(new URL(file, dir).pathname);
}

/**
 * Picks each option of the select `name` in turn (other selects' options follow it) and checks that no select cuts off
 * a choice after each; picks the option it had again at the end.
 */
async function everyChoiceFits(page, tag, name, engine) {
  const { count, before } = await page.evaluate(pickOption, tag, name, null);
  const cut = [];
  for (let i = 0; i < count; i += 1) {
    await page.evaluate(pickOption, tag, name, i);
    await page.evaluate(settled);
    cut.push(...(await page.evaluate(clippedSelects, tag)).map((text) => `${name} #${i}: ${text}`));
  }
  await page.evaluate(pickOption, tag, name, before);
  assert.deepEqual(cut, [], `${engine}: with another ${name}, a select cuts off a choice`);
}

/** The interaction: the widget's number before, the act, then the number must change (15 s at most). */
async function interact(page, widget) {
  const { tag } = widget;
  await widget.prepare?.(page, tag);
  const first = await poll(() => widget.read(page, tag), (v) => v != null, `${tag}'s number`);
  if (widget.numeric !== false) assert.ok(Number.isFinite(Number(first)), `${tag}: not a number: ${first}`);
  await widget.act(page, tag);
  // null is no answer yet (the planner while it searches): wait for the new one.
  const now = await poll(() => widget.read(page, tag), (v) => v != null && v !== first, `${tag}'s number to change`, 60_000)
    .catch(() => first);
  assert.notEqual(now, first, `${tag}: the interaction did not change ${first}`);
  if (widget.numeric !== false) assert.ok(Number.isFinite(Number(now)), `${tag}: not a number: ${now}`);
  await widget.verify?.(page, tag);
  const shown = await page.evaluate(shownNumbers, tag);
  assert.equal(shown.broken, '', `${tag} shows broken numbers after the interaction`);
}

// One browser per engine and colour scheme, one article page per width; each widget is a test on that page (a page
// load per widget would triple the time). Problems are checked per test: those that appeared since the last check.
for (const engine of ENGINES) {
  for (const colorScheme of ['light', 'dark']) {
    describe(`${engine}, ${colorScheme}`, () => {
      let browser;
      let launchFailure;
      before(async () => {
        browser = await launchEngine(engine, { colorScheme }).catch((err) => { launchFailure = err; });
      });
      after(async () => {
        await browser?.close();
      });

      for (const size of SIZES) {
        describe(`article page at ${size.width} px`, () => {
          let page;
          let seen = 0;
          let openFailure;
          // A page that cannot open fails each test with the driver's own message (a failed hook would only
          // report its tests as "cancelled", hiding why).
          before(async () => {
            page = await (browser ? browser.open(site.url, size) : Promise.reject(launchFailure))
              .catch((err) => { openFailure = err; });
          });
          beforeEach(() => {
            if (openFailure) throw openFailure;
          });
          after(async () => {
            await page?.close();
          });
          const newProblems = async () => {
            const all = await page.problems();
            const fresh = all.slice(seen);
            seen = all.length;
            return fresh;
          };

          if (size.width < 400) {
            test('the page does not scroll sideways once every widget has started', async () => {
              for (const { tag } of WIDGETS) {
                await page.evaluate(scrollTo, tag);
                await page.waitFor(isReady, [tag], { what: `${tag} to start (data-ready)` });
              }
              await page.evaluate(settled);
              const { scrollWidth, innerWidth } = await page.evaluate(pageWidth);
              assert.ok(scrollWidth <= innerWidth, `${engine}: the page is ${scrollWidth} px wide in a ${innerWidth} px viewport`);
              assert.deepEqual(await newProblems(), [], `${engine}: errors in the page`);
            });
          }

          for (const widget of WIDGETS.filter((w) => !ONLY_WIDGETS || ONLY_WIDGETS.includes(w.tag.replace('parascope-', '')))) {
            const { tag } = widget;
            const interacts = colorScheme === 'light' && size.width === 1280;
            test(`${tag} starts and shows engine numbers${interacts ? `; ${widget.what}` : ''}`, async () => {
              let failure;
              try {
                await startWidget(page, widget);
                await screenshot(page, browser, tag);
                assert.deepEqual(await page.evaluate(clippedSelects, tag), [], `${engine}: a select cuts off a choice`);
                if (widget.choicesFollow) await everyChoiceFits(page, tag, widget.choicesFollow, engine);
                assert.deepEqual(await page.evaluate(gridHoles, tag), [], `${engine}: an empty cell among the controls`);
                if (interacts) await interact(page, widget);
              } catch (err) {
                failure = err;
              }
              const problems = await newProblems();
              if (failure) {
                if (problems.length) failure.message += `\nand in the page: ${problems.join('\n')}`;
                throw failure;
              }
              assert.deepEqual(problems, [], `${engine}: errors in the page`);
            });
          }

          if (colorScheme === 'light' && size.width === 1280) {
            // A refusal must leave the engine answering: WebKit once trapped on refusals thrown through a
            // std::function frame, and every later call failed ("call_indirect to a null table entry").
            test('the engine refuses bad requests and keeps answering', async () => {
              await page.evaluate((win) => {
                win.refusalProbe = import('/lib/engine.js').then(async ({ loadEngine, loadPlannerEngine }) => {
                  const out = [];
                  for (const load of [loadEngine, loadPlannerEngine]) {  // the figures' engine, then the planner's
                    const engine = await load();
                    for (const request of [{ op: 'nope' }, { op: 'step', model: 'gpt3-175b' }, { op: 'pipeline', stages: 0 },
                      { op: 'plan', model: 'gpt2-124m' }, { op: 'version' }]) {
                      try {
                        out.push(`answer ${engine.call(request).name}`);
                      } catch (err) {
                        out.push(`${err.name} ${err.code}`);
                      }
                    }
                  }
                  return out.join(', ');
                }, (err) => `load failed: ${err.message}`).then((text) => { win.refusalProbeText = text; });
                return true;
              });
              const text = await page.waitFor((win) => win.refusalProbeText, [], { what: 'the refusal probe' });
              // The figures' engine refuses plan by name (the planner's module has it); the planner's reads its fields.
              assert.equal(text, 'EngineError unknown_op, EngineError missing_field, EngineError missing_field, '
                + 'EngineError unknown_op, answer parascope, '
                + 'EngineError unknown_op, EngineError missing_field, EngineError missing_field, '
                + 'EngineError missing_field, answer parascope');
            });

            test('the driver hears a console error and an uncaught error (so "no errors" means something)', async () => {
              assert.deepEqual(await newProblems(), [], `${engine}: errors in the page`);
              await page.evaluate((win) => {
                win.console.error('probe: console');
                win.setTimeout(() => { throw new Error('probe: uncaught'); });
                return true;
              });
              const heard = [];
              await poll(async () => heard.push(...await newProblems()), (n) => n >= 2, 'both probe errors', 5000)
                .catch(() => {});
              assert.match(heard.join('\n'), /probe: console/);
              assert.match(heard.join('\n'), /probe: uncaught/);
            });
          }
        });
      }

      if (colorScheme === 'light') {
        // The iframe route (scripts/bundle.mjs): a loader module that import()s the figure's own file by a computed
        // URL and starts its wasm's compile itself; each engine must load them and start the one widget.
        test('the iframe route (embed.html: a loader, the figure\'s own file) starts each widget alone', async () => {
          if (!browser) throw launchFailure;
          for (const { tag, until } of WIDGETS.filter((w) => !ONLY_WIDGETS || ONLY_WIDGETS.includes(w.tag.replace('parascope-', '')))) {
            const page = await browser.open(`${site.url}embed.html#widget=${tag.replace('parascope-', '')}`, SIZES[0]);
            try {
              await page.waitFor(isReady, [tag], { what: `${tag} to start in embed.html (data-ready)` });
              // As on the article page: the planner's numbers come once its worker's first search has answered.
              if (until) await poll(() => page.evaluate(until, tag), (v) => v != null, `${tag}'s first answer in embed.html`, 60_000);
              const shown = await page.evaluate(shownNumbers, tag);
              assert.ok(shown.numbers > 0, `${engine}: ${tag} shows no engine number in embed.html`);
              assert.equal(shown.broken, '', `${tag} shows broken numbers in embed.html`);
              assert.deepEqual(await page.problems(), [], `${engine}: errors in embed.html#widget=${tag}`);
            } finally {
              await page.close();
            }
          }
        });
      }
    });
  }
}
