// Which link a ring of N GPUs runs on: the preset's intra-node link only while the ring fits in one node.

/**
 * hw: a hardware preset from the engine's `presets` op ({ name, intra_link, inter_link, gpus_per_node }).
 * wanted: the reader's choice, "intra" or "inter". Returns { link, fits, perNode, options, hint }: `link` is what the
 * ring really uses (a ring of more GPUs than a node holds crosses the network), `options` the menu with "inside one
 * node" disabled when it cannot hold the ring, `hint` the sentence beside the control ('' when nothing to say).
 */
export function ringLink(hw, gpus, wanted) {
  const perNode = hw.gpus_per_node > 0 ? hw.gpus_per_node : Infinity;
  const fits = gpus <= perNode;
  const link = wanted === 'intra' && !fits ? 'inter' : wanted;
  const options = [
    {
      value: 'intra',
      label: fits ? `${hw.intra_link} (inside one node)` : `${hw.intra_link} (one node: at most ${perNode})`,
      disabled: !fits,
    },
    { value: 'inter', label: `${hw.inter_link} (between nodes)`, disabled: false },
  ];
  const hint = fits
    ? ''
    : `A node holds ${perNode} of these, so a ring of ${gpus} spans nodes and crosses the network.`;
  return { link, fits, perNode, options, hint };
}
