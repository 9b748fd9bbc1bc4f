// The published nccl-tests outputs the figure offers before the reader pastes their own (web/data/nccl-tests/, whose
// sources tests/fixtures/nccl-tests/README.md lists). Pure: ids, labels and file names only.
export const EXAMPLES = [
  { id: 'h200-2x8', label: '16 H200 on 2 nodes (OCI, all_reduce_perf)', file: 'h200-2x8-all-reduce.txt' },
  { id: 'a100-1x8', label: '8 A100 in one node (OCI, all_reduce_perf)', file: 'a100-1x8-all-reduce.txt' },
];
