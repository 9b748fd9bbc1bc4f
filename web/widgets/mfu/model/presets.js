// The published training runs <parascope-mfu> starts from: each a step request (model, hardware, cluster, split) for
// the engine, what the paper reports, and where every choice comes from. Data only: the engine computes every figure.

/**
 * `run` is the body of a {"op": "step"} request. `published` is either an engine request whose answer is the paper's
 * own measurement turned into MFU (`request`), or a figure quoted from the paper (`quote`), with `source` either way.
 * dp is left to the engine (gpus / tp·pp·cp) so that moving tp or pp keeps the GPU count.
 * `assumed` lists what the paper does not state and we chose.
 */
export const PRESETS = [
  {
    id: 'palm-540b',
    label: 'PaLM 540B',
    where: '6,144 TPU v4',
    run: {
      model: 'palm-540b',
      hardware: 'tpu-v4',
      cluster: { gpus: 6144 },
      software: 'xla',
      // PaLM Sec. 4: within each 3,072-chip pod, 12-way model parallelism × 256-way fully sharded data parallelism,
      // and 2 pods in data parallel: 12 × 512 = 6,144. No pipeline. Batch 2,048 sequences of 2,048 tokens late in
      // training (Sec. 5). HFU 57.8 % vs MFU 46.2 % (Sec. 4.1, Table 3) means rematerialization was on.
      parallel: {
        tp: 12,
        pp: 1,
        microbatch_size: 4,
        global_batch: 2048,
        recompute: 'full',
        sequence_parallel: true,
        zero: 3,
      },
    },
    published: {
      request: { op: 'mfu', model: 'palm-540b', hardware: 'tpu-v4', gpus: 6144, tokens_per_second: 238300 },
      source: '238.3K tokens/s on 6,144 chips (Chowdhery et al. 2022, Table 3)',
    },
    assumed:
      'The 2-D weight sharding is modelled as tensor parallelism with sequence parallelism plus ZeRO-3; the TPU ' +
      'torus as one flat ICI link (the network between the two pods is not modelled); full rematerialization.',
  },
  {
    id: 'gpt3-175b',
    label: 'GPT-3 175B',
    where: '64 A100s, Megatron-LM',
    run: {
      model: 'gpt3-175b',
      hardware: 'a100-80gb',
      cluster: { gpus: 64, gpus_per_node: 8 },
      parallel: {
        tp: 8,
        pp: 8,
        vpp: 3,
        microbatch_size: 1,
        global_batch: 64,
        recompute: 'selective',
        sequence_parallel: true,
      },
      software: 'megatron-2021',
    },
    published: {
      request: {
        op: 'mfu',
        model: 'gpt3-175b',
        hardware: 'a100-80gb',
        gpus: 64,
        step_time: 13.75,
        tokens_per_step: 64 * 2048,
      },
      source:
        '13.75 s per step with selective recomputation and sequence parallelism (Korthikanti et al. 2022, Table 5)',
    },
    assumed:
      'Attention without FlashAttention (2022 Megatron-LM); vocabulary 50,257 (GPT-3) where the paper pads to 51,200.',
  },
  {
    id: 'megatron-1t',
    label: 'Megatron 1T',
    where: '3,072 A100s',
    run: {
      model: 'megatron-1t',
      hardware: 'a100-80gb',
      cluster: { gpus: 3072, gpus_per_node: 8 },
      // Narayanan et al. 2021 Table 1: tp 8, pp 64, dp 6 (derived), batch 3,072.
      parallel: { tp: 8, pp: 64, microbatch_size: 1, global_batch: 3072, recompute: 'full' },
      software: 'megatron-2021',
    },
    published: {
      quote: '52 %',
      source:
        '163 TFLOP/s per GPU counting the recomputed forward, so compare with HFU (Narayanan et al. 2021, Table 1)',
      compare: 'hfu',
    },
    assumed:
      'Plain 1F1B (the table gives no interleaving); gradients all-reduced after the pipeline flush; no FlashAttention.',
  },
  {
    id: 'llama3-405b',
    label: 'Llama 3 405B',
    where: '16,384 H100s',
    run: {
      model: 'llama3-405b',
      hardware: 'h100-sxm',
      cluster: { gpus: 16384, gpus_per_node: 8 },
      // Llama 3 paper Table 4: TP 8, CP 1, PP 16, DP 128 (derived), 16M tokens per batch = 2,048 sequences of 8,192.
      // Sec. 3.3.2: "Our use of FSDP for Llama 3 shards optimizer states and gradients, but for model shards we do
      // not reshard after forward computation": weights gathered for the whole step, gradients and optimizer states
      // sharded over dp. That is ZeRO stage 2's memory (Rajbhandari et al. 2020: optimizer states + gradients
      // partitioned), not the engine's zero 3 without resharding, which in a pipeline accumulates unsharded fp32
      // gradients as torchtitan does (12 GiB more per GPU here: 81.6 GiB, which would not fit the 80 it ran on).
      // An interleaved schedule, one layer fewer on the first and last stages (the engine's balanced split of 126
      // layers over 16 stages gives 7, 8, ..., 8, 7). Meta's own PyTorch stack, not Megatron-Core; with fused
      // element-wise kernels ('pytorch-compile'): the run fit in 80 GB without activation checkpointing, which eager
      // PyTorch's saved fp32 norm and rotary intermediates would not (the engine: 101 GiB with them, 76 without).
      parallel: {
        tp: 8,
        pp: 16,
        vpp: 7,
        microbatch_size: 1,
        global_batch: 2048,
        recompute: 'none',
        sequence_parallel: true,
        zero: 2,
      },
      software: 'pytorch-compile',
    },
    published: {
      quote: '41 %',
      source:
        'BF16 MFU on 16,384 GPUs at 8K context, 400 TFLOP/s per GPU; 43 % on 8,192 GPUs, 38 % at 131K context ' +
        'with CP 16 (Dubey et al. 2024, Table 4)',
      compare: 'mfu',
    },
    assumed:
      '7 chunks per rank (the paper implies 8 of one layer, the end ones holding only the embedding or the ' +
      'output; the engine needs pp·vpp ≤ layers); FlashAttention-2; sequence parallelism; no recomputation; ' +
      'FSDP as ZeRO 2.',
  },
];

/** The "your run" mode's id (the calculator on the mfu op). */
export const YOUR_RUN = 'your-run';
