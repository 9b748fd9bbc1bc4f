// The figure's refusals in the reader's words: the engine's error (code, field) -> a sentence, never its message.
// Pure.

const FIELD_WORDS = {
  failure_rate: 'the failure rate',
  price_per_gpu_hour: 'the price per GPU-hour',
  pue: 'the PUE',
  storage_bandwidth: 'the storage bandwidth',
  checkpoint_interval: 'the checkpoint interval',
  tokens: 'the number of tokens',
  gpu_power: "the GPU's power",
};

/** The sentence for error `e` ({ code, field }) of the `run` op. */
export function runErrorText(e) {
  const field = e?.field ?? '';
  if (field === 'failure_rate' && e.code === 'inconsistent')
    return 'At this failure rate the run never finishes: failures come faster than a restart and the work lost with it take.';
  if (field === 'gpu_power')
    return "The engine knows no power draw for this accelerator, so it cannot count the run's energy or finish the sum.";
  const name = FIELD_WORDS[field.replace(/^.*\./, '')];
  if (name && e.code === 'out_of_range')
    return `The engine cannot use ${name} given here: it is outside what it accepts (a price cannot be negative, a rate must be above zero).`;
  if (field.startsWith('parallel') || field.startsWith('cluster'))
    return 'This split does not run on this many GPUs (the GPUs must divide into the parallel groups, and the batch over the data-parallel replicas).';
  if (field.startsWith('memory') || e.code === 'too_large')
    return 'This configuration is too large for the engine to time.';
  return 'The engine cannot cost this run as set; change the configuration or reset the sliders.';
}
