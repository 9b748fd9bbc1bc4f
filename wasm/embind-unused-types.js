// An Emscripten JS library linked into every wasm module (CMakeLists.txt): Embind registers all its built-in types
// when a module starts, std::wstring among them, and that registration pulls the UTF-16 and UTF-32 string converters
// into the glue. No binding here takes or returns a wide string (wasm/bindings.cpp, wasm/plan_bindings.cpp:
// std::string, numbers and typed memory views), so wstring is left unregistered: ~0.5 KB gzip less glue per embed.
// A binding that ever used one would fail loudly at start-up ("unbound type"), in every test that loads the module.
mergeInto(LibraryManager.library, {
  _embind_register_std_wstring__deps: [],
  _embind_register_std_wstring: function (rawType, charSize, name) {},
});
