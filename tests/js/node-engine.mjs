// Loads the built web engines (dist/) under node: the same modules the page and the planner's worker use, given the
// .wasm bytes directly.
import { readFile, readdir } from 'node:fs/promises';

const dist = new URL('../../dist/', import.meta.url);

/** The page's engine ({ call, callText }) running in node: every op but "plan". */
export async function nodeEngine() {
  const { loadEngine } = await import(new URL('lib/engine.js', dist));
  return handsOverLists(await loadEngine({ wasmBinary: await readFile(new URL('wasm/parascope.wasm', dist)) }));
}

/**
 * As a widget's enginePresets() does on a page: the engine's presets lists handed to the pure modules
 * (lib/model/engine-lists.js), both the sources' (web/) and the built copy's (dist/) that tests import. Returns engine.
 */
async function handsOverLists(engine) {
  const presets = engine.call({ op: 'presets' });
  for (const base of [dist, new URL('../../web/', import.meta.url)]) {
    (await import(new URL('lib/model/engine-lists.js', base))).useEngineLists(presets);
  }
  return engine;
}

/** The planner's engine (its own wasm: every op, "plan" and planSearch too) running in node. */
export async function nodePlannerEngine() {
  const { loadPlannerEngine } = await import(new URL('lib/engine.js', dist));
  return handsOverLists(
    await loadPlannerEngine({ wasmBinary: await readFile(new URL('wasm/parascope-planner.wasm', dist)) }),
  );
}

/** Whether a request text asks for the plan op (only the planner's engine answers it). */
export const isPlanRequest = (requestText) => /"op"\s*:\s*"plan"/.test(requestText);
/** The ops only the planner's module answers (CMakeLists.txt: PARASCOPE_WASM_OPS_parascope leaves them out). */
export const plannerOnlyOp = (requestText) =>
  requestText.match(/"op"\s*:\s*"(plan|config_import|config_export|run|nccl_fit)"/)?.[1];

/** Every case of tests/fixtures/api/*.txt: { file, name, request, response } with request/response as raw text. */
export async function fixtureCases() {
  const dir = new URL('../fixtures/api/', import.meta.url);
  const cases = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()) {
    const lines = (await readFile(new URL(file, dir), 'utf8')).split('\n').filter((l) => l.length > 0);
    if (lines.length % 3 !== 0) throw new Error(`${file}: cases are three lines each`);
    for (let i = 0; i < lines.length; i += 3) {
      cases.push({ file, name: lines[i].slice(2), request: lines[i + 1], response: lines[i + 2] });
    }
  }
  return cases;
}

/** Every wasm module dist/wasm holds (CMakeLists.txt's PARASCOPE_WASM_MODULES), by name: "parascope", "parascope-ring", … */
export async function wasmModuleNames() {
  return (await readdir(new URL('wasm/', dist)))
    .filter((f) => f.endsWith('.wasm') && !/-[A-Z2-7]{8}\.wasm$/.test(f)) // not the bundle's hashed copies
    .map((f) => f.slice(0, -'.wasm'.length))
    .sort();
}

/** The wasm module `name` (dist/wasm/<name>.{mjs,wasm}) wrapped like the page's engine, each a fresh instance. */
export async function nodeModuleEngine(name) {
  const { engineLoader } = await import(new URL('lib/engine.js', dist));
  const load = engineLoader(null, () => import(new URL(`wasm/${name}.mjs`, dist)));
  return load({ wasmBinary: await readFile(new URL(`wasm/${name}.wasm`, dist)) });
}
