// Loads the engine (WebAssembly) once per page; every widget shares it. call(request) -> response, or throws EngineError.
// Once per page however the package is imported: "parascope" (its bundle) and "parascope/engine" (this file) are two
// copies of this module, and their state is one object on globalThis.
import { asset } from './assets.js';
import { EngineError } from './engine-error.js';

/** The figures' wasm, beside the glue (the production build points this at its content-hashed copy). */
const wasmUrl = () => asset(new URL('../wasm/parascope.wasm', import.meta.url), 'wasm/parascope.wasm');
/** The planner's wasm: resolved here, on the page, and posted to its worker (widgets/planner/client.js). */
export const plannerWasmUrl = () =>
  asset(new URL('../wasm/parascope-planner.wasm', import.meta.url), 'wasm/parascope-planner.wasm');

/**
 * The page's engines and the early download, shared by every copy of this module on the page; `own`: loadEngine loads a
 * widget's own module (useEngine), and `whole` then loads the figures' one when asked (loadFiguresEngine).
 */
const shared = (globalThis[Symbol.for('parascope.engines')] ??= {
  figures: null,
  planner: null,
  early: null,
  own: false,
  whole: null,
});

/**
 * A module's download and compilation, streamed (null outside a browser, e.g. node). On a page the figures' engine
 * starts as soon as this module runs (after the page's own code in the same task, which may call setAssetBase), not
 * when the first widget scrolls in; in a worker (the planner's) nothing starts until its engine is asked for.
 */
const inBrowser = typeof window !== 'undefined' || typeof WorkerGlobalScope !== 'undefined';
const startCompiling = (url) =>
  inBrowser && typeof WebAssembly?.compileStreaming === 'function' && typeof fetch === 'function'
    ? WebAssembly.compileStreaming(fetch(url, { credentials: 'same-origin' }))
    : null;
// A page that shows one widget alone (embed.html: <html data-engine="widget">) starts that widget's own engine instead
// (lib/widget-engines.js).
if (
  typeof window !== 'undefined' &&
  typeof WebAssembly?.compileStreaming === 'function' &&
  document.documentElement.dataset.engine !== 'widget' &&
  !shared.early
) {
  shared.early = new Promise((resolve) => {
    queueMicrotask(resolve);
  }).then(() => startCompiling(wasmUrl()));
  shared.early.catch(() => {}); // a failure is reported by loadEngine, which tries again
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isWellFormed = (text) =>
  typeof text.isWellFormed === 'function' ? text.isWellFormed() : !LONE_SURROGATE.test(text);

/** The bytes of `text` in UTF-8, with each lone surrogate written as its own 3 bytes (WTF-8: not valid UTF-8). */
function wtf8(text) {
  const bytes = [];
  for (const ch of text) {
    // iterates code points; a lone surrogate comes alone
    const c = ch.codePointAt(0);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(bytes);
}

/** The dotted path ("a.b[2]") of the first NaN or ±Infinity in `value`, or null (JSON would write it as null). */
function nonFiniteField(value, path = '', seen = new Set()) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (value === null || typeof value !== 'object' || seen.has(value)) return null;
  seen.add(value);
  const entries = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v])
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  for (const [at, v] of entries) {
    const found = nonFiniteField(typeof v?.toJSON === 'function' ? v.toJSON() : v, at, seen);
    if (found) return found;
  }
  return null;
}

/**
 * A widget's own module (no Embind: wasm/exports.cpp) as the Embind skin's call(text or UTF-8 bytes) -> text and
 * attachment() -> a view of its numbers; the Embind modules (the figures', the planner's) are returned as they are.
 */
function skin(module) {
  if (!module._parascope_call) return module;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    call(text) {
      const bytes = typeof text === 'string' ? encoder.encode(text) : text;
      const at = module._malloc(bytes.length + 1); // never malloc(0)
      try {
        module.HEAPU8.set(bytes, at);
        const answer = module._parascope_call(at, bytes.length);
        return decoder.decode(module.HEAPU8.subarray(answer, answer + module._parascope_answer_length()));
      } finally {
        module._free(at);
      }
    },
    attachment() {
      const first = module._parascope_attachment() / 8;
      return module.HEAPF64.subarray(first, first + module._parascope_attachment_length());
    },
  };
}

/** Wraps the engine's module: JSON in, JSON out, error objects turned into EngineError. */
function wrap(module) {
  // Text longer than the engine reads is cut just past its limit before it is copied into wasm memory: the engine
  // still refuses it (too_large), but a 300 MB string no longer grows the heap. UTF-8 is never shorter than the
  // string's UTF-16 length, so a longer string is always over the limit.
  const limit = JSON.parse(module.call('{"op":"version"}')).max_request_bytes;
  const prepare = (text) => {
    const cut = text.length > limit ? text.slice(0, limit + 1) : text;
    // A lone UTF-16 surrogate has no UTF-8 form, and Embind's encoder would swallow the character after it. Such text
    // goes in as bytes, each lone surrogate as its 3-byte generalized UTF-8 (WTF-8), which the engine refuses as
    // invalid_json exactly as the native CLI refuses the same bytes.
    return isWellFormed(cut) ? cut : wtf8(cut);
  };
  const send = (text) => module.call(prepare(text));
  const write = (request) => {
    let text;
    try {
      text = JSON.stringify(request);
    } catch (err) {
      // nested too deeply for the JS stack, a cycle, a BigInt: the request cannot even be written
      throw new EngineError({
        code: 'invalid_request',
        message: `the request cannot be written as JSON (${err.message})`,
        field: null,
      });
    }
    if (typeof text !== 'string') {
      // undefined, a function, a symbol: JSON has no text for it
      throw new EngineError({
        code: 'invalid_request',
        message: 'the request must be a JSON object with an "op" field',
        field: null,
      });
    }
    if (text.includes('null')) {
      // JSON writes NaN and ±Infinity as null: name the field the caller sent them in
      const field = nonFiniteField(request);
      if (field) throw new EngineError({ code: 'not_finite', message: `${field} must be finite`, field });
    }
    return text;
  };
  const parse = (text) => {
    const response = JSON.parse(text);
    if (response.error) throw new EngineError(response.error);
    return response;
  };
  const answer = (request) => parse(send(write(request)));
  return {
    /** Answers one request object; throws EngineError when the engine refuses it. */
    call: answer,
    /**
     * Like call, for requests whose numbers come beside the JSON (e.g. pipeline ops_format "binary"): returns
     * { response, attachment }, the attachment a Float64Array copied out of the engine's memory. `reuse`: an attachment
     * this caller got before and no longer needs; its memory is overwritten when it is big enough, so a caller asking
     * again and again (a slider) does not allocate megabytes per step. Without it the copy is always new.
     */
    callWithAttachment(request, reuse = null) {
      const response = answer(request);
      const numbers = module.attachment();
      const n = numbers.length;
      const store =
        reuse?.buffer.byteLength >= n * 8 && reuse.BYTES_PER_ELEMENT === 8
          ? new Float64Array(reuse.buffer, 0, n)
          : new Float64Array(Math.ceil(n * 1.25)).subarray(0, n); // room to grow a little without a new buffer
      store.set(numbers);
      return { response, attachment: store };
    },
    /**
     * A "plan" request searched a slice at a time (a Web Worker's way, so that it can report progress and stop):
     * advance(n) considers up to n more configurations and returns { done, evaluated, total } (evaluated counts the
     * configurations considered so far; it reaches total when done); result() returns the plan op's answer (finishing
     * the search first if needed). Both throw EngineError when the engine refuses the request. dispose() frees the
     * search's memory in the engine: call it when done or abandoned. Only the planner's engine (loadPlannerEngine)
     * searches; the figures' engine throws its refusal of the plan op.
     */
    planSearch(request) {
      if (!module.PlanSearch) parse(send('{"op":"plan"}'));
      let search = new module.PlanSearch(prepare(write(request)));
      const live = () => {
        if (!search) throw new Error('planSearch: this search was disposed');
        return search;
      };
      return {
        advance: (n) => parse(live().advance(n)),
        result: () => parse(live().result()),
        dispose() {
          search?.delete();
          search = null;
        },
      };
    },
    /** Sends request text as is and returns the response text as is (for byte-exact tests and the console). */
    callText(requestText) {
      return send(requestText);
    },
  };
}

/**
 * One wasm module's loader: resolves to its wrapped engine, loading it on first use. `moduleOptions` reach Emscripten's
 * factory on that first call only (node tests pass { wasmBinary }). A failed load is forgotten so that a later call can
 * try again. `importGlue` is a literal import() (the production bundle inlines the glue; the unbundled files, e.g. from
 * the package, fetch it then, so a missing or blocked engine file is a failed load the widget reports in place).
 */
export function engineLoader(wasmUrl, importGlue, compiling = null) {
  let loading = null;
  return (moduleOptions = {}) => {
    if (loading) return loading;
    const options = { ...moduleOptions };
    let failed = new Promise(() => {});
    let wasm = options.wasmBinary;
    if (!options.wasmBinary && !options.instantiateWasm) {
      compiling ??= startCompiling(wasmUrl);
      const compiled = compiling;
      if (compiled) {
        wasm = compiled;
        // Instantiate the module compiled above (Emscripten's hook); a failed download or compile rejects the load.
        failed = new Promise((_, reject) => {
          options.instantiateWasm = (imports, receive) => {
            compiled
              .then((module) => WebAssembly.instantiate(module, imports))
              .then((instance) => receive(instance), reject);
            return {};
          };
        });
      }
    }
    // The widgets' own modules' glue (Emscripten's minimal runtime: CMakeLists.txt) fetches nothing: it instantiates
    // `wasm`, the module compiled above or its bytes, given with the options. The Embind modules' glue ignores it.
    const created = Promise.all([importGlue(), wasm]).then(([{ default: createParascope }, module]) =>
      createParascope({ ...options, wasm: module }),
    );
    loading = Promise.race([created, failed])
      .then((module) => wrap(skin(module)))
      .catch((err) => {
        loading = null;
        compiling = null;
        throw err;
      });
    return loading;
  };
}

/**
 * Resolves to the page's engine (wasm/parascope.wasm: every op but "plan"), loading it on first use; every widget
 * shares it. `moduleOptions` as for Emscripten's factory, on the first call only (node passes { wasmBinary }: the
 * package's node entry does it for you).
 */
export function loadEngine(moduleOptions = {}) {
  shared.figures ??= engineLoader(wasmUrl(), () => import('../wasm/parascope.mjs'), shared.early);
  return shared.figures(moduleOptions);
}

/**
 * Makes loadEngine load another module (a widget's own: lib/widget-engines.js) and starts its download and its glue's
 * import at once. Only before the page's first loadEngine (later, the page keeps the engine it has). `planner`: the
 * module is the planner's, which loadPlannerEngine then shares rather than loading it a second time. `compiling`: its
 * download already started (WebAssembly.compileStreaming of `wasm`: the embed's loader, embed.js, starts it first).
 */
export function useEngine(wasm, importGlue, { planner = false, compiling = startCompiling(wasm) } = {}) {
  if (shared.figures) return;
  shared.own = true;
  let glue = importGlue();
  for (const started of [glue, compiling]) started?.catch(() => {}); // a failure is reported by loadEngine
  shared.figures = engineLoader(
    wasm,
    () => {
      const started = glue ?? importGlue();
      glue = null;
      return started;
    },
    compiling,
  );
  if (planner) shared.planner ??= shared.figures; // the planner's module alone: loadPlannerEngine answers with it too
}

/** The modules that answer, alone on a page, what the article asks the planner's module for (run, nccl_fit). */
const PLANNER_OPS_MODULES = new Set(['parascope-planner', 'parascope-run-engine', 'parascope-nccl-engine']);

/**
 * useEngine for the wasm module `name` (widgets/index.js's `engine`: lib/widget-engines.js, and a figure's own embed
 * bundle, lib/embed-figure.js, which so carries no other module's table), from `wasm` (its URL) and `importGlue`;
 * `compiling`: its download, when the page started it already (the embed's loader).
 */
export function useModule(name, wasm, importGlue, compiling) {
  useEngine(wasm, importGlue, { planner: PLANNER_OPS_MODULES.has(name), ...(compiling && { compiling }) });
}

/**
 * Resolves to the figures' engine (wasm/parascope.wasm: every op but the planner's, every format of each), for what a
 * widget's own module leaves to it (lib/widget-engines.js; the timeline's "chrome": <parascope-step>'s trace download):
 * loadEngine's own on a page that runs it (the article), else loaded now, on first use, from the same place.
 */
export function loadFiguresEngine() {
  if (!shared.own) return loadEngine();
  shared.whole ??= engineLoader(wasmUrl(), () => import('../wasm/parascope.mjs'));
  return shared.whole();
}

/**
 * Resolves to the planner's engine (wasm/parascope-planner.wasm: every op, "plan" too, and planSearch), loading it on
 * first use: <parascope-planner>'s worker loads it, so pages and widgets without a planner never download its code.
 * `wasm`: the URL to fetch it from (the worker is posted the one the page resolved: bundlers copy the worker as it is).
 */
export function loadPlannerEngine(moduleOptions = {}, wasm = null) {
  shared.planner ??= engineLoader(wasm ?? plannerWasmUrl(), () => import('../wasm/parascope-planner.mjs'));
  return shared.planner(moduleOptions);
}

export { EngineError };
