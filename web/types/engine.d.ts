// Types of the engine's JavaScript API (lib/engine.js): loadEngine, EngineError, and the request and response of every
// op. Units as in engine/API.md: bytes, bytes/s one direction per GPU, seconds, FLOPs, fractions 0–1.

/** Error codes the engine answers with (engine/API.md, "Errors"). */
export type EngineErrorCode =
  | 'invalid_json' | 'invalid_request' | 'missing_field' | 'wrong_type' | 'not_integer' | 'not_finite'
  | 'out_of_range' | 'invalid_value' | 'unknown_op' | 'unknown_field' | 'unknown_preset' | 'conflicting_fields'
  | 'inconsistent' | 'too_large' | 'internal_error';

/** A refused request: the engine's code, its message, and the dotted path of the field at fault (or null). */
export class EngineError extends Error {
  constructor(error: { code: EngineErrorCode | string; message: string; field: string | null });
  readonly code: EngineErrorCode;
  readonly field: string | null;
}

// The engine's lists (hardware and model ids, schedules, modes, stages, objectives) as unions: generated when the
// site is built from the engine's own presets answer (scripts/presets-types.mjs), never written here by hand.
import type { Attention, Fp8Recipe, HardwareId, ModelId, PlanObjective, Precision, Recompute, ScheduleId, Software,
  ZeroStage } from './presets.js';
export type { Attention, Fp8Recipe, HardwareId, ModelId, PlanObjective, Precision, Recompute, ScheduleId, Software,
  ZeroStage } from './presets.js';
export type LinkKind = 'intra' | 'inter';

/** A transformer's shape (engine/API.md, "Model shape object"). */
export interface ModelShape {
  layers: number; hidden: number; heads: number; vocab: number; seq: number;
  kv_heads?: number; head_dim?: number; ffn?: number; activation?: 'gelu' | 'swiglu';
  experts?: number; top_k?: number; expert_ffn?: number; shared_experts?: number; dense_layers?: number;
  q_lora_rank?: number; kv_lora_rank?: number; rope_head_dim?: number;
  bias?: boolean; norm?: string; position_embedding?: string; tied_embeddings?: boolean;
  id?: string; name?: string; source?: string; published_params?: number;
}

/** An accelerator: bandwidths in bytes/s one direction per GPU, latencies in seconds per collective step. */
export interface Hardware {
  id?: string; name?: string; kind?: 'gpu' | 'tpu';
  peak_flops: number; memory_bytes?: number; memory_bandwidth?: number; gpus_per_node?: number;
  intra_link?: string; intra_bandwidth?: number; intra_latency?: number;
  inter_link?: string; inter_bandwidth?: number; inter_latency?: number;
  sources?: Record<string, string>;
}

export interface LinkUsed { name: string; bandwidth: number; latency: number }

export interface VersionRequest { op: 'version' }
export interface VersionResponse { name: 'parascope'; version: string; max_request_bytes: number }

export interface PresetsRequest { op: 'presets' }
export interface PresetsResponse {
  hardware: Array<Hardware & { id: HardwareId; name: string }>;
  models: Array<ModelShape & { id: ModelId; name: string; derived: { params_total: number; params_active: number; params_flops: number } }>;
  /** the schedule registry, in the order readers are shown them */
  schedules: Array<{ id: ScheduleId; label: string; splits_backward: boolean; interleaves: boolean; forward_only: boolean; source: string }>;
  recompute: Recompute[]; zero: ZeroStage[]; precisions: Precision[]; fp8_recipes: Fp8Recipe[]; attention: Attention[];
  software: Software[]; plan_objectives: PlanObjective[];
}

export interface MfuRequest {
  op: 'mfu'; model: ModelId | ModelShape; hardware: HardwareId | Hardware; gpus: number;
  tokens_per_second?: number; step_time?: number; tokens_per_step?: number;
  attention?: Attention; recompute?: Recompute;
}
export interface MfuResponse {
  params: number; params_total: number; flops_per_token: number; hardware_flops_per_token: number;
  tokens_per_second: number; achieved_flops: number; peak_flops: number; mfu: number; hfu: number; formula: string;
}

export interface CollectiveRequest {
  op: 'allreduce' | 'allgather' | 'reducescatter' | 'alltoall';
  algorithm?: 'ring' | 'tree' | 'hierarchical' | 'pairwise';
  gpus: number; bytes: number;
  link?: HardwareId; link_kind?: LinkKind; bandwidth?: number; latency?: number;
  intra_bandwidth?: number; intra_latency?: number; inter_bandwidth?: number; inter_latency?: number;
  gpus_per_node?: number; trace?: boolean;
}
export interface RingRound {
  phase: 'scatter-reduce' | 'all-gather';
  transfers: Array<{ from: number; to: number; chunk: number }>;
  buffers: number[][];
}
export interface CollectiveResponse {
  time: number; algbw: number; busbw: number; bytes_sent_per_gpu: number; steps: number; algorithm: string;
  formula: string; link?: LinkUsed; intra?: LinkUsed; inter?: LinkUsed; gpus_per_node?: number;
  /** with trace: true (ring all-reduce) */
  chunk_bytes?: number; initial?: number[][]; rounds?: RingRound[];
}

export interface PipelineRequest {
  op: 'pipeline'; schedule: ScheduleId; stages: number; microbatches: number; chunks?: number;
  forward_only?: boolean; times?: { f?: number; b?: number; w?: number; comm?: number };
  include_ops?: boolean; check_only?: boolean; bubble_kernel_resident?: boolean;
  ops_format?: 'objects' | 'packed' | 'binary';
}
export interface PipelineOp { stage: number; microbatch: number; kind: 'F' | 'B' | 'W'; chunk: number; start: number; end: number }
export interface PipelineResponse {
  ops?: PipelineOp[] | { format: 'binary'; count: number; per_stage: number[]; columns: string[] } | Record<string, unknown>;
  makespan: number; busy: number[]; useful_time: number; efficiency: number; bubble_fraction: number;
  steady_bubble_fraction: number; dashboard_utilization: number; peak_activations: number[];
  chunk_model_fraction: number; critical_sends: number | null;
  schedule: ScheduleId; stages: number; microbatches: number; chunks: number; forward_only: boolean;
  times: { f: number; b: number; w: number; comm: number };
  closed_form: { formula: string; substituted: string; value: number | null; measure: string; condition: string; source: string };
  /** with check_only: true */
  valid?: true;
}

export interface Cluster {
  gpus: number; gpus_per_node?: number; intra_bandwidth?: number; inter_bandwidth?: number;
  intra_latency?: number; inter_latency?: number; intra_link?: string; inter_link?: string;
  /** what the cluster measured: nccl-tests all_reduce_perf rows (busbw in bytes/s) */
  nccl_tests?: Array<{ gpus: number; bytes: number; busbw: number }>;
}
export interface Parallel {
  tp?: number; pp?: number; cp?: number; ep?: number; dp?: number; vpp?: number; microbatch_size?: number;
  global_batch: number; schedule?: ScheduleId; recompute?: Recompute; sequence_parallel?: boolean; zero?: ZeroStage;
  /** the embedding / the loss counted as one pipeline layer (Megatron-Core's account-for options; pp ≥ 2) */
  account_for_embedding?: boolean; account_for_loss?: boolean;
}
/** overrides of the kernel, memory and overlap defaults (engine/API.md, "efficiency defaults") */
export interface EfficiencyOverrides {
  /** the fused attention kernel by name: its measured efficiency on the chip (or give flash_attention_efficiency) */
  attention_kernel?: 'fused' | 'fa2' | 'triton';
  [field: string]: number | boolean | string | undefined;
}
export interface RunRequest {
  model: ModelId | ModelShape; hardware: HardwareId | Hardware; cluster: Cluster; parallel: Parallel;
  attention?: Attention; efficiency?: EfficiencyOverrides;
}
export interface AxisTraffic {
  axis: 'data' | 'tensor' | 'pipeline' | 'expert' | 'context'; splits: string; collective: string; count: number;
  bytes_per_gpu: number; link: LinkKind; link_name: string; time: number; hidden_fraction: number;
}
export interface StepRequest extends RunRequest { op: 'step' }
export interface StepResponse {
  step_time: number; tokens_per_second: number; mfu: number; hfu: number;
  flops_per_token: number; hardware_flops_per_token: number; formula: string;
  breakdown: { compute: number; memory_bound: number; tp_comm: number; cp_comm: number; pp_comm: number; dp_comm: number;
    ep_comm: number; bubble: number; optimizer: number; other: number };
  compute_split: { useful_at_peak: number; recompute_at_peak: number; kernel_inefficiency: number };
  dashboard_utilization: number;
  /** bytes on the most loaded stage at its peak; total is the sum of the parts, framework_reserved = total − runtime */
  memory_per_gpu: { weights: number; gradients: number; optimizer_states: number; activations: number;
    transient: number; allocator_reserve: number; runtime: number; total: number; framework_reserved: number;
    peak_moment: 'loss' | 'layer backward'; note?: string };
  memory_capacity: number; fits: boolean; microbatches: number; pipeline_makespan: number;
  /** the 10th–90th percentile of measured / predicted over held-out published runs, applied to this answer */
  error_band: { basis: Software | 'all stacks' | `all stacks and ${Software}`; held_out_sources: number;
    held_out_runs: number; tokens_per_second: [number, number]; mfu: [number, number]; step_time: [number, number];
    median_measured_over_predicted: number;
    /** only when none of the stack's held-out runs ran on this hardware (its id, or "custom"): the band is widened */
    untried_chip?: string;
    memory_total: { range: [number, number]; held_out_runs: number; median_measured_over_predicted: number;
      /** how often `fits` matched what happened on the published runs */
      fits_record: { ran: number; ran_called_fits: number; out_of_memory: number; out_of_memory_called_no_fit: number } };
    /** only when the cluster spans nodes without cluster.nccl_tests: the same step on a network at half its rate */
    network?: { inter_bandwidth_fraction: number; tokens_per_second: number; mfu: number; step_time: number;
      why: string } };
  /** only with cluster.nccl_tests: the fit the groups crossing nodes rode (bytes/s, seconds per ring step) */
  network_fit?: Array<{ gpus: number; bandwidth: number; latency: number }>;
  parallel: Required<Omit<Parallel, 'recompute'>> & { recompute?: Recompute };
  axes: AxisTraffic[];
}
export interface TrafficRequest extends RunRequest { op: 'traffic' }
export interface TrafficResponse { axes: AxisTraffic[]; step_time: number }

export interface PlacementRequest extends RunRequest { op: 'placement'; drawn?: number }
export interface PlacementResponse {
  gpus: number; gpus_per_node: number; nodes: number; drawn: number;
  ranks: Array<{ rank: number; node: number; tp: number; cp: number; dp: number; pp: number; ep: number;
    heads: [number, number]; layers: Array<[number, number]>; experts?: [number, number] }>;
  axes: Array<{ axis: string; size: number; stride: number; members_per_node: number; link: LinkKind; link_name: string;
    groups: number[][] }>;
}

export interface MoeRouteRequest {
  op: 'moe_route'; tokens: number; experts: number; top_k: number; ep?: number; skew?: number;
  capacity_factor?: number; seed?: number; hidden?: number; bytes_per_element?: number; bytes_per_token?: number;
  hardware?: HardwareId | Hardware; link_kind?: LinkKind; ranks_per_node?: number; bandwidth?: number; latency?: number;
}
export interface MoeRouteResponse {
  expert_load: number[]; kept_load: number[]; send_matrix: number[][]; rank_load: number[]; max_over_mean: number;
  capacity: number; dropped: number; hot_expert: number; hot_rank: number; hot_rank_bytes: number;
  time: number; balanced_time: number; bytes_per_token: number; link: LinkUsed; router: unknown;
  intra_link?: LinkUsed; ranks_per_node?: number;
}


export interface PlanRequest {
  op: 'plan'; model: ModelId | ModelShape; hardware: HardwareId | Hardware; cluster: Cluster;
  /** sequences per optimizer step */
  global_batch: number;
  /** allowed values of each knob (default: every schedule, every recompute mode, ZeRO 0-3, bf16 only) */
  schedules?: ScheduleId[]; recompute?: Recompute[]; zero?: ZeroStage[]; precision?: Precision[];
  sequence_parallel?: boolean[];
  /** largest tensor-parallel size (default: cluster.gpus_per_node, tp within a node) */
  max_tp?: number;
  /** largest context-parallel size (default: any; 1 for deepspeed and megatron-2021) */
  max_cp?: number;
  /** results kept, 1-100 (default 10) */
  top_k?: number;
  objective?: PlanObjective; software?: Software;
}
/** One planned configuration: `parallel` (with `precision` beside it) fed to `step` gives these numbers exactly. */
export interface PlanCandidate {
  parallel: { dp: number; tp: number; pp: number; cp: number; ep: number; vpp: number; microbatch_size: number;
    global_batch: number; schedule: ScheduleId; recompute: Recompute; sequence_parallel: boolean; zero: ZeroStage };
  precision: Precision;
  /** fraction 0-1, seconds per step, bytes per GPU (the most loaded stage), whether that fits the GPU's memory */
  mfu: number; step_time: number; memory_per_gpu: number; fits: boolean;
}
/** A ranked result, read through the error band. */
export interface PlanResult extends PlanCandidate {
  /** MFU at the 10th and 90th percentile of the held-out measured / predicted */
  mfu_range: [number, number];
  /** memory within the memory band of the GPU's capacity: it may not start (ranked after those that surely fit) */
  memory_tight: boolean;
  /** MFU within the band's half-width of the best: the engine cannot tell them apart */
  tie_with_best: boolean;
}
export interface PlanResponse {
  /** the top_k configurations that fit, best first under the objective */
  results: PlanResult[];
  /** configurations timed by the cost model */
  evaluated: number;
  /** configurations ruled out before timing, by reason (evaluated + all of these = the progress total) */
  rejected: { does_not_divide: number; too_few_layers: number; schedule_rule: number; out_of_memory: number;
    cannot_win: number };
  /** fitting configurations no other beats on both step time and memory per GPU, by step time */
  pareto: PlanCandidate[];
  /** up to 2,000 evaluated configurations that keep the cloud's shape (the best of each MFU × memory cell), fitting or not */
  scatter: PlanCandidate[];
  /** seconds spent searching */
  elapsed: number;
  /** only when results is empty: why, and (when something was timed) the configuration needing the least memory */
  why_empty?: string; closest_miss?: PlanCandidate;
}
/** engine.planSearch's progress: configurations considered so far (evaluated or rejected) of the total. */
export interface PlanProgress { done: boolean; evaluated: number; total: number }
/** A plan request searched a slice at a time. */
export interface PlanSearch {
  /** Considers up to n more configurations; throws EngineError when the request is refused. */
  advance(n: number): PlanProgress;
  /** The plan op's answer (the search is finished first if needed); throws EngineError when the request is refused. */
  result(): PlanResponse;
  /** Frees the search's memory in the engine; call it when done or abandoned (a second call does nothing). */
  dispose(): void;
}

/** The formats config_import reads. */
export type ImportFormat = 'huggingface' | 'megatron' | 'nemo' | 'torchtitan' | 'deepspeed';
/** A configuration file read into a step request (engine/API.md, config_import): planner's engine only. */
export interface ConfigImportRequest {
  op: 'config_import'; format: ImportFormat;
  /** the file's text (a config.json, a Megatron-LM launch script or command line, a Megatron-Bridge recipe YAML, a
   * torchtitan job TOML, a DeepSpeed JSON) */
  text: string;
  /** training sequence length in tokens (default: the file's max_position_embeddings, listed in `assumed`) */
  seq?: number;
  /** megatron and nemo: the vocabulary when the file leaves it to the tokenizer (no --vocab-size / model.vocab_size) */
  vocab?: number;
  /** the step request's other fields (default: 8 H100s, global batch 8) */
  base?: Omit<StepRequest, 'op' | 'model'>;
}
/** Each setting named with its reason. */
export interface ImportNote { key: string; why: string }
export interface ConfigImportResponse {
  format: ImportFormat; request: StepRequest;
  unmapped: ImportNote[]; ignored: ImportNote[]; assumed: Array<{ field: string; why: string }>;
}
/** A step request as the settings to launch it with (engine/API.md, config_export): planner's engine only. */
export interface ConfigExportRequest { op: 'config_export'; format: 'megatron' | 'nemo' | 'torchtitan' | 'deepspeed'; request: StepRequest }
export interface ConfigExportResponse {
  format: 'megatron' | 'nemo' | 'torchtitan' | 'deepspeed';
  /** megatron: the torchrun line with the arguments; nemo: Megatron-Bridge YAML overrides; torchtitan: the job TOML;
   * deepspeed: the config JSON */
  text: string;
  /** megatron only: the arguments one by one ("--num-layers 32") */
  args?: string[];
  /** what the target cannot express */
  notes: Array<{ setting: string; why: string }>;
}

/** The whole run from one step (engine/API.md, run): planner's engine only. Every run field has a default. */
export interface RunOpRequest extends RunRequest {
  op: 'run';
  /** exclusive: optimizer steps, or training tokens (default 20 per active parameter, Chinchilla) */
  steps?: number; tokens?: number;
  /** failures per GPU per hour (default Llama 3's 419 in 54 days on 16,384 GPUs) */
  failure_rate?: number;
  /** seconds: noticing a failure, and rescheduling / relaunching */
  detect_time?: number; reschedule_time?: number;
  /** bytes/s: the file system's aggregate, and (async only) each GPU's device-to-host copy */
  storage_bandwidth?: number; host_copy_bandwidth?: number;
  checkpoint_mode?: 'sync' | 'async';
  /** seconds of training between checkpoints (default Daly's optimum) */
  checkpoint_interval?: number;
  price_per_gpu_hour?: number;
  /** watts per GPU at full load and idle; power usage effectiveness */
  gpu_power?: number; idle_power?: number; pue?: number;
}
export interface RunOpResponse {
  steps: number; tokens: number; step_time: number; mfu: number; useful_time: number; wall_time: number;
  wall_clock_days: number; goodput: number; effective_mfu: number; gpu_hours: number;
  failures: {
    expected: number; rate_per_gpu_hour: number; mtbf: number;
    restart_time: { detect: number; reschedule: number; reload: number; total: number };
    loss_per_failure: number; lost_time: number;
  };
  checkpoint: {
    size: number; size_per_gpu: number; mode: 'sync' | 'async'; write_time: number; blocking_time: number;
    interval: number; interval_source: 'daly' | 'checkpoint_interval'; interval_note?: string;
    young_interval: number; daly_interval: number; count: number; time: number;
  };
  energy: { mwh: number; gpu_power: number; idle_power: number; utilization: number; average_gpu_power: number; pue: number; model: string };
  cost: { dollars: number; price_per_gpu_hour: number };
  /** each run field left to its default, with the default's source */
  defaults: Record<string, string>;
}

export type NcclCollective = 'all_reduce' | 'all_gather' | 'reduce_scatter' | 'alltoall';
/** A pasted nccl-tests output fitted to α and β per link level (engine/API.md, nccl_fit): planner's engine only. */
export interface NcclFitRequest {
  op: 'nccl_fit';
  /** what all_reduce_perf & co. print, or their -J JSON file */
  text: string;
  /** used where the output's header does not say */
  gpus?: number; gpus_per_node?: number; collective?: NcclCollective;
}
export interface NcclRegime { from_bytes: number; to_bytes: number; latency: number; bandwidth: number }
export interface NcclTableFit {
  collective: NcclCollective; gpus: number; gpus_per_node: number; level: 'intra' | 'inter'; header_line: number;
  bus_factor: number; busbw_meaning: string; latency: number; bandwidth: number; regimes: NcclRegime[];
}
export interface NcclPoint {
  table: number; line: number; bytes: number; time: number; model_time: number;
  measured_algbw: number; measured_busbw: number; model_busbw: number;
}
export interface NcclLink { bandwidth: number; latency: number; gpus: number }
export interface NcclFitResponse {
  tables: NcclTableFit[]; points: NcclPoint[];
  links: {
    intra?: NcclLink; inter?: NcclLink & { per_gpu_nic_bandwidth: number };
    network_fit?: Array<{ gpus: number; bandwidth: number; latency: number }>;
  };
  /** the override a step / plan request's cluster takes (add gpus) */
  cluster: Omit<Cluster, 'gpus'>;
}

/** Every request, by op. */
export interface Requests {
  version: VersionRequest; presets: PresetsRequest; mfu: MfuRequest;
  allreduce: CollectiveRequest; allgather: CollectiveRequest; reducescatter: CollectiveRequest; alltoall: CollectiveRequest;
  pipeline: PipelineRequest; step: StepRequest; traffic: TrafficRequest; placement: PlacementRequest;
  moe_route: MoeRouteRequest; plan: PlanRequest; config_import: ConfigImportRequest;
  run: RunOpRequest; nccl_fit: NcclFitRequest;
  config_export: ConfigExportRequest;
}
/** Every response, by op. */
export interface Responses {
  version: VersionResponse; presets: PresetsResponse; mfu: MfuResponse;
  allreduce: CollectiveResponse; allgather: CollectiveResponse; reducescatter: CollectiveResponse; alltoall: CollectiveResponse;
  pipeline: PipelineResponse; step: StepResponse; traffic: TrafficResponse; placement: PlacementResponse;
  moe_route: MoeRouteResponse; plan: PlanResponse; config_import: ConfigImportResponse;
  run: RunOpResponse; nccl_fit: NcclFitResponse;
  config_export: ConfigExportResponse;
}
export type Op = keyof Requests;

/** The page's engine: one JSON request in, one JSON response out. */
export interface Engine {
  /** Answers a request; throws EngineError when the engine refuses it. */
  call<K extends Op>(request: Requests[K] & { op: K }): Responses[K];
  /** Like call, with the numbers sent beside the JSON (pipeline ops_format "binary") copied out. */
  callWithAttachment<K extends Op>(request: Requests[K] & { op: K }): { response: Responses[K]; attachment: Float64Array };
  /** A plan request run a slice at a time (e.g. in a Web Worker, reporting progress between slices). */
  planSearch(request: PlanRequest): PlanSearch;
  /** Request text in, response text out, byte for byte. */
  callText(requestText: string): string;
}

/**
 * Resolves to the page's engine, loading the WebAssembly on first use (shared by every widget, and by every copy of
 * the package on the page: "parascope" and "parascope/engine" give the same one; in node the wasm is read from disk,
 * the package's `node` export). It answers every op but "plan", "config_import", "config_export", "run" and
 * "nccl_fit" (refused with unknown_op; planSearch throws that refusal): the planner has its own engine.
 */
export function loadEngine(moduleOptions?: { wasmBinary?: ArrayBuffer | Uint8Array; [option: string]: unknown }): Promise<Engine>;
/**
 * Resolves to the planner's engine (its own WebAssembly, loaded on first use): every op, "plan" and planSearch too.
 * `wasm`: where to fetch its wasm from (default: plannerWasmUrl()). In node the wasm is read from disk.
 */
export function loadPlannerEngine(moduleOptions?: { wasmBinary?: ArrayBuffer | Uint8Array; [option: string]: unknown },
  wasm?: URL | string | null): Promise<Engine>;
/**
 * Resolves to the figures' engine (wasm/parascope.wasm): loadEngine's own, unless useEngine made that a widget's own
 * module; then the figures' is loaded on first use (what a widget's module leaves to it: the timeline's "chrome").
 */
export function loadFiguresEngine(): Promise<Engine>;
/** The planner's wasm URL as this page resolves it (what the planner's worker is posted). */
export function plannerWasmUrl(): URL;

/** An Emscripten module's glue, as `import('…/wasm/<module>.mjs')` resolves to it. */
type EngineGlue = Promise<{ default: (options: object) => Promise<unknown> }>;
/**
 * Makes loadEngine load another wasm module (a widget's own, which answers only the ops that widget asks:
 * lib/widget-engines.js, what embed.html uses) and starts its download at once. Only before the page's first
 * loadEngine; later, the page keeps the engine it has.
 */
export function useEngine(wasmUrl: URL | string, importGlue: () => EngineGlue): void;
/** One wasm module's loader (what loadEngine and loadPlannerEngine are made of): each call of it resolves to one engine. */
export function engineLoader(wasmUrl: URL | string | null, importGlue: () => EngineGlue, compiling?: Promise<WebAssembly.Module> | null):
  (moduleOptions?: { wasmBinary?: ArrayBuffer | Uint8Array; [option: string]: unknown }) => Promise<Engine>;
