// <parascope-memory> at its heaviest, Megatron 1T on 3,072 A100s (tp 8, pp 64, 512 microbatches a pipeline: the
// 64 x 512 of issue 30): real key presses on its stage slider, each an engine memory_timeline and the chart redrawn,
// traced as the bubble's are (tests/bench/press-cost.mjs: key time stamp to the end of the frame that draws it, less the
// idle wait for vsync); memory_timeline alone in the page; and each select's move (change event -> memory_timeline ->
// redraw -> layout) timed in the page, the two values of each select taken in turn. p95 and median; the budget is one
// frame, 16 ms.
import { openPage, widgetReady } from '../browser/harness.mjs';
import { pressCost } from './press-cost.mjs';
import { quantile, timePresses } from './reader.mjs';

export const HEAVY =
  '#memory.model=megatron-1t&memory.hardware=a100-80gb&memory.gpus=3072&memory.tp=8&memory.pp=64&memory.global-batch=3072';

/** Each select's two values timed back and forth: [name, value a, value b]. */
const MOVES = [
  ['recompute', 'none', 'full'],
  ['zero', '1', '2'],
  ['schedule', '1f1b', 'gpipe'],
  ['microbatch-size', '1', '2'],
];

/** Each traced ← → press's cost (ms) on the stage slider of the figure opened at `path` (compare.mjs pairs them). */
export async function stageCosts(site, path, n = 60) {
  const { page, context } = await openPage(site, path, { width: 1000 });
  try {
    const widget = await widgetReady(page, 'parascope-memory');
    await widget.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const cost = pressCost();
    await timePresses(page, widget.locator('input[name="stage"]'), n, cost.hooks);
    return cost.ms();
  } finally {
    await context.close();
  }
}

/** The stage slider's ← → presses on the figure opened at `path`, traced; reported as `label`. */
async function stagePresses(site, report, path, label) {
  const costs = await stageCosts(site, path);
  report(`memory: stage slider key press -> its frame, traced (${label}), p95 of ${costs.length}`, quantile(costs, 0.95), 'ms', '≤ 16 ms');
  report(`memory: the same, median`, quantile(costs, 0.5), 'ms');
}

export default async function memory(site, report) {
  await stagePresses(site, report, '#memory', 'the starting run, 8 x 32');
  await stagePresses(site, report, HEAVY, '64 x 512');
  const { page, context } = await openPage(site, HEAVY, { width: 1000 });
  try {
    await widgetReady(page, 'parascope-memory');
    // The engine alone in the page (wasm call and the answer read), on the figure's own request: a new schedule each
    // call (full recomputation and none in turn: every op's time changes) and the stages walked (the op keeps the
    // schedule it last laid out, engine/API.md). Issue 30's budget for the time axis: 20 ms.
    const engine = await page.evaluate(() => {
      const el = document.querySelector('parascope-memory');
      const request = el.exportFigure().data.request;
      const time = (next) => {
        const times = [];
        for (let i = -2; i < 40; i += 1) {
          const t0 = performance.now();
          el.engine.call(next(i));
          if (i >= 0) times.push(performance.now() - t0);
        }
        times.sort((x, y) => x - y);
        return { p95: times[Math.floor(times.length * 0.95)], median: times[Math.floor(times.length / 2)] };
      };
      const recompute = (i) => ({ ...request, parallel: { ...request.parallel, recompute: i % 2 ? 'full' : 'none' } });
      return { fresh: time(recompute), walked: time((i) => ({ ...request, stage: (i + 64) % 64 })) };
    });
    report('memory: memory_timeline 64 x 512 in the page, a new schedule each call, p95', engine.fresh.p95, 'ms', '≤ 20 ms');
    report('memory: the same, median', engine.fresh.median, 'ms');
    report('memory: memory_timeline 64 x 512 in the page, stages walked, p95', engine.walked.p95, 'ms');
    report('memory: the same, median', engine.walked.median, 'ms');
    for (const [name, a, b] of MOVES) {
      const t = await page.evaluate(
        ([name, a, b]) => {
          const el = document.querySelector('parascope-memory');
          const select = el.shadowRoot.querySelector(`select[name="${name}"]`);
          const times = [];
          for (let i = -2; i < 30; i += 1) {
            const t0 = performance.now();
            select.value = i % 2 ? a : b;
            select.dispatchEvent(new Event('change'));
            void el.shadowRoot.querySelector('.mem-plot').getBoundingClientRect(); // include style and layout
            if (i >= 0) times.push(performance.now() - t0);
          }
          const refused = !el.shadowRoot.querySelector('[data-out="problem"]').hidden;
          if (refused) throw new Error(`a timed move was refused: ${name}`);
          times.sort((x, y) => x - y);
          return { p95: times[Math.floor(times.length * 0.95)], median: times[Math.floor(times.length / 2)] };
        },
        [name, a, b],
      );
      report(`memory: ${name} ${a} <-> ${b} (engine, redraw, layout), p95`, t.p95, 'ms', '≤ 16 ms');
      report(`memory: ${name}, median`, t.median, 'ms');
    }
  } finally {
    await context.close();
  }
}
