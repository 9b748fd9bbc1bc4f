// Decodes the engine's "packed" op list (one string of comma-separated numbers per column) into typed arrays.

/** "0,1,2.5" -> Float64Array [0, 1, 2.5]; whole numbers are read digit by digit, anything else by Number(). */
export function numbers(text, count) {
  const out = new Float64Array(count);
  if (count === 0) return out;
  let n = 0;
  let value = 0;
  let plain = true;
  let from = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 44) {  // ","
      out[n] = plain ? value : Number(text.slice(from, i));
      n += 1;
      value = 0;
      plain = true;
      from = i + 1;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
    } else {
      plain = false;
    }
  }
  return out;
}

/** { per_stage, kind, microbatch, chunk, start } with the three number columns as Float64Arrays. */
export function unpackOps(ops) {
  const count = ops.kind.length;
  return {
    per_stage: ops.per_stage,
    kind: ops.kind,
    microbatch: numbers(ops.microbatch, count),
    chunk: numbers(ops.chunk, count),
    start: numbers(ops.start, count),
  };
}
