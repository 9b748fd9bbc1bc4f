// The step figure's trace import at size (issue 29's budget: a 200 MB Kineto trace classified in ≤ 10 s in the
// worker, the page's frames still coming): writes a synthetic trace of ~200 MB (our own: ProfilerStep markers, launches
// and GPU kernels on three streams, in torch.profiler's format) to the system's temp folder once, hands it to the
// figure's file input, and times the worker from the file to the table; meanwhile the page's frames are timed and the
// browser's renderer processes' resident memory sampled. The reader's own memory is measured in node on the same file
// (tests/bench/kineto-memory.mjs: the same module streamed, beside the text read whole and JSON.parse'd).
// `node tests/bench/step-trace.bench.mjs` runs it alone.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openPage } from '../browser/harness.mjs';

const FILE = join(tmpdir(), 'parascope-kineto-200mb.json');
const TARGET_BYTES = 200e6;

/** One step's events (~100 kernels and their launches) from `t` µs, as JSON text lines. */
function stepText(step, t) {
  const lines = [
    `{"ph":"X","cat":"user_annotation","name":"ProfilerStep#${step}","pid":1,"tid":1,"ts":${t},"dur":10000}`,
  ];
  const names = [
    ['sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel', 7, 60],
    ['flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>', 7, 40],
    ['void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, float, float)', 7, 10],
    ['ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 20, 80],
  ];
  for (let k = 0; k < 100; k += 1) {
    const [name, stream, dur] = names[k % 4];
    const corr = step * 1000 + k;
    const launch = t + 10 + k * 90;
    lines.push(
      `{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":${launch},"dur":4,"args":{"External id":${corr},"cbid":211,"correlation":${corr}}}`,
      `{"ph":"X","cat":"kernel","name":"${name}","pid":0,"tid":${stream},"ts":${launch + 30},"dur":${dur},"args":{"External id":${corr},"queued":0,"device":0,"context":1,"stream":${stream},"correlation":${corr},"registers per thread":128,"shared memory":0,"grid":[132,1,1],"block":[384,1,1]}}`,
    );
  }
  return lines.join(',\n');
}

/** Writes the trace once (~200 MB); returns its path and size. */
async function traceFile() {
  if (existsSync(FILE) && statSync(FILE).size >= TARGET_BYTES) return { path: FILE, bytes: statSync(FILE).size };
  const out = createWriteStream(FILE);
  const write = (text) => (out.write(text) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await write('{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":64},"traceEvents":[\n');
  let bytes = 0;
  for (let step = 1; bytes < TARGET_BYTES; step += 1) {
    const text = `${step > 1 ? ',\n' : ''}${stepText(step, step * 10000)}`;
    bytes += text.length;
    await write(text);
  }
  await write('\n]}\n');
  await new Promise((r) => out.end(r));
  return { path: FILE, bytes: statSync(FILE).size };
}

/** Resident memory (MB) of every renderer process under this node process (the browser the harness started). */
function rendererRss() {
  const parent = new Map();
  const info = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      info.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid) => {
    for (let p = pid; p && p !== '0' && p !== '1'; p = parent.get(p)) if (p === String(process.pid)) return true;
    return false;
  };
  let kb = 0;
  for (const [pid, cmd] of info) {
    if (!cmd.includes('--type=renderer') || !mine(pid)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** The reader alone in a fresh node process on `path` (`whole`: the old way): kineto-memory.mjs's JSON line. */
function nodeReader(path, whole) {
  const script = new URL('./kineto-memory.mjs', import.meta.url).pathname;
  const args = ['--expose-gc', '--max-old-space-size=8192', script, path, ...(whole ? ['--whole'] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }));
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

export default async function stepTrace(site, report) {
  const file = await traceFile();
  const { page, context } = await openPage(site, 'embed.html#widget=step', { width: 1280, height: 900 });
  await page.waitForFunction(() => document.querySelector('parascope-step')?.hasAttribute('data-ready'));
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (now) => {
      window.__gaps.push(now - last);
      last = now;
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.locator('parascope-step [data-out="import"] summary').click(); // opened, the panel fills (trace-compare.js)
  await page.locator('parascope-step input[name="trace-file"]').waitFor({ state: 'attached' });
  const rssBefore = rendererRss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rendererRss())), 100);
  const t0 = Date.now();
  await page.locator('parascope-step input[name="trace-file"]').setInputFiles(file.path);
  await page.waitForFunction(
    () => !document.querySelector('parascope-step').shadowRoot.querySelector('[data-out="import-table"]').hidden,
    null,
    { timeout: 120_000, polling: 50 },
  );
  const ms = Date.now() - t0;
  clearInterval(sampler);
  const gaps = await page.evaluate(() => {
    window.__stop = true;
    return window.__gaps.slice(1);
  });
  const status = await page.evaluate(
    () => document.querySelector('parascope-step').shadowRoot.querySelector('[data-out="import-status"]').textContent,
  );
  report(`step: a ${Math.round(file.bytes / 1e6)} MB Kineto trace, file to table (worker: read, parse, classify)`, ms, 'ms', '≤ 10,000 ms');
  report('step: the page\'s frames meanwhile, time between frames p95', quantile(gaps, 0.95), 'ms');
  report('step: the page\'s frames meanwhile, longest gap', Math.max(...gaps), 'ms');
  report('step: the renderer processes\' resident memory meanwhile, peak above before', rssPeak - rssBefore, 'MB');
  console.log(`    ${status}`);
  await context.close();
  const streamed = nodeReader(file.path, false);
  report('step: the same reader alone in node, file to answer', streamed.ms, 'ms');
  report('step: the same reader alone in node, peak V8 heap in use above before', streamed.peak_heap_mb, 'MB');
  report('step: the same reader alone in node, peak resident size above before', streamed.peak_rss_mb, 'MB');
  if (process.env.PARASCOPE_BENCH_WHOLE) {
    const whole = nodeReader(file.path, true); // ~2 GB: only when asked
    report('step: the text read whole and JSON.parse\'d (the old way), peak V8 heap', whole.peak_heap_mb, 'MB');
    report('step: the text read whole and JSON.parse\'d (the old way), file to answer', whole.ms, 'ms');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startSite } = await import('../browser/harness.mjs');
  const site = await startSite();
  const report = (name, value, unit, target = '') =>
    console.log(`  ${name.padEnd(84)} ${value.toPrecision(4).padStart(10)} ${unit}${target ? `  target: ${target}` : ''}`);
  try {
    await stepTrace(site, report);
  } finally {
    await site.close();
  }
}
