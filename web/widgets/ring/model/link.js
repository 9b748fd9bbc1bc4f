// Which link a ring of N GPUs runs on: the preset's intra-node link only while the ring fits in one node.
import { rowName } from '../../../lib/model/engine-lists.js';

/**
 * hw: a hardware preset from the engine's `presets` op ({ name, intra_link, inter_link, gpus_per_node }).
 * wanted: the reader's choice, "intra" or "inter". Returns { link, fits, perNode, name, options, hint }: `link` is what
 * the ring really uses (a ring of more GPUs than a node holds crosses the network), `name` that link's name as a
 * narrow row shows it (rowName; the control's label names it), `options` the menu, each choice saying where the ring
 * runs (short enough for a 360 px row whatever the chip) with the link's whole name as its title, "inside one node"
 * disabled when it cannot hold the ring, `hint` the sentence beside the control ('' when nothing to say).
 */
export function ringLink(hw, gpus, wanted) {
  const perNode = hw.gpus_per_node > 0 ? hw.gpus_per_node : Infinity;
  const fits = gpus <= perNode;
  const link = wanted === 'intra' && !fits ? 'inter' : wanted;
  const options = [
    {
      value: 'intra',
      label: fits ? 'inside one node' : `inside one node (at most ${perNode})`,
      title: `${hw.intra_link}, inside one node`,
      disabled: !fits,
    },
    { value: 'inter', label: 'between nodes', title: `${hw.inter_link}, between nodes`, disabled: false },
  ];
  const hint = fits
    ? ''
    : `A node holds ${perNode} of these, so a ring of ${gpus} spans nodes and crosses the network.`;
  return { link, fits, perNode, name: rowName(link === 'intra' ? hw.intra_link : hw.inter_link), options, hint };
}
