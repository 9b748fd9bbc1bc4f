// Loads the engine (WebAssembly) once per page; every widget shares it. call(request) -> response, or throws EngineError.
import createParascope from '../wasm/parascope.mjs';
import { EngineError } from './engine-error.js';

let loading = null;

/** Wraps the Embind module: JSON in, JSON out, error objects turned into EngineError. */
function wrap(module) {
  const answer = (request) => {
    const response = JSON.parse(module.call(JSON.stringify(request)));
    if (response.error) throw new EngineError(response.error);
    return response;
  };
  return {
    /** Answers one request object; throws EngineError when the engine refuses it. */
    call: answer,
    /**
     * Like call, for requests whose numbers come beside the JSON (e.g. pipeline ops_format "binary"): returns
     * { response, attachment }, the attachment a Float64Array copied out of the engine's memory.
     */
    callWithAttachment(request) {
      const response = answer(request);
      return { response, attachment: module.attachment().slice() };
    },
    /** Sends request text as is and returns the response text as is (for byte-exact tests and the console). */
    callText(requestText) {
      return module.call(requestText);
    },
  };
}

/**
 * Resolves to the page's engine, loading it on first use. `moduleOptions` reach Emscripten's factory on that first
 * call only (node tests pass { wasmBinary }). A failed load is forgotten so that a later call can try again.
 */
export function loadEngine(moduleOptions = {}) {
  loading ??= createParascope(moduleOptions)
    .then(wrap)
    .catch((err) => {
      loading = null;
      throw err;
    });
  return loading;
}

export { EngineError };
