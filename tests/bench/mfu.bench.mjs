// In-page speed of <parascope-mfu>: one tp slider step (input event -> step request to the engine -> bar, legend, tiles
// and memory redrawn -> layout), for the PaLM and Llama 3 405B presets; p95 and median over many steps.
import { openPage, widgetReady } from '../browser/harness.mjs';

export default async function mfu(site, report) {
  const { page, context } = await openPage(site);
  const widget = await widgetReady(page, 'parascope-mfu');
  // Two tp values per preset (offsets among the slider's offered stops, which hold only values the engine answers):
  // PaLM 12 <-> 24, the others 8 <-> 4. Megatron 1T is the heaviest: a 64-stage pipeline of 512 microbatches. Input
  // events only, as in a drag: the figure follows; the offers are renewed on release (not timed here).
  const presets = [['palm-540b', 'PaLM 540B', 2], ['llama3-405b', 'Llama 3 405B', -1], ['megatron-1t', 'Megatron 1T', -1]];
  for (const [id, label, offset] of presets) {
    await widget.locator(`input[name="preset"][value="${id}"]`).check();
    const t = await page.evaluate((offset) => {
      const el = document.querySelector('parascope-mfu');
      const slider = el.shadowRoot.querySelector('input[name="tp"]');
      const stops = [Number(slider.value), Number(slider.value) + offset];
      const times = [];
      for (let i = -4; i < 80; i += 1) { // 4 warm-up steps, then 80 timed
        const t0 = performance.now();
        slider.value = String(stops[i % 2]);
        slider.dispatchEvent(new Event('input'));
        void el.shadowRoot.querySelector('.step-bar').getBoundingClientRect(); // include style and layout
        if (i >= 0) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const refused = el.shadowRoot.querySelector('[data-note="engine"]');
      if (refused) throw new Error(`a timed step was refused: ${refused.textContent}`);
      return { p95: times[Math.floor(times.length * 0.95)], median: times[Math.floor(times.length / 2)] };
    }, offset);
    report(`mfu: ${label}, tp slider step (engine, redraw, layout), p95`, t.p95, 'ms', '< 16 ms');
    report(`mfu: ${label}, tp slider step, median`, t.median, 'ms');
  }
  await context.close();
}
