// A seeded cross-figure walk in Chromium, Firefox ESR and WebKitGTK (issue 25): a planner row drawn by the seed loads
// into every figure it links to (each takes the row's values, the MFU figure the engine's MFU for it); every figure's
// permalink opens its state alone and all of them together in one hash (every figure of web/widgets/index.js); every figure's SVG export shows what its screen
// shows. PARASCOPE_ENGINES=firefox,webkit narrows the engines; PARASCOPE_WALK_SEED=n replays another walk.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { TEST_PAGES, serve } from '../../scripts/serve.mjs';
import { FIGURES as LISTED } from '../../web/widgets/index.js';
import { stepRequestOf, TARGETS } from '../../web/widgets/planner/model/load.js';
import { planRequest } from '../../web/widgets/planner/model/request.js';
import { nodeEngine, nodePlannerEngine } from '../js/node-engine.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { ENGINE_NAMES, launchEngine } from './engines/index.mjs';
import { captureDownloads, clickDownload, drawnIn, exportMismatches, onScreen } from './export-screen.mjs';

const ENGINES = process.env.PARASCOPE_ENGINES ? process.env.PARASCOPE_ENGINES.split(',') : ENGINE_NAMES;
const SEED = Number(process.env.PARASCOPE_WALK_SEED ?? 25);
const SIZE = { width: 1280, height: 1000 };
const FIGURES = LISTED.map((f) => f.name);
const engine = await nodeEngine();
const planner = await nodePlannerEngine();

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** Whether figure `tag` has started (the planner: finished its search with rows; the track: drawn its record). */
function ready(win, tag) {
  const el = win.document.querySelector(tag);
  if (!el?.hasAttribute('data-ready') || el.hasAttribute('data-routing') || el.hasAttribute('data-loading')) return false;
  if (tag === 'parascope-track') return Boolean(el.shadowRoot.querySelector('[data-out="summary"][data-value]'));
  if (tag !== 'parascope-planner') return true;
  return !el.hasAttribute('data-searching') && el.shadowRoot.querySelectorAll('tr[data-rank]').length > 0;
}

function scrollTo(win, tag) {
  win.document.querySelector(tag).scrollIntoView({ block: 'start' });
  return true;
}

/** The figure's state as its permalink writes it (attribute -> text), and the keys of the notes it shows. */
function stateOf(win, tag) {
  const el = win.document.querySelector(tag);
  const state = Object.fromEntries(Object.entries(el.linkState() ?? {}).map(([k, v]) => [k, v == null ? null : String(v)]));
  const notes = [...el.shadowRoot.querySelectorAll('[data-note]')].map((n) => n.dataset.note);
  return { state, notes };
}

/** The number figure `tag` shows under [data-out=name] (its data-value). */
function shownValue(win, tag, name) {
  return win.document.querySelector(tag).shadowRoot.querySelector(`[data-out="${name}"]`)?.dataset.value ?? null;
}

/** The planner's inputs and its row count. */
function plannerRows(win) {
  const el = win.document.querySelector('parascope-planner');
  return { inputs: { ...el.inputs }, rows: el.shadowRoot.querySelectorAll('tr[data-rank]').length };
}

/** Clicks the load button of the planner's row `rank`; true once clicked. */
function loadRow(win, rank) {
  win.document.querySelector('parascope-planner').shadowRoot.querySelector(`tr[data-rank="${rank}"] button.planner-load`).click();
  return true;
}

/** Whether every figure in `tags` shows the planner's note (it took the loaded row). */
function loadedInto(win, tags) {
  return tags.every((tag) => win.document.querySelector(tag).shadowRoot.querySelector('[data-note="planner"]'));
}

/** Figure `tag`'s top in the window, in px. */
function topInWindow(win, tag) {
  return Math.round(win.document.querySelector(tag).getBoundingClientRect().top);
}

/**
 * Whether the page has opened at figure `tag`: its top within a few px of the window's top (figures above it may
 * draw a few px taller than css/embed.css reserves in one engine; tests/browser/heights.test.mjs holds that to 2 px).
 */
function openedAt(win, tag) {
  const top = win.document.querySelector(tag).getBoundingClientRect().top;
  return top > -4 && top < 24;
}

/** The captured download number `n` (0-based) once its text is read, else null (export-screen.mjs's capture). */
function downloadAt(win, n) {
  const entry = win.parascopeDownloads?.[n];
  return entry?.text == null ? null : entry;
}

// ---- the seeded states: values every figure accepts as given (so a link must bring back exactly these) ----

/** One permalink state per figure, drawn by `random`: attribute -> text. */
function drawStates(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const stages = pick([2, 4, 6, 8]);
  return {
    axes: { axis: pick(['data', 'tensor', 'pipeline', 'expert', 'all']), skew: pick(['0', '0.5', '1.5', '2.3']) },
    context: { cp: pick(['2', '4', '8']), sequence: pick(['8192', '32768', '131072']),
      split: pick(['zigzag', 'contiguous']), variant: pick(['p2p', 'all-gather']) },
    ring: { gpus: String(pick([2, 3, 5, 6, 8])), hardware: pick(['h100-sxm', 'a100-80gb']), link: 'intra',
      bytes: String(pick([2 ** 24, 2 ** 30])) },
    bubble: { schedule: pick(['gpipe', '1f1b', 'zb-h1', 'zb-h2']), stages: String(stages),
      microbatches: String(stages * pick([1, 2, 3, 4])), 'forward-only': 'false' },
    mfu: { preset: pick(['palm-540b', 'gpt3-175b', 'megatron-1t', 'llama3-405b']), recompute: pick(['none', 'selective', 'full']) },
    step: { pp: String(pick([2, 4, 8])), 'stages-shown': String(pick([1, 2])), model: pick(['gpt3-175b', 'llama3-70b']) },
    planner: { gpus: String(pick([256, 512, 1024])), objective: pick(['mfu', 'step_time', 'memory']) },
    track: { view: pick(['speed', 'memory']), stack: pick(['all', 'pytorch', 'megatron-core']) },
    memory: { recompute: pick(['none', 'selective', 'full']), zero: pick(['0', '1', '2', '3']),
      schedule: pick(['gpipe', '1f1b', 'zb-h1']), stage: String(pick([2, 5, 7])) },
    run: { gpus: String(pick([4096, 16384, 65536])), 'checkpoint-mode': pick(['sync', 'async']),
      'failure-rate': pick(['0.00001', '0.00004']), price: pick(['1.5', '2', '3.2']) },
    nccl: { example: pick(['h200-2x8', 'a100-1x8', 'none']) },
  };
}

/**
 * What each figure a planner row loads into must then hold (attribute -> text), read from the row itself: the split's
 * own numbers, the bubble's stages and chunks capped at what it draws (32, 8).
 */
function rowInFigures(inputs, p) {
  const text = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));
  const run = { model: inputs.model, hardware: inputs.hardware, gpus: inputs.gpus };
  return {
    'parascope-axes': text({ ...run, tp: p.tp, pp: p.pp, ep: p.ep, 'global-batch': inputs.globalBatch }),
    'parascope-bubble': text({ stages: Math.min(32, p.pp), schedule: p.schedule, chunks: Math.min(8, p.vpp) }),
    'parascope-mfu': text({ preset: 'custom', ...run, tp: p.tp, pp: p.pp, vpp: p.vpp, 'microbatch-size': p.microbatch_size,
      'global-batch': inputs.globalBatch, recompute: p.recompute, schedule: p.schedule, zero: p.zero, cp: p.cp,
      ep: p.ep, 'sequence-parallel': p.sequence_parallel }),
    'parascope-step': text({ ...run, tp: p.tp, pp: p.pp, vpp: p.vpp, 'microbatch-size': p.microbatch_size,
      'global-batch': inputs.globalBatch, recompute: p.recompute, schedule: p.schedule, zero: p.zero, cp: p.cp,
      ep: p.ep, 'sequence-parallel': p.sequence_parallel, 'first-stage': 0 }),
    'parascope-memory': text({ ...run, tp: p.tp, pp: p.pp, vpp: p.vpp, cp: p.cp, ep: p.ep,
      'microbatch-size': p.microbatch_size, 'global-batch': inputs.globalBatch, recompute: p.recompute,
      schedule: p.schedule, zero: p.zero, 'sequence-parallel': p.sequence_parallel }),
    'parascope-run': text({ ...run, tp: p.tp, pp: p.pp, vpp: p.vpp, 'microbatch-size': p.microbatch_size,
      'global-batch': inputs.globalBatch, recompute: p.recompute, schedule: p.schedule, zero: p.zero, cp: p.cp,
      ep: p.ep, 'sequence-parallel': p.sequence_parallel }),
  };
}

const hashOf = (name, values) => Object.entries(values)
  .map(([k, v]) => `${name}.${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** The values of `state` that `wanted` names, and the figure's notes about its attributes or link values. */
function differences(name, wanted, { state, notes }) {
  const got = Object.fromEntries(Object.keys(wanted).map((k) => [k, state[k]]));
  return { name, got, notes: notes.filter((n) => n.startsWith('attr-')) };
}

// ---- the walk, once per engine ----

let site;
before(async () => {
  site = await serve({ port: 0, testPages: TEST_PAGES });
});
after(async () => {
  await new Promise((resolve) => site?.server.close(resolve));
});

for (const name of ENGINES) {
  describe(`${name}: the cross-figure walk (seed ${SEED})`, () => {
    let browser;
    let launchFailure;
    const states = drawStates(seededRandom(SEED));
    before(async () => {
      browser = await launchEngine(name).catch((err) => { launchFailure = err; });
    });
    after(async () => {
      await browser?.close();
    });

    /** Opens `path` on the site, runs `body(page)`, and fails on any console or page error there. */
    const onPage = async (path, body) => {
      if (!browser) throw launchFailure;
      const page = await browser.open(`${site.url}${path}`, SIZE);
      try {
        await body(page);
        assert.deepEqual(await page.problems(), [], `${name}: errors in the page`);
      } finally {
        await page.close();
      }
    };
    const start = async (page, tag, timeout = 60_000) => {
      await page.evaluate(scrollTo, tag);
      await page.waitFor(ready, [tag], { timeout, what: `${tag} to start` });
    };

    test('a seeded planner row loads into the axes, bubble, MFU, step, memory and whole-run figures, each with the row\'s values', async () => {
      await onPage('tests/planner.html', async (page) => {
        await start(page, 'parascope-planner', 120_000);
        const { inputs, rows } = await page.evaluate(plannerRows);
        const plan = planner.call(planRequest(inputs));
        assert.equal(rows, plan.results.length, 'one row per result of the engine\'s plan');
        const rank = 1 + Math.floor(seededRandom(SEED + 1)() * rows);
        const result = plan.results[rank - 1];
        const step = engine.call(stepRequestOf(inputs, result));
        await page.evaluate(loadRow, rank);
        await page.waitFor(loadedInto, [TARGETS], { what: `row ${rank} loaded into ${TARGETS.join(', ')}` });
        const expected = rowInFigures(inputs, result.parallel);
        for (const tag of TARGETS) {
          await page.waitFor(ready, [tag], { what: `${tag} to draw the row` });
          const seen = differences(tag, expected[tag], await page.evaluate(stateOf, tag));
          assert.deepEqual(seen, { name: tag, got: expected[tag], notes: [] }, `row ${rank} in ${tag}`);
        }
        assert.equal(await page.evaluate(shownValue, 'parascope-mfu', 'modelled-mfu'), String(step.mfu),
          `the MFU figure shows the engine's MFU for row ${rank}`);
        assert.equal(step.mfu, result.mfu, 'the plan\'s MFU is step\'s');
      });
    });

    for (const figure of FIGURES) {
      test(`${figure}'s permalink alone opens its seeded state (${hashOf(figure, states[figure])})`, async () => {
        await onPage(`#${hashOf(figure, states[figure])}`, async (page) => {
          const tag = `parascope-${figure}`;
          await start(page, tag);
          const seen = differences(tag, states[figure], await page.evaluate(stateOf, tag));
          assert.deepEqual(seen, { name: tag, got: states[figure], notes: [] });
          if (figure === 'bubble') {
            const s = states.bubble;
            const r = engine.call({ op: 'pipeline', schedule: s.schedule, stages: Number(s.stages),
              microbatches: Number(s.microbatches), include_ops: false });
            assert.equal(Number(await page.evaluate(shownValue, tag, 'efficiency')), r.efficiency);
          }
        });
      });
    }

    test('one hash with every figure opens each in its state, at the figure named first', async () => {
      const order = ['bubble', ...FIGURES.filter((f) => f !== 'bubble')]; // the bubble leads: not the page's first figure
      await onPage(`#${order.map((f) => hashOf(f, states[f])).join('&')}`, async (page) => {
        await page.waitFor(ready, ['parascope-bubble'], { what: 'the leading figure to start' });
        await page.waitFor(openedAt, ['parascope-bubble'], { what: 'the page to open at the bubble' }).catch(() => {});
        const top = await page.evaluate(topInWindow, 'parascope-bubble');
        assert.ok(top > -4 && top < 24, `the page opens at the figure named first (its top at ${top} px)`);
        for (const figure of FIGURES) {
          const tag = `parascope-${figure}`;
          await start(page, tag);
          const seen = differences(tag, states[figure], await page.evaluate(stateOf, tag));
          assert.deepEqual(seen, { name: tag, got: states[figure], notes: [] });
        }
      });
    });

    test('every figure\'s SVG export shows what its screen shows, in the seeded states', async () => {
      await onPage(`#${FIGURES.map((f) => hashOf(f, states[f])).join('&')}`, async (page) => {
        await page.evaluate(captureDownloads);
        for (const figure of FIGURES) {
          const tag = `parascope-${figure}`;
          await start(page, tag, 120_000);
          const screen = await page.evaluate(onScreen, tag);
          const count = await page.evaluate((win) => win.parascopeDownloads.length);
          assert.ok(await page.evaluate(clickDownload, tag, 'svg'), `${tag} has an SVG download`);
          const file = await page.waitFor(downloadAt, [count], { what: `${tag}'s SVG` });
          assert.match(file.name, new RegExp(`^parascope-${figure}-.+\\.svg$`));
          const drawn = await page.evaluate(drawnIn, file.text);
          assert.equal(drawn.error, false, `${tag}: the SVG is well-formed`);
          assert.ok(screen.texts.length > 3, `${tag} shows text`);
          assert.deepEqual(exportMismatches(screen, drawn), [], `${tag}'s export against its screen`);
        }
      });
    });
  });
}
