// Loads the engine (WebAssembly) once per page; every widget shares it. call(request) -> response, or throws EngineError.
import { EngineError } from './engine-error.js';

let loading = null;

/** Wraps the Embind module: JSON in, JSON out, error objects turned into EngineError. */
function wrap(module) {
  // Text longer than the engine reads is cut just past its limit before it is copied into wasm memory: the engine
  // still refuses it (too_large), but a 300 MB string no longer grows the heap. UTF-8 is never shorter than the
  // string's UTF-16 length, so a longer string is always over the limit.
  const limit = JSON.parse(module.call('{"op":"version"}')).max_request_bytes;
  const send = (text) => module.call(text.length > limit ? text.slice(0, limit + 1) : text);
  const answer = (request) => {
    let text;
    try {
      text = JSON.stringify(request);
    } catch (err) {  // nested too deeply for the JS stack, a cycle, a BigInt: the request cannot even be written
      throw new EngineError({ code: 'invalid_request', message: `the request cannot be written as JSON (${err.message})`, field: null });
    }
    const response = JSON.parse(send(text));
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
      return send(requestText);
    },
  };
}

/**
 * Resolves to the page's engine, loading it on first use. `moduleOptions` reach Emscripten's factory on that first
 * call only (node tests pass { wasmBinary }). A failed load is forgotten so that a later call can try again.
 */
export function loadEngine(moduleOptions = {}) {
  // Imported on first use, so a missing or blocked engine file is a failed load the widget can report in place.
  loading ??= import('../wasm/parascope.mjs')
    .then(({ default: createParascope }) => createParascope(moduleOptions))
    .then(wrap)
    .catch((err) => {
      loading = null;
      throw err;
    });
  return loading;
}

export { EngineError };
