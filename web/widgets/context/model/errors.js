// The context figure's refusals in the reader's words: the engine's error (code, field) and the settings -> a
// sentence, never the engine's message. Pure.
import { grouped } from '../../../lib/format.js';

/** The sentence for error `e` ({ code, field }) of `context_ring` with settings `s`. */
export function contextErrorText(e, s) {
  const field = e?.field ?? '';
  if (field === 'parallel.cp')
    return `${grouped(s.sequence)} tokens do not cut into ${2 * s.cp} equal chunks for ${s.cp} GPUs; pick another context-parallel size or length.`;
  if (field.startsWith('parallel.tp') || field === 'parallel')
    return `This model's attention heads or widths do not split over tensor parallelism of ${s.tp}; pick a smaller one.`;
  if (field.startsWith('model'))
    return `The engine does not take this model at ${grouped(s.sequence)} tokens; pick a shorter sequence.`;
  if (field.startsWith('cluster') || field.startsWith('hardware'))
    return `${s.tp * s.cp} GPUs of this kind cannot hold this split; pick a smaller tensor- or context-parallel size.`;
  if (e?.code === 'too_large') return 'These settings are too large for the engine to lay out.';
  return 'The engine cannot lay out context parallelism for these settings; change one of them.';
}
