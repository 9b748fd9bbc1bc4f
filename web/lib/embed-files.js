// The embed loader's map (embed.js): each figure's code and engine. This is the sources' version: the figure's
// modules, imported one by one, and its engine's files as lib/widget-engines.js names them. scripts/bundle.mjs builds
// the site's loader with its own version in place of this one: each figure's bundle (its element, its engine's glue
// and lib/embed-figure.js in one file) and its engine's wasm, under their hashed names.
import { FIGURES } from '../widgets/index.js';
import { WIDGET_ENGINES } from './widget-engines.js';
import { WIDGET_MODULES } from './widget-modules.js';

/**
 * name -> [code(): resolves, once the figure's element is defined, to { showEmbed(name, wasm, compiling) } (what shows
 * it: lib/embed-figure.js, its engine's glue given), wasm(): its engine's URL], for each figure of widgets/index.js.
 */
export const EMBED_FILES = Object.fromEntries(
  FIGURES.map(({ name, tag }) => {
    const [engine, wasm, importGlue] = WIDGET_ENGINES[tag];
    const code = async () => {
      const [, { showEmbed }] = await Promise.all([WIDGET_MODULES[tag](), import('./embed-figure.js')]);
      return { showEmbed: (...args) => showEmbed(...args, [engine, importGlue]) };
    };
    return [name, [code, wasm]];
  }),
);
