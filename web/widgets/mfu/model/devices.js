// What one accelerator is called, from the `kind` the engine publishes with each hardware preset ("gpu" or "tpu").
import { grouped } from '../../../lib/format.js';

const WORDS = {
  gpu: { one: 'GPU', many: 'GPUs' },
  tpu: { one: 'TPU chip', many: 'TPU chips' },
};

/** presets: the engine's presets answer; id: a hardware preset id. Returns { one, many } (e.g. "TPU chip", "TPU chips"). */
export function deviceWords(presets, id) {
  const kind = presets.hardware.find((x) => x.id === id)?.kind;
  return WORDS[kind] ?? { one: 'accelerator', many: 'accelerators' };
}

/** "6,144 TPU chips", "1 GPU". */
export function deviceCount(n, words) {
  return `${grouped(n)} ${n === 1 ? words.one : words.many}`;
}
