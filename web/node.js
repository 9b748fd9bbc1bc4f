// The package in node (server rendering, build scripts, tests): "parascope" and "parascope/engine" resolve here under
// the `node` export condition. No custom element is defined (there is no DOM to define it in), and loadEngine reads
// the wasm from the package's own files on disk.
import { readFile } from 'node:fs/promises';

import { EngineError, loadEngine as loadFigures, loadPlannerEngine as loadPlanner } from './lib/engine.js';

const wasmFile = (name) => readFile(new URL(`./wasm/${name}.wasm`, import.meta.url));

/** Nothing registers in node: resolves to no element (what `registered` maps is every element that loaded). */
export const registered = Promise.resolve({});

/** The page's engine (every op but "plan"), its wasm read from disk unless `moduleOptions.wasmBinary` is given. */
export async function loadEngine(moduleOptions = {}) {
  return loadFigures({ wasmBinary: moduleOptions.wasmBinary ?? (await wasmFile('parascope')), ...moduleOptions });
}

/** The planner's engine (every op, "plan" and planSearch too), its wasm read from disk likewise. */
export async function loadPlannerEngine(moduleOptions = {}) {
  return loadPlanner({
    wasmBinary: moduleOptions.wasmBinary ?? (await wasmFile('parascope-planner')),
    ...moduleOptions,
  });
}

/** Assets are read from disk in node: a base has nothing to move (kept so that shared code may call it). */
export function setAssetBase() {}

export { EngineError };
export { engineLoader, plannerWasmUrl, useEngine } from './lib/engine.js';
