// Your cluster's measured network (issue 31): the link attributes every figure that asks `step`, `plan` or `run`
// takes, the request's `cluster` fields they become, and how a figure reads and writes them. <parascope-nccl>'s fit
// fills them in each such figure on the page ("use my cluster"); each keeps them in its permalink. Pure.
import { int } from './attribute-kinds.js';

const number = (max, about, defaultText) => ({ kind: 'number', min: 0, max, fallback: null, about, defaultText });

/** The attributes, in the order a permalink writes them. */
export const NETWORK_ATTRIBUTES = {
  'intra-bandwidth': number(
    1e16,
    'your cluster: bytes/s per GPU inside a node (<parascope-nccl> fills it)',
    "the hardware preset's",
  ),
  'intra-latency': number(1, 'your cluster: s per step inside a node', "the preset's"),
  'inter-bandwidth': number(1e16, 'your cluster: bytes/s per GPU between nodes', "the preset's"),
  'inter-latency': number(1, 'your cluster: s per step between nodes', "the preset's"),
  'gpus-per-node': int(1, 1_000_000, null, 'your cluster: GPUs per node', { defaultText: "the preset's" }),
};

/** state key -> the step request's `cluster` field -> the attribute. */
export const NETWORK_FIELDS = [
  ['intraBandwidth', 'intra_bandwidth', 'intra-bandwidth'],
  ['intraLatency', 'intra_latency', 'intra-latency'],
  ['interBandwidth', 'inter_bandwidth', 'inter-bandwidth'],
  ['interLatency', 'inter_latency', 'inter-latency'],
  ['gpusPerNode', 'gpus_per_node', 'gpus-per-node'],
];

/**
 * The network `reader` (an element's attribute reader, lib/widget-attributes.js) was given, as { attribute: value }
 * for each link attribute present (none: the hardware preset's links), or null when none is.
 */
export function readNetwork(reader) {
  const out = {};
  for (const [name, a] of Object.entries(NETWORK_ATTRIBUTES)) {
    if (reader.rawAttribute(name) === null) continue;
    const v = a.kind === 'int' ? reader.intAttribute(name, a) : reader.numberAttribute(name, a);
    if (v !== null && v !== undefined) out[name] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** `cluster` (a request's) with `network`'s links (readNetwork's answer, or null: `cluster` as it is), a copy. */
export function withNetwork(cluster, network) {
  if (!network) return cluster;
  const out = { ...cluster };
  for (const [, field, attr] of NETWORK_FIELDS) if (network[attr] !== undefined) out[field] = network[attr];
  return out;
}
