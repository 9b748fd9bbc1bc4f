// The published nccl-tests outputs the figure offers before the reader pastes their own (web/data/nccl-tests/, whose
// sources tests/fixtures/nccl-tests/README.md lists). Pure: ids, labels and file names only. A label fits its menu
// on a phone (tests/browser/nccl.test.mjs); the collective is the fitted table's title.
export const EXAMPLES = [
  { id: 'h200-2x8', label: '16 H200, 2 nodes (OCI)', file: 'h200-2x8-all-reduce.txt' },
  { id: 'a100-1x8', label: '8 A100, one node (OCI)', file: 'a100-1x8-all-reduce.txt' },
];
