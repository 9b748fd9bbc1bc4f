// The trace comparison in words and rows: a measured step (model/kineto.js) beside the engine's step for the GPU
// drawn, split the same way (compute, communication hidden and exposed, copies, idle), each as seconds and a share of
// its own step; the worker's progress and refusals for readers. Every engine number is a field of its answer. Pure.
import { percent, seconds } from '../../../lib/format.js';

/** The rows compared, in order: [key, label]. */
export const ROWS = [
  ['compute', 'compute (kernels on the GPU)'],
  ['exposed', 'communication, exposed (nothing else runs)'],
  ['overlapped', 'communication hidden under compute'],
  ['memcpy', 'memory copies, exposed'],
  ['idle', 'idle (no kernel at all)'],
];

/**
 * The engine's step for GPU `g` (gpuLanes) in the same rows (s): compute is its compute stream's exposed kernels
 * (GEMMs, element-wise, the optimizer), exposed its collectives' exposed tails, hidden the rest of each collective's
 * seconds (every TP/DP/EP/CP event's length less its exposed part), idle its idle seconds and its waits on the
 * slowest stage; the engine draws no copies. Their sum but the hidden part is the step time.
 */
export function engineRows(g, head) {
  const e = g.exposed;
  const ev = g.events;
  let hidden = 0;
  for (let i = 0; i < ev.start.length; i += 1) {
    const p = head.pieces[ev.piece[i]];
    if (['tp', 'dp', 'ep', 'cp'].includes(p.id)) hidden += ev.end[i] - ev.start[i] - ev.exposed[i];
  }
  return {
    span: head.step_time,
    compute: e.compute + e.memory_bound + e.optimizer,
    exposed: e.tp_comm + e.ep_comm + e.cp_comm + e.dp_comm,
    overlapped: hidden,
    memcpy: null,
    idle: e.idle + e.other,
  };
}

/** The table: [{ key, label, trace: { s, share }, engine: { s, share } | null }]. */
export function comparisonRows(summary, engine) {
  const cell = (s, span) => (s === null || s === undefined ? null : { s, text: seconds(s), share: percent(s / span) });
  return ROWS.map(([key, label]) => ({
    key,
    label,
    trace: cell(summary.breakdown[key], summary.span),
    engine: engine ? cell(engine[key], engine.span) : null,
  }));
}

/** "ProfilerStep#552 of rank 0 (of 128): 602 kernels over 616 ms of GPU time." */
export function summarySentence(s) {
  const who = s.rank === null ? '' : ` of rank ${s.rank}${s.world_size ? ` (of ${s.world_size})` : ''}`;
  const which = s.step ? `${s.step.name}${who}` : `The whole trace${who} (it has no ProfilerStep markers)`;
  return `${which}: ${s.kernels} GPU kernels and copies over ${seconds(s.span)} of GPU time, first kernel to last.`;
}

const KIND_WORDS = {
  gemm: 'GEMM',
  attention: 'attention',
  elementwise: 'element-wise',
  other: 'other compute',
  nccl: 'NCCL',
  memcpy: 'copies',
};

/** One line per stream: "stream 7: 526 kernels; GEMM 76.2 ms, element-wise 6.7 ms, …". */
export function streamLines(s) {
  return s.streams.map((st) => {
    const parts = Object.entries(st.seconds)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${KIND_WORDS[k]} ${seconds(v)}`);
    return `stream ${st.stream}: ${st.count} ${st.count === 1 ? 'kernel' : 'kernels'}; ${parts.join(', ')}`;
  });
}

/** "NCCL by collective: SendRecv 201 ms, AllReduce 12 ms." or '' when the step ran none. */
export function collectiveLine(s) {
  const parts = Object.entries(s.collectives)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${seconds(v)}`);
  return parts.length
    ? `NCCL by collective (summed kernel time): ${parts.join(', ')}.`
    : 'No NCCL kernel ran in this step.';
}

/** Progress in words: "Read 48 % of 210 MB". */
export function progressText(read, total) {
  return `Reading the trace: ${total > 0 ? percent(read / total, 0) : '…'} of ${Math.round(total / 1e6)} MB`;
}

/** A refusal for readers. */
export function importErrorText(code) {
  return (
    {
      not_json:
        'This file is not a JSON trace (nor a gzipped one): export it with torch.profiler’s export_chrome_trace or on_trace_ready.',
      no_events: 'This JSON has no traceEvents list, so it is not a PyTorch profiler trace.',
      no_gpu_events:
        'This trace has no GPU kernels in the step picked: it was recorded without CUDA activities, or the step ran none.',
      unreadable: 'The file could not be read (it may be truncated, or not gzip although it starts like it).',
      no_worker:
        'This browser cannot read traces in the background (no module Web Workers), so the file was not opened.',
    }[code] ?? 'The trace could not be read.'
  );
}
