// The software-stack families of the track record (web/data/track-record.json's `family`), in a fixed order with the
// names a reader knows and a colour slot each (track.css: .family-<id>). The engine's own list is presets' `software`.

/** id: the record's family (also the `software` the engine's band is asked for); label: its name on screen. */
export const FAMILIES = [
  { id: 'pytorch', label: 'PyTorch-native' },
  { id: 'megatron-core', label: 'Megatron-Core' },
  { id: 'megatron-2021', label: 'Megatron-LM 2021' },
  { id: 'deepspeed', label: 'Megatron-DeepSpeed' },
  { id: 'xla', label: 'XLA (JAX)' },
];

/** The label of family `id` (the id itself for a family this list does not know). */
export function familyLabel(id) {
  return FAMILIES.find((f) => f.id === id)?.label ?? id;
}
