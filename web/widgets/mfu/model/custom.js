// The <parascope-mfu> modes that run a run not among its presets: a model, accelerator and GPU count given by
// attributes (a planned run), and a run imported from the reader's own config (config_import's request).
import { modelWords } from '../../../lib/model/model-words.js';
import { grouped } from '../../../lib/format.js';
import { deviceWords } from './devices.js';

export const MFU_CUSTOM = 'custom';
export const MFU_IMPORTED = 'imported';

/**
 * An imported step request (config_import's `request`, which the engine checked) as a preset-shaped run: its label,
 * where it runs, and the request's fields as the run; nothing published to compare with.
 */
export function importedRun(request, presets) {
  const { op: _op, ...run } = request;
  const hardware = presets.hardware.find((x) => x.id === run.hardware);
  const gpus = run.cluster?.gpus ?? 1;
  const words = deviceWords(presets, run.hardware);
  return {
    id: MFU_IMPORTED,
    label:
      typeof run.model === 'string'
        ? (presets.models.find((m) => m.id === run.model)?.name ?? run.model)
        : modelWords(run.model),
    where: `${grouped(gpus)} ${hardware?.name ?? run.hardware} ${gpus === 1 ? words.one : words.many}`,
    run,
    published: null,
  };
}
