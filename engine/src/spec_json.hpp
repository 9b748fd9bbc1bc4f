/// Model shapes and hardware to and from JSON: one parser serves presets and requests, so both obey the same rules.
#pragma once

#include "parascope/hardware.hpp"
#include "parascope/model.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

/// Reads a model shape object (the field names of ModelShape); validates ranges and consistency.
ModelShape read_model_shape(RequestReader& r);
/// Reads a hardware object; peak_flops is required, the rest optional.
Hardware read_hardware(RequestReader& r);
/// `power_limit` in watts (default `fallback`), refused above `hw`'s board power where it gives one: the hardware
/// object's own limit and a cluster's are read alike.
double read_power_limit(RequestReader& r, double fallback, const Hardware& hw);

/// A request's "model": a preset id string or a shape object.
ModelShape resolve_model(RequestReader& request, const char* key);
/// A request's "hardware": a preset id string or a hardware object.
Hardware resolve_hardware(RequestReader& request, const char* key);

json model_to_json(const ModelShape& m);
json hardware_to_json(const Hardware& h);

}  // namespace parascope::detail
