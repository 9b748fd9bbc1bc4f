// A model in a reader's few words: an engine preset's id as it is, a model shape (an imported one) by its widths.
// Pure: no DOM, no engine.

/** "3 layers", "1 layer": a count with its noun. */
export const count = (n, one, many) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The model of a step request in a few words: a preset's id, or an imported shape's widths. */
export function modelWords(model) {
  if (typeof model === 'string') return model;
  const m = model ?? {};
  if (m.name) return m.name;
  const experts = m.experts > 1 ? `, ${count(m.experts, 'expert', 'experts')} (${m.top_k ?? 1} per token)` : '';
  return `${count(m.layers ?? 0, 'layer', 'layers')} of width ${(m.hidden ?? 0).toLocaleString('en-US')}, ${count(m.heads ?? 0, 'head', 'heads')}${experts}, a ${(m.vocab ?? 0).toLocaleString('en-US')}-token vocabulary`;
}
