// Generated from web/lib/model/attributes.js by lib/model/attribute-docs.js (tests/js/attribute-docs.test.mjs
// checks it; UPDATE=1 rewrites it). The attributes of each parascope element, for editors and JSX.
import type { Attention, HardwareId, ModelId, PlanObjective, Precision, Recompute, ScheduleId, Software, ZeroStage } from './engine.js';

/** <parascope-axes>: One model split by data, tensor, pipeline and expert parallelism: what each GPU holds and sends. */
export interface ParascopeAxesAttributes {
  /** the tab shown first. data, tensor, pipeline, expert, all; default all. */
  'axis'?: 'data' | 'tensor' | 'pipeline' | 'expert' | 'all';
  /** model preset. one of the engine's model presets; default mixtral-8x7b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default h100-sxm. */
  'hardware'?: HardwareId;
  /** GPUs in the run. 1 to 1,000,000, whole; default 64. */
  'gpus'?: number | `${number}`;
  /** tensor-parallel size. 1 to 1,024, whole; default 2. */
  'tp'?: number | `${number}`;
  /** pipeline stages. 1 to 1,024, whole; default 4. */
  'pp'?: number | `${number}`;
  /** expert-parallel size (MoE models). 1 to 1,024, whole; default 8 for MoE models, else 1. */
  'ep'?: number | `${number}`;
  /** sequences per step. 1 to 100,000,000, whole; default 256. */
  'global-batch'?: number | `${number}`;
  /** router skew (Zipf exponent), 0 to 3 in steps of 0.1. 0 to 3; default 1. */
  'skew'?: number | `${number}`;
  /** router seed. 0 to 9,007,199,254,740,992, whole; default 1. */
  'seed'?: number | `${number}`;
  /** your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it). above 0, at most 10000000000000000; default the hardware preset's. */
  'intra-bandwidth'?: number | `${number}`;
  /** your cluster: s per step inside a node. above 0, at most 1; default the preset's. */
  'intra-latency'?: number | `${number}`;
  /** your cluster: bytes/s per GPU between nodes. above 0, at most 10000000000000000; default the preset's. */
  'inter-bandwidth'?: number | `${number}`;
  /** your cluster: s per step between nodes. above 0, at most 1; default the preset's. */
  'inter-latency'?: number | `${number}`;
  /** your cluster: GPUs per node. 1 to 1,000,000, whole; default the preset's. */
  'gpus-per-node'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-context>: Context parallelism step by step: zig-zag chunks, keys and values around a ring, what the link leaves exposed. */
export interface ParascopeContextAttributes {
  /** model preset. one of the engine's model presets; default llama3-8b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default h100-sxm. */
  'hardware'?: HardwareId;
  /** tensor-parallel size inside each context-parallel rank (tp · cp GPUs in all). 1 to 64, whole; default 2. */
  'tp'?: number | `${number}`;
  /** context-parallel size: GPUs sharing one sequence. 2 to 16, whole; default 4. */
  'cp'?: number | `${number}`;
  /** sequence length in tokens (must split into 2·cp chunks). 1,024 to 1,048,576, whole; default 32,768. */
  'sequence'?: number | `${number}`;
  /** how the 2·cp chunks are dealt to the GPUs. zigzag, contiguous; default zigzag. */
  'split'?: 'zigzag' | 'contiguous';
  /** K/V passed around a ring (P2P) or gathered at once (all-gather). p2p, all-gather; default p2p. */
  'variant'?: 'p2p' | 'all-gather';
  /** fused attention skips the causally masked blocks; unfused computes all. fused, unfused; default fused. */
  'kernel'?: 'fused' | 'unfused';
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-ring>: A ring all-reduce chunk by chunk, with its cost on real links and at scale. */
export interface ParascopeRingAttributes {
  /** GPUs on the ring. 2 to 16, whole; default 4. */
  'gpus'?: number | `${number}`;
  /** accelerator preset. one of the engine's hardware presets; default h100-sxm. */
  'hardware'?: HardwareId;
  /** inside a node or across nodes (a ring larger than a node runs on inter). intra, inter; default intra. */
  'link'?: 'intra' | 'inter';
  /** array size per GPU, in bytes. above 0; default 1,073,741,824. */
  'bytes'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-bubble>: A pipeline schedule's timeline, the bubble hatched, honest efficiency beside the dashboard's 100 %. */
export interface ParascopeBubbleAttributes {
  /** pipeline stages (GPUs). 1 to 32, whole; default 4. */
  'stages'?: number | `${number}`;
  /** microbatches per step. 1 to 128, whole; default 8. */
  'microbatches'?: number | `${number}`;
  /** pipeline schedule. one of the engine's pipeline schedules; default 1f1b. */
  'schedule'?: ScheduleId;
  /** virtual chunks per GPU (interleaved). 1 to 8, whole; default 2. */
  'chunks'?: number | `${number}`;
  /** draw the forward half only (gpipe, interleaved). present or absent; default absent. */
  'forward-only'?: boolean | '' | 'true' | 'false';
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-mfu>: What the utilization dashboard shows against MFU, for published runs or your own throughput. */
export interface ParascopeMfuAttributes {
  /** published run, your-run (a measured throughput), or custom (model, hardware and gpus split as the split attributes say). palm-540b, gpt3-175b, megatron-1t, llama3-405b, your-run, custom; default palm-540b (your-run when a your-run attribute is given). */
  'preset'?: 'palm-540b' | 'gpt3-175b' | 'megatron-1t' | 'llama3-405b' | 'your-run' | 'custom';
  /** tensor-parallel size. 1 to 1,000,000, whole; default the preset's. */
  'tp'?: number | `${number}`;
  /** pipeline stages. 1 to 1,000,000, whole; default the preset's. */
  'pp'?: number | `${number}`;
  /** virtual stages per pipeline rank. 1 to 1,000,000, whole; default the preset's. */
  'vpp'?: number | `${number}`;
  /** sequences per microbatch. 1 to 1,000,000, whole; default the preset's. */
  'microbatch-size'?: number | `${number}`;
  /** sequences per step. 1 to 1,000,000, whole; default the preset's. */
  'global-batch'?: number | `${number}`;
  /** activation recomputation. one of the engine's recomputation modes; default the preset's. */
  'recompute'?: Recompute;
  /** pipeline schedule. one of the engine's pipeline schedules; default the preset's. */
  'schedule'?: ScheduleId;
  /** ZeRO stage. one of the engine's ZeRO stages; default the preset's. */
  'zero'?: `${ZeroStage}`;
  /** custom: context-parallel size. 1 to 1,000,000, whole; default 1. */
  'cp'?: number | `${number}`;
  /** custom: expert-parallel size (MoE models). 1 to 1,000,000, whole; default 1. */
  'ep'?: number | `${number}`;
  /** custom: sequence parallelism on. present or absent; default absent. */
  'sequence-parallel'?: boolean | '' | 'true' | 'false';
  /** custom: share of the optimizer state stepped on the host. 0.25, 0.5, 0.75, 1; default none. */
  'offload'?: '0.25' | '0.5' | '0.75' | '1';
  /** your-run and custom: model preset. one of the engine's model presets; default palm-540b. */
  'model'?: ModelId;
  /** your-run and custom: accelerator preset. one of the engine's hardware presets; default tpu-v4. */
  'hardware'?: HardwareId;
  /** your-run and custom: GPUs (or TPU chips). 1 to 10,000,000, whole; default 6,144. */
  'gpus'?: number | `${number}`;
  /** your-run: measured throughput of the whole cluster, tokens/s. above 0; default 238,300. */
  'tokens-per-second'?: number | `${number}`;
  /** your-run: attention FLOP convention. one of the engine's attention FLOP conventions; default full. */
  'attention'?: Attention;
  /** your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it). above 0, at most 10000000000000000; default the hardware preset's. */
  'intra-bandwidth'?: number | `${number}`;
  /** your cluster: s per step inside a node. above 0, at most 1; default the preset's. */
  'intra-latency'?: number | `${number}`;
  /** your cluster: bytes/s per GPU between nodes. above 0, at most 10000000000000000; default the preset's. */
  'inter-bandwidth'?: number | `${number}`;
  /** your cluster: s per step between nodes. above 0, at most 1; default the preset's. */
  'inter-latency'?: number | `${number}`;
  /** your cluster: GPUs per node. 1 to 1,000,000, whole; default the preset's. */
  'gpus-per-node'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-step>: One training step per GPU and stream, as a profiler would show it, from the engine's cost model. */
export interface ParascopeStepAttributes {
  /** model preset. one of the engine's model presets; default gpt3-175b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default a100-80gb. */
  'hardware'?: HardwareId;
  /** GPUs (or TPU chips) of the run. 1 to 10,000,000, whole; default 128. */
  'gpus'?: number | `${number}`;
  /** tensor-parallel size. 1 to 1,000,000, whole; default 8. */
  'tp'?: number | `${number}`;
  /** pipeline stages. 1 to 1,000,000, whole; default 8. */
  'pp'?: number | `${number}`;
  /** virtual stages per pipeline rank. 1 to 1,000,000, whole; default 1. */
  'vpp'?: number | `${number}`;
  /** context-parallel size. 1 to 1,000,000, whole; default 1. */
  'cp'?: number | `${number}`;
  /** expert-parallel size (MoE models). 1 to 1,000,000, whole; default 1. */
  'ep'?: number | `${number}`;
  /** sequences per microbatch. 1 to 1,000,000, whole; default 1. */
  'microbatch-size'?: number | `${number}`;
  /** sequences per step. 1 to 1,000,000, whole; default 64. */
  'global-batch'?: number | `${number}`;
  /** activation recomputation. one of the engine's recomputation modes; default the engine's. */
  'recompute'?: Recompute;
  /** pipeline schedule. one of the engine's pipeline schedules; default the engine's. */
  'schedule'?: ScheduleId;
  /** ZeRO stage. one of the engine's ZeRO stages; default the engine's. */
  'zero'?: `${ZeroStage}`;
  /** share of the optimizer state stepped on the host. 0.25, 0.5, 0.75, 1; default none. */
  'offload'?: '0.25' | '0.5' | '0.75' | '1';
  /** sequence parallelism on. present or absent; default absent. */
  'sequence-parallel'?: boolean | '' | 'true' | 'false';
  /** the first pipeline stage drawn (its first GPU). 0 to 1,000,000, whole; default 0. */
  'first-stage'?: number | `${number}`;
  /** how many stages (one GPU each) are drawn at once. 1 to 64, whole; default 8. */
  'stages-shown'?: number | `${number}`;
  /** your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it). above 0, at most 10000000000000000; default the hardware preset's. */
  'intra-bandwidth'?: number | `${number}`;
  /** your cluster: s per step inside a node. above 0, at most 1; default the preset's. */
  'intra-latency'?: number | `${number}`;
  /** your cluster: bytes/s per GPU between nodes. above 0, at most 10000000000000000; default the preset's. */
  'inter-bandwidth'?: number | `${number}`;
  /** your cluster: s per step between nodes. above 0, at most 1; default the preset's. */
  'inter-latency'?: number | `${number}`;
  /** your cluster: GPUs per node. 1 to 1,000,000, whole; default the preset's. */
  'gpus-per-node'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-memory>: One GPU's memory through one training step, part by part, its peak against the chip's capacity. */
export interface ParascopeMemoryAttributes {
  /** model preset. one of the engine's model presets; default llama3-70b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default h100-sxm. */
  'hardware'?: HardwareId;
  /** GPUs (or TPU chips) of the run; dp = gpus / (tp · pp · cp). 1 to 10,000,000, whole; default 64. */
  'gpus'?: number | `${number}`;
  /** tensor-parallel size. 1 to 1,000,000, whole; default 4. */
  'tp'?: number | `${number}`;
  /** pipeline stages. 1 to 1,000,000, whole; default 8. */
  'pp'?: number | `${number}`;
  /** virtual stages per pipeline rank (interleaved schedule). 1 to 1,000,000, whole; default 1. */
  'vpp'?: number | `${number}`;
  /** context-parallel size. 1 to 1,000,000, whole; default 1. */
  'cp'?: number | `${number}`;
  /** expert-parallel size (MoE models). 1 to 1,000,000, whole; default 1. */
  'ep'?: number | `${number}`;
  /** sequences per microbatch. 1 to 1,000,000, whole; default 1. */
  'microbatch-size'?: number | `${number}`;
  /** sequences per step. 1 to 1,000,000, whole; default 64. */
  'global-batch'?: number | `${number}`;
  /** sequence length, tokens. 1 to 10,000,000, whole; default the model preset's. */
  'seq'?: number | `${number}`;
  /** activation recomputation. one of the engine's recomputation modes; default the engine's. */
  'recompute'?: Recompute;
  /** pipeline schedule. one of the engine's pipeline schedules; default the engine's. */
  'schedule'?: ScheduleId;
  /** ZeRO stage (3 = FSDP). one of the engine's ZeRO stages; default 1. */
  'zero'?: `${ZeroStage}`;
  /** ZeRO 3 / FSDP: free gathered weights after each forward. true, false; default the engine's (true without a pipeline, false with one). */
  'reshard'?: 'true' | 'false';
  /** precision of the weight GEMMs. one of the engine's precisions; default the engine's. */
  'precision'?: Precision;
  /** share of the optimizer state stepped on the host. 0.25, 0.5, 0.75, 1; default none. */
  'offload'?: '0.25' | '0.5' | '0.75' | '1';
  /** sequence parallelism. true, false; default true. */
  'sequence-parallel'?: 'true' | 'false';
  /** the pipeline stage drawn. 0 to 1,000,000, whole; default the most loaded. */
  'stage'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-track>: Every published run the engine was checked on, predicted against measured, with its error per publication. */
export interface ParascopeTrackAttributes {
  /** what is compared: MFU (speed) or peak memory per GPU. speed, memory; default speed. */
  'view'?: 'speed' | 'memory';
  /** the software stack family shown (all: every family). all, pytorch, megatron-core, megatron-2021, deepspeed, xla; default all. */
  'stack'?: 'all' | 'pytorch' | 'megatron-core' | 'megatron-2021' | 'deepspeed' | 'xla';
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-planner>: The configurations of a model on a cluster that fit in memory, ranked by predicted MFU, searched in a worker. */
export interface ParascopePlannerAttributes {
  /** model preset to plan for. one of the engine's model presets; default gpt3-175b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default a100-80gb. */
  'hardware'?: HardwareId;
  /** GPUs in the cluster. 1 to 65,536, whole; default 1,024. */
  'gpus'?: number | `${number}`;
  /** sequences per step. 1 to 1,000,000, whole; default 1,536. */
  'global-batch'?: number | `${number}`;
  /** what the table ranks by. one of the engine's plan objectives; default mfu. */
  'objective'?: PlanObjective;
  /** share of every configuration's optimizer state stepped on the host (not on TPUs). 0, 0.25, 0.5, 0.75, 1; default 0. */
  'offload'?: '0' | '0.25' | '0.5' | '0.75' | '1';
  /** the software stack every configuration is costed for. one of the engine's software stacks; default megatron-core. */
  'software'?: Software;
  /** your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it). above 0, at most 10000000000000000; default the hardware preset's. */
  'intra-bandwidth'?: number | `${number}`;
  /** your cluster: s per step inside a node. above 0, at most 1; default the preset's. */
  'intra-latency'?: number | `${number}`;
  /** your cluster: bytes/s per GPU between nodes. above 0, at most 10000000000000000; default the preset's. */
  'inter-bandwidth'?: number | `${number}`;
  /** your cluster: s per step between nodes. above 0, at most 1; default the preset's. */
  'inter-latency'?: number | `${number}`;
  /** your cluster: GPUs per node. 1 to 1,000,000, whole; default the preset's. */
  'gpus-per-node'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-run>: A whole training run on a chosen split: days, failures, checkpoints, goodput, energy and cost as GPUs grow. */
export interface ParascopeRunAttributes {
  /** model preset. one of the engine's model presets; default llama3-405b. */
  'model'?: ModelId;
  /** accelerator preset. one of the engine's hardware presets; default h100-sxm. */
  'hardware'?: HardwareId;
  /** GPUs (or TPU chips) of the run. 1 to 10,000,000, whole; default 16,384. */
  'gpus'?: number | `${number}`;
  /** tensor-parallel size. 1 to 1,000,000, whole; default 8. */
  'tp'?: number | `${number}`;
  /** pipeline stages. 1 to 1,000,000, whole; default 16. */
  'pp'?: number | `${number}`;
  /** virtual stages per pipeline rank. 1 to 1,000,000, whole; default 1. */
  'vpp'?: number | `${number}`;
  /** context-parallel size. 1 to 1,000,000, whole; default 1. */
  'cp'?: number | `${number}`;
  /** expert-parallel size (MoE models). 1 to 1,000,000, whole; default 1. */
  'ep'?: number | `${number}`;
  /** sequences per microbatch. 1 to 1,000,000, whole; default 1. */
  'microbatch-size'?: number | `${number}`;
  /** sequences per step. 1 to 1,000,000, whole; default 2,048. */
  'global-batch'?: number | `${number}`;
  /** activation recomputation. one of the engine's recomputation modes; default the engine's. */
  'recompute'?: Recompute;
  /** pipeline schedule. one of the engine's pipeline schedules; default the engine's. */
  'schedule'?: ScheduleId;
  /** ZeRO stage. one of the engine's ZeRO stages; default 1. */
  'zero'?: `${ZeroStage}`;
  /** sequence parallelism on. present or absent; default absent. */
  'sequence-parallel'?: boolean | '' | 'true' | 'false';
  /** tokens the run trains on. above 1, at most 10000000000000000; default 15,600,000,000,000. */
  'tokens'?: number | `${number}`;
  /** failures per GPU per hour. above 0, at most 1; default the engine's (engine/API.md, run). */
  'failure-rate'?: number | `${number}`;
  /** checkpoint writes block training (sync) or are staged (async). sync, async; default sync. */
  'checkpoint-mode'?: 'sync' | 'async';
  /** s of training between checkpoints. above 0, at most 1000000000; default Daly's optimum. */
  'checkpoint-interval'?: number | `${number}`;
  /** checkpoint storage, bytes/s aggregate. above 0, at most 10000000000000000; default the engine's (engine/API.md, run). */
  'storage-bandwidth'?: number | `${number}`;
  /** $ per GPU-hour (a negative one is left to the engine to refuse). 0 to 1000000; default the engine's (engine/API.md, run). */
  'price'?: number | `${number}`;
  /** power usage effectiveness of the data centre. above 0, at most 5; default the engine's (engine/API.md, run). */
  'pue'?: number | `${number}`;
  /** your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it). above 0, at most 10000000000000000; default the hardware preset's. */
  'intra-bandwidth'?: number | `${number}`;
  /** your cluster: s per step inside a node. above 0, at most 1; default the preset's. */
  'intra-latency'?: number | `${number}`;
  /** your cluster: bytes/s per GPU between nodes. above 0, at most 10000000000000000; default the preset's. */
  'inter-bandwidth'?: number | `${number}`;
  /** your cluster: s per step between nodes. above 0, at most 1; default the preset's. */
  'inter-latency'?: number | `${number}`;
  /** your cluster: GPUs per node. 1 to 1,000,000, whole; default the preset's. */
  'gpus-per-node'?: number | `${number}`;
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** <parascope-nccl>: Your cluster's nccl-tests output fitted to the engine's link model, measured against modelled bus bandwidth. */
export interface ParascopeNcclAttributes {
  /** the published nccl-tests output shown until the reader pastes their own (none: an empty box). h200-2x8, a100-1x8, none; default h200-2x8. */
  'example'?: 'h200-2x8' | 'a100-1x8' | 'none';
  /** force a colour scheme (otherwise the reader's). light, dark; default the reader's setting. */
  'theme'?: 'light' | 'dark';
  /** mirror the state in the URL hash under this key (empty: the tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link". a short name (letters, digits, - and _); default off. */
  'permalink'?: string;
}

/** Each element's attributes, by tag. */
export interface ParascopeElementAttributes {
  'parascope-axes': ParascopeAxesAttributes;
  'parascope-context': ParascopeContextAttributes;
  'parascope-ring': ParascopeRingAttributes;
  'parascope-bubble': ParascopeBubbleAttributes;
  'parascope-mfu': ParascopeMfuAttributes;
  'parascope-step': ParascopeStepAttributes;
  'parascope-memory': ParascopeMemoryAttributes;
  'parascope-track': ParascopeTrackAttributes;
  'parascope-planner': ParascopePlannerAttributes;
  'parascope-run': ParascopeRunAttributes;
  'parascope-nccl': ParascopeNcclAttributes;
}

/** The attributes any HTML element takes, as a page or JSX writes them on a parascope element. */
export interface ParascopeCommonAttributes {
  id?: string; class?: string; className?: string; style?: string | { [property: string]: string | number };
  slot?: string; hidden?: boolean; title?: string; lang?: string; dir?: 'ltr' | 'rtl' | 'auto';
  tabIndex?: number; tabindex?: number | `${number}`; role?: string;
  key?: string | number | bigint | null; ref?: unknown; children?: unknown;
  [data: `data-${string}`]: string | number | boolean | undefined;
  [aria: `aria-${string}`]: string | number | boolean | undefined;
}

/** What every parascope element adds to HTMLElement. */
export interface ParascopeElement extends HTMLElement {
  /** Starts the figure now (it normally starts when scrolled near). */
  startNow(): void;
  /** The current state as attribute values (what a permalink holds), or null before it has started. */
  linkState(): Record<string, string | number | boolean | null> | null;
  /** A link to this page with this figure's state in the hash (permalink attribute). */
  linkHref(): string;
}

/** JSX's intrinsic elements for the parascope tags: each element's own attributes and the common ones, no other. */
export type ParascopeIntrinsicElements = {
  [Tag in keyof ParascopeElementAttributes]: ParascopeElementAttributes[Tag] & ParascopeCommonAttributes;
};

declare global {
  interface HTMLElementTagNameMap {
    'parascope-axes': ParascopeElement;
    'parascope-context': ParascopeElement;
    'parascope-ring': ParascopeElement;
    'parascope-bubble': ParascopeElement;
    'parascope-mfu': ParascopeElement;
    'parascope-step': ParascopeElement;
    'parascope-memory': ParascopeElement;
    'parascope-track': ParascopeElement;
    'parascope-planner': ParascopeElement;
    'parascope-run': ParascopeElement;
    'parascope-nccl': ParascopeElement;
  }
  interface HTMLElementEventMap {
    /** Fired (bubbling) when a figure has started and drawn its first state. */
    'parascope-ready': CustomEvent<void>;
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements extends ParascopeIntrinsicElements {}
  }
}
