import { startSite, openPage, widgetReady } from '../browser/harness.mjs';
const site = await startSite();
try {
  const { page, context } = await openPage(site, '#memory.model=megatron-1t&memory.hardware=a100-80gb&memory.gpus=3072&memory.tp=8&memory.pp=64&memory.global-batch=3072', { width: 1000 });
  const w = await widgetReady(page, 'parascope-memory');
  const r = await w.evaluate((el) => {
    const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const eng = [], all = [], draw = [];
    for (let i = 0; i < 20; i += 1) {
      let t0 = performance.now();
      el.state.stage = 1 + (i % 2);
      el.askTimeline();
      eng.push(performance.now() - t0);
      t0 = performance.now();
      el.render();
      void el.shadowRoot.querySelector('.mem-plot').getBoundingClientRect();
      draw.push(performance.now() - t0);
    }
    const parts = {};
    const timeIt = (name, f) => { const a = []; for (let i = 0; i < 10; i += 1) { const t0 = performance.now(); f(); a.push(performance.now() - t0); } parts[name] = med(a); };
    timeIt('drawChart', () => el.drawChart());
    timeIt('drawLegend', () => el.drawLegend());
    timeIt('drawChart+layout', () => { el.drawChart(); el.shadowRoot.querySelector('.mem-plot').getBoundingClientRect(); });
    timeIt('render-no-chart', () => { const d = el.drawChart; el.drawChart = () => {}; el.render(); el.drawChart = d; el.shadowRoot.querySelector('.mem-plot').getBoundingClientRect(); });
    timeIt('announce', () => el.announce('x' + Math.random()));
    timeIt('stage.set', () => el.stage.set(1));
    timeIt('clientWidth', () => { el.out.headline.textContent += ''; return el.plot.clientWidth; });
    timeIt('layout after', () => { el.out.headline.textContent += ''; el.shadowRoot.querySelector('.mem-plot').getBoundingClientRect(); });
    return { engine: med(eng), render: med(draw), segs: el.timeline.segments.start.length, parts };
  });
  console.log(JSON.stringify(r));
  await context.close();
} finally { await site.close(); }
