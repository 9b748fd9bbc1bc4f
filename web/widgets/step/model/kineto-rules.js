// Written from engine/data/kineto-rules.json by `UPDATE=1 node --test tests/js/kineto-rules.test.mjs`: do not
// edit here. How a Kineto trace's GPU events are classified; the native CLI reads the same file (--kineto).
export const KINETO_RULES = {
  kinds: ['gemm', 'attention', 'elementwise', 'other', 'nccl', 'memcpy'],
  step_marker: {
    pattern: '^ProfilerStep#\\d+$',
    flags: '',
  },
  launch_category: 'cuda_runtime',
  kernel_category: 'kernel',
  copy_categories: ['gpu_memcpy', 'gpu_memset'],
  nccl: {
    kernel: {
      pattern: '^nccl',
      flags: 'i',
    },
    collective: {
      pattern: 'nccl(?:Dev)?Kernel_([A-Za-z]+)',
      flags: '',
    },
    unnamed_collective: 'other',
  },
  compute: [
    {
      kind: 'attention',
      pattern: 'flash|fmha|attention|attn|sdpa|softmax',
      flags: 'i',
    },
    {
      kind: 'gemm',
      pattern: 'gemm|cublas|cutlass|xmma|matmul|nvjet|wgmma|hgmma|\\bmm_|_mm\\b',
      flags: 'i',
    },
    {
      kind: 'elementwise',
      pattern: 'elementwise|reduce_kernel|vectorized|unrolled|norm|adam|multi_tensor',
      flags: 'i',
    },
  ],
  unnamed_compute: 'other',
};
