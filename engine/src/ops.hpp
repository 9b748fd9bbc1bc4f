/// The operations of the JSON API, one handler each; api.cpp dispatches on "op".
#pragma once

#include <functional>
#include <string_view>
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
json op_plan(RequestReader& request);

/// Dispatches a parsed request object on its "op" (throws RequestError).
json dispatch(const json& request);
/// call()'s frame around any answer: size limit, parse, object check, `answer`, the finite-number check, and every
/// failure turned into an error object. Never throws.
std::string respond(std::string_view request_text, const std::function<json(const json&)>& answer);
/// A response object as text, or an out_of_range error when a number in it is not finite.
std::string checked(const json& response);
/// The error object text of the exception in flight (call only inside a catch block).
std::string error_text();

}  // namespace parascope::detail
