// The largest request each op accepts, built from the limits in engine/API.md ("Cost of the largest request").
// Shared by tests/js/worst-cases.test.mjs (memory: native and wasm) and tests/bench/worst-cases.mjs (time).

/** The documented limits these requests sit at. */
export const LIMITS = {
  pipelineOps: 1_000_000,   // ops timed (stages × microbatches × chunks × op kinds)
  objectOps: 50_000,        // ops listed as objects
  listedOps: 250_000,       // ops listed packed or binary
  assignments: 2 ** 22,     // moe_route tokens × top_k
  experts: 4096,
  ep: 256,
  traceGpus: 64,
  gpus: 1_000_000,          // collectives
  drawn: 64,
  planSplits: 20_000,       // plan: dp × tp × pp × cp × ep splits
  planShapes: 400_000,      // plan: splits × microbatch sizes × schedules
  planConfigurations: 6_000_000,
};

/** The most microbatches a schedule of `stages` × `kinds` op kinds may have within `ops`. */
const microbatches = (ops, stages, kinds) => Math.floor(ops / (stages * kinds));

/**
 * The planner's largest requests, answered by the planner's module (`module`): the most configurations a realistic
 * search has (DeepSeek-V3 on 2,048 H800: 2,946,439 of at most 6,000,000, 216,260 shapes) and the most splits
 * (27,720 GPUs with any tp: 12,800 of at most 20,000).
 */
function planCases(L) {
  const wide = { layers: 720, hidden: 92160, heads: 720, vocab: 1000, seq: 720720 };
  return [
    { name: `plan, DeepSeek-V3 on 2048 H800 (4.4 M of ${L.planConfigurations / 1e6} M configurations)`,
      module: 'parascope-planner', request: { op: 'plan', model: 'deepseek-v3', hardware: 'h800',
        cluster: { gpus: 2048 }, global_batch: 15360 } },
    { name: `plan, 27720 GPUs, any tp (12800 of ${L.planSplits} splits)`, module: 'parascope-planner',
      request: { op: 'plan', model: wide, hardware: 'h100-sxm', cluster: { gpus: 27720 }, global_batch: 2,
        max_tp: 10_000_000 } },
  ];
}

/**
 * config_import's largest: a config.json filling most of the 1 MiB request limit with 75,000 keys the importer does
 * not know, each listed back as unmapped (the planner's module answers it).
 */
function importCase() {
  const config = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32,
    vocab_size: 128256, max_position_embeddings: 8192 };
  for (let i = 0; i < 75_000; i += 1) config[`k${String(i).padStart(5, '0')}`] = 0;
  return { name: 'config_import, 75,000 unknown keys', module: 'parascope-planner',
    request: { op: 'config_import', format: 'huggingface', text: JSON.stringify(config) } };
}

/**
 * nccl_fit's largest: a paste filling most of the 1 MiB request limit, 20 all_reduce tables of the 1,024 rows one
 * table may hold (each fitted over every split into three size ranges: O(rows²)). The planner's module answers it.
 */
function ncclCase() {
  const header = '#  size  count  type  redop  root  time  algbw  busbw  #wrong\n';
  let table = header;
  for (let i = 1; i <= 1024; i += 1) {
    const bytes = i * 1024;
    const us = 10 + bytes / 1e5;
    const algbw = bytes / us / 1e3;
    table += `${bytes} 1 float sum -1 ${us.toFixed(2)} ${algbw.toFixed(2)} ${(algbw * 1.875).toFixed(2)} 0\n`;
  }
  return { name: 'nccl_fit, 20 tables of 1,024 rows', module: 'parascope-planner',
    request: { op: 'nccl_fit', text: table.repeat(20), gpus: 16, gpus_per_node: 8 } };
}

/**
 * The Megatron and torchtitan importers' largest: a launch line of 60,000 flags and a TOML of 60,000 keys the importers
 * do not know (about 1 MB each), each listed back as unmapped.
 */
function launchImportCases() {
  const head = '--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --vocab-size 256 --bf16';
  let flags = head;
  for (let i = 0; i < 60_000; i += 1) flags += ` --k${String(i).padStart(5, '0')} 1`;
  let toml = '[model]\nname = "llama3"\nflavor = "8B"\n[training]\n';
  for (let i = 0; i < 60_000; i += 1) toml += `k${String(i).padStart(5, '0')} = 1\n`;
  return [
    { name: 'config_import megatron, 60,000 unknown flags', module: 'parascope-planner',
      request: { op: 'config_import', format: 'megatron', text: flags } },
    { name: 'config_import torchtitan, 60,000 unknown keys', module: 'parascope-planner',
      request: { op: 'config_import', format: 'torchtitan', text: toml } },
  ];
}

/** [{ name, request, module? }]: one or more worst cases per op; `module` names the wasm module that answers it. */
export function worstCases() {
  const L = LIMITS;
  const hw = 'h100-sxm';
  const thin = { layers: 10000, hidden: 64, heads: 1, vocab: 1, seq: 1 };  // 10^4 layers: pp up to 1024
  const zbh2 = { pp: 1024, global_batch: microbatches(L.pipelineOps, 1024, 3), schedule: 'zb-h2' };
  const cases = [
    { name: 'version', request: { op: 'version' } },
    { name: 'presets', request: { op: 'presets' } },
    { name: 'mfu, largest model shape', request: { op: 'mfu', model: { layers: 10000, hidden: 1_000_000, heads: 1000,
      vocab: 100_000_000, seq: 100_000_000, experts: 1_000_000, top_k: 1000 }, hardware: hw, gpus: 10_000_000,
      tokens_per_second: 1e18 } },
    { name: `allreduce ring trace, ${L.traceGpus} GPUs`, request: { op: 'allreduce', algorithm: 'ring',
      gpus: L.traceGpus, bytes: 1e18, bandwidth: 1, latency: 1, trace: true } },
    { name: `allreduce hierarchical, ${L.gpus} GPUs`, request: { op: 'allreduce', algorithm: 'hierarchical',
      gpus: L.gpus, bytes: 1e18, link: hw } },
    { name: `alltoall, ${L.gpus} GPUs`, request: { op: 'alltoall', gpus: L.gpus, bytes: 1e18, bandwidth: 1, latency: 1 } },
    { name: `step, zb-h2 pp 1024 (${1024 * zbh2.global_batch * 3} ops, simulated twice)`,
      request: { op: 'step', model: thin, hardware: hw, cluster: { gpus: 1024 }, parallel: zbh2 } },
    { name: 'step, dualpipe pp 408, 816 microbatches', request: { op: 'step', model: thin, hardware: hw,
      cluster: { gpus: 408 }, parallel: { pp: 408, global_batch: 816, schedule: 'dualpipe' } } },
    { name: 'step, interleaved pp 1024 × vpp 9', request: { op: 'step', model: thin, hardware: hw,
      cluster: { gpus: 1024 }, parallel: { pp: 1024, vpp: 9, global_batch: microbatches(L.pipelineOps, 1024 * 9, 2) } } },
    { name: 'step_check, zb-h2 pp 1024', request: { op: 'step_check', model: thin, hardware: hw,
      cluster: { gpus: 1024 }, parallel: zbh2 } },
    { name: 'traffic, zb-h2 pp 1024', request: { op: 'traffic', model: thin, hardware: hw, cluster: { gpus: 1024 },
      parallel: zbh2 } },
    { name: `placement, 2^23 GPUs, ${L.drawn} drawn`, request: { op: 'placement', model: 'deepseek-v3', hardware: hw,
      cluster: { gpus: 2 ** 23 }, parallel: { tp: 8, pp: 16, ep: 256, global_batch: 2 ** 16 }, drawn: L.drawn } },
  ];
  for (const schedule of ['zb-h1', 'zb-h2', 'interleaved']) {
    const stages = 1000, kinds = schedule === 'interleaved' ? 2 : 3;
    const chunks = schedule === 'interleaved' ? { chunks: 2 } : {};
    const per = stages * kinds * (chunks.chunks ?? 1);
    const m = (ops) => {  // interleaved: fewer microbatches than stages keeps one short group
      const most = Math.floor(ops / per);
      return schedule === 'interleaved' ? Math.min(most, stages) : most;
    };
    const base = { op: 'pipeline', schedule, stages, ...chunks };
    cases.push(
      { name: `pipeline ${schedule}, objects`, request: { ...base, microbatches: m(L.objectOps) } },
      { name: `pipeline ${schedule}, packed`, request: { ...base, microbatches: m(L.listedOps), ops_format: 'packed' } },
      { name: `pipeline ${schedule}, binary`, request: { ...base, microbatches: m(L.listedOps), ops_format: 'binary' } },
      { name: `pipeline ${schedule}, metrics only`, request: { ...base, microbatches: m(L.pipelineOps), include_ops: false } },
    );
  }
  for (const topK of [L.experts, 64, 1]) {
    cases.push({ name: `moe_route, top_k ${topK} of ${L.experts} experts, skew 10, ep ${L.ep}`, request: {
      op: 'moe_route', tokens: L.assignments / topK, experts: L.experts, top_k: topK, skew: 10, ep: L.ep,
      capacity_factor: 1, hidden: 1_000_000, bandwidth: 1, latency: 1 } });
  }
  // memory_timeline: 250,000 ops recorded, 20,000 of them on one stage (op_memory_timeline.cpp); context_ring: cp 64.
  for (const schedule of ['1f1b', 'zb-h1']) {
    const kinds = schedule === '1f1b' ? 2 : 3;
    cases.push({ name: `memory_timeline, ${schedule} pp 10, ${Math.floor(20_000 / kinds)} microbatches`, request: {
      op: 'memory_timeline', model: thin, hardware: hw, cluster: { gpus: 10 },
      parallel: { pp: 10, global_batch: Math.floor(20_000 / kinds), schedule } } });
  }
  cases.push({ name: 'context_ring, cp 64', request: { op: 'context_ring', model: { ...thin, layers: 2, seq: 128 },
    hardware: hw, cluster: { gpus: 64 }, parallel: { cp: 64, global_batch: 1 } } });
  cases.push({ name: 'run, zb-h2 pp 1024 (the step\'s largest)', module: 'parascope-planner',
    request: { op: 'run', model: thin, hardware: hw, cluster: { gpus: 1024 }, parallel: zbh2 } });
  cases.push(...planCases(L), importCase(), ...launchImportCases(), ncclCase());
  return cases;
}
