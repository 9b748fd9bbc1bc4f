// The figure's refusals in the reader's words: the engine's error (code, field) -> a sentence, never its message. Pure.

/** The sentence for error `e` ({ code, field }) of the `step` or `memory_timeline` op. */
export function memoryErrorText(e) {
  const field = e?.field ?? '';
  if (e?.code === 'too_large')
    return 'This schedule has too many steps for the engine to draw one stage of it (more than 20,000 on a stage): fewer microbatches, a larger microbatch or more data-parallel replicas shrink it.';
  if (field === 'parallel.ep' || field === 'parallel.etp')
    return 'Expert parallelism needs a mixture-of-experts model whose experts it divides, and enough GPUs beside it.';
  if (field === 'precision' || field === 'parallel.fp8_recipe')
    return 'This chip has no FP8 tensor cores the engine knows of, so it cannot run the weight GEMMs in FP8.';
  if (field === 'parallel.offload_optimizer')
    return 'The engine knows no host link or host memory speed for this chip (the TPUs), so it cannot price moving the optimizer to the host.';
  if (field === 'parallel.tp')
    return 'Tensor parallelism must divide the attention heads, and the GPUs must split into it.';
  if (field === 'parallel.cp' || field === 'model.seq')
    return 'Context parallelism must divide the sequence into equal chunks, and the GPUs must split into it.';
  if (field === 'parallel.vpp' || field === 'parallel.schedule')
    return 'This schedule cannot run with these stages, chunks and microbatches (interleaving needs the interleaved schedule; DualPipe needs an even count of both).';
  if (field === 'parallel.pp') return 'This many pipeline stages do not fit the model’s layers or the GPUs.';
  if (field === 'parallel.global_batch' || field === 'parallel.microbatch_size')
    return 'The batch must split into whole microbatches on every data-parallel replica, and the schedule needs enough of them (DualPipe at least two per stage; some interleaved schedules a multiple of the stages).';
  if (field.startsWith('parallel') || field.startsWith('cluster'))
    return 'This split does not run on this many GPUs: tp × pp × cp must divide them, and the batch the replicas.';
  if (field === 'stage') return 'There is no such pipeline stage in this run.';
  return 'The engine cannot lay this run out as set; change a control back.';
}
