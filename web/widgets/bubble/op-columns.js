// Turns a "pipeline" response's binary op columns (the call's attachment, a Float64Array) into named column views.

/**
 * The ops of a "pipeline" response sent with ops_format "binary", as { per_stage, kind (one character per op),
 * microbatch, chunk, start, end } (views into the attachment, which holds `count` numbers per column: microbatch, kind
 * as a character code, chunk, start, end; ops stage by stage, per_stage of each).
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
