/// The operations of the JSON API, one handler each; api.cpp dispatches on "op".
#pragma once

#include <vector>

#include "request_reader.hpp"

namespace parascope::detail {

/// Every handler reads its fields from the request (the root object, "op" already read), calls finish(), and
/// returns the response object. Refusals are thrown as RequestError.
using OpHandler = json (*)(RequestReader& request);

/// The numbers an op attaches to its response (see parascope::last_attachment); emptied before every call.
std::vector<double>& attachment();

json op_version(RequestReader& request);
json op_presets(RequestReader& request);
json op_mfu(RequestReader& request);
json op_step(RequestReader& request);
json op_traffic(RequestReader& request);
json op_allreduce(RequestReader& request);
json op_allgather(RequestReader& request);
json op_reducescatter(RequestReader& request);
json op_alltoall(RequestReader& request);
json op_moe_route(RequestReader& request);
json op_placement(RequestReader& request);
json op_pipeline(RequestReader& request);

}  // namespace parascope::detail
