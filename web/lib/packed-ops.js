// Decodes the engine's compact op lists into typed arrays: "packed" (one string of numbers per column) and "binary"
// (the columns in the call's attachment, a Float64Array).

/** "0,1,,2.5" -> Float64Array [0, 1, NaN, 2.5]: whole numbers read digit by digit, others by Number(), empty as NaN. */
export function numbers(text, count) {
  const out = new Float64Array(count);
  if (count === 0) return out;
  let n = 0;
  let value = 0;
  let digits = 0;
  let plain = true;
  let from = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 44) {  // ","
      out[n] = digits === 0 && plain ? NaN : plain ? value : Number(text.slice(from, i));
      n += 1;
      value = 0;
      digits = 0;
      plain = true;
      from = i + 1;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits += 1;
    } else {
      plain = false;
    }
  }
  return out;
}

/**
 * The ops of a "pipeline" response sent with ops_format "packed", as { per_stage, kind, microbatch, chunk, start, end }
 * (typed arrays). An empty start means "when the stage's previous op ends" (0 for its first op); an op ends at start +
 * the duration of its kind, which the response gives in `times`.
 */
export function unpackOps(response) {
  const ops = response.ops;
  const count = ops.kind.length;
  const start = numbers(ops.start, count);
  const end = new Float64Array(count);
  const duration = { F: response.times.f, B: response.times.b, W: response.times.w };
  let i = 0;
  for (const n of ops.per_stage) {
    let previous = 0;
    for (const last = i + n; i < last; i += 1) {
      if (Number.isNaN(start[i])) start[i] = previous;
      end[i] = start[i] + duration[ops.kind[i]];
      previous = end[i];
    }
  }
  return {
    per_stage: ops.per_stage,
    kind: ops.kind,
    microbatch: numbers(ops.microbatch, count),
    chunk: numbers(ops.chunk, count),
    start,
    end,
  };
}

/**
 * The ops of a "pipeline" response sent with ops_format "binary", in the same shape as unpackOps gives: the
 * attachment holds `count` numbers per column (microbatch, kind as a character code, chunk, start, end).
 */
export function opsFromAttachment(response, attachment) {
  const n = response.ops.count;
  const column = (k) => attachment.subarray(k * n, (k + 1) * n);
  return {
    per_stage: response.ops.per_stage,
    kind: new TextDecoder().decode(Uint8Array.from(column(1))),
    microbatch: column(0),
    chunk: column(2),
    start: column(3),
    end: column(4),
  };
}

