// A `memory_timeline` answer sent with columns_format "binary" (engine/API.md): its columns read out of the call's
// attachment into the shape the text answer has, and back to plain arrays for the figure's JSON download.

const ascii = new TextDecoder();

/** Answer `a` with each binary block's columns as subarrays of `numbers` (`kind` back to its letters). */
export function withColumns(a, numbers) {
  const out = { ...a };
  for (const block of ['segments', 'activation_sets']) {
    const b = a[block];
    if (b?.format !== 'binary') continue;
    const columns = {};
    b.columns.forEach((name, j) => {
      const values = numbers.subarray(b.offset + j * b.count, b.offset + (j + 1) * b.count);
      columns[name] = name === 'kind' ? ascii.decode(Uint8Array.from(values)) : values;
    });
    out[block] = columns;
  }
  return out;
}

/** Answer `a` with its columns as plain arrays: what the text answer holds, for JSON. */
export function asArrays(a) {
  if (!a) return a;
  const out = { ...a };
  for (const block of ['segments', 'activation_sets']) {
    out[block] = Object.fromEntries(
      Object.entries(a[block]).map(([k, v]) => [k, typeof v === 'string' ? v : Array.from(v)]),
    );
  }
  return out;
}
