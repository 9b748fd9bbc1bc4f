/// The operations of the JSON API, one handler each; api.cpp dispatches on "op".
#pragma once

#include <exception>
#include <new>
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
/// Reads request text into `request`: false, with the error object text in `refusal`, when it is too large, not
/// JSON or not an object. Never throws.
bool read_request(std::string_view request_text, json& request, std::string& refusal);
/// A response object as text, or an out_of_range error when a number in it is not finite.
std::string checked(const json& response);
/// The error object text of a refusal, of running out of memory, and of any other failure (`what` may be ""); each
/// clears the attachment. Callers catch by type around their own work and call these (see call() in api.cpp).
std::string refused(const RequestError& e);
std::string out_of_memory();
std::string internal_error(const char* what);

/// `body()`'s answer text, or the error object of whatever it throws, caught by type right here. A template (inlined
/// around the caller's own work), not a std::function or a catch(...){ throw; } helper: with wasm exceptions,
/// WebKit's JavaScriptCore trapped when a refusal crossed such frames. Never throws.
template <class Body>
std::string answer_or_error(Body&& body) {
  try {
    return body();
  } catch (const RequestError& e) {
    return refused(e);
  } catch (const std::bad_alloc&) {
    return out_of_memory();
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("");
  }
}

}  // namespace parascope::detail
