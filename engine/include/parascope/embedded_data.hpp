/// JSON data files compiled into the engine (engine/data/*.json, embedded at build time by embed_data.cmake).
#pragma once

#include <string_view>

namespace parascope::detail {

/// The text of engine/data/<name>.json, one function a file: a wasm module links only the files its code reads (a
/// lookup by name would link them all). A file added to engine/data/ gets its function here.
std::string_view embedded_data_error_bands();
std::string_view embedded_data_hardware();
std::string_view embedded_data_models();
std::string_view embedded_data_kineto_rules();  ///< the native CLI's alone: the wasm builds leave the file out

}  // namespace parascope::detail
