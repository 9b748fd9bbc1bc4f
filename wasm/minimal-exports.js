// The widgets' own modules' glue (-sMINIMAL_RUNTIME, CMakeLists.txt) keeps the wasm's exports in its own variables:
// this hands web/lib/engine.js (skin) the calls and memory views it reads, under the names the full glue gave them.
Module['_parascope_call'] = (text, length) => _parascope_call(text, length);
Module['_parascope_answer_length'] = () => _parascope_answer_length();
Module['_parascope_attachment'] = () => _parascope_attachment();
Module['_parascope_attachment_length'] = () => _parascope_attachment_length();
Module['_malloc'] = (size) => _malloc(size);
Module['_free'] = (at) => _free(at);
// Views of the memory as it is now: a grown heap gets new ones (updateGlobalBufferAndViews).
Object.defineProperties(Module, { HEAPU8: { get: () => HEAPU8 }, HEAPF64: { get: () => HEAPF64 } });
