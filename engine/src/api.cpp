// The JSON API: parse, dispatch on "op", and turn every failure into an error object. Nothing escapes call().
#include "parascope/api.hpp"

#include <cmath>
#include <new>
#include <utility>

#include "json_out.hpp"
#include "json_text.hpp"
#include "ops.hpp"
#include "parse_json.hpp"
#include "pipeline_compiled.hpp"

namespace parascope {

namespace {

using detail::all_finite;
using detail::dump_text;
using detail::json;
using detail::put;
using detail::put_object;

/// Response text. Strings may hold bytes that are not UTF-8 (a parse error quotes the bytes it read last): those are
/// written as U+FFFD (dump_text, as nlohmann's error_handler_t::replace), so such a request gets its invalid_json
/// answer, not an internal error.
std::string text(const json& response) { return dump_text(response); }

json error_object(const std::string& code, const std::string& message, const std::string& field) {
  json out;
  json& error = put_object(out, "error");
  put(error, "code", code);
  put(error, "message", message);
  if (field.empty()) {
    put(error, "field", nullptr);
  } else {
    put(error, "field", field);
  }
  return out;
}

/// The first number in an answer that is not finite (JSON would write it as null), as a dotted path; "" when none.
/// The request limits keep every answer finite (engine/API.md); this is the backstop that turns a miss into an error.
/// A path is built only down the branch that holds the number (an answer may hold half a million numbers).
std::string first_non_finite(const json& v, const std::string& path) {
  if (v.is_number_float()) return std::isfinite(v.get<double>()) ? "" : path;
  if (v.is_object()) {
    for (const auto& [key, child] : v.items()) {
      if (!all_finite(child)) return first_non_finite(child, path.empty() ? key : path + "." + key);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!all_finite(v[i])) return first_non_finite(v[i], path + "[" + std::to_string(i) + "]");
    }
  }
  return "";
}

}  // namespace

namespace detail {

json dispatch(const json& request) {
  detail::RequestReader reader(request, "");
  const json& op = reader.value("op");
  if (!op.is_string()) {
    throw RequestError(code::wrong_type, "op must be a string naming an operation", "op");
  }
  const std::string name = op.get<std::string>();
  const OpTable ops = op_table();
  for (const Op* candidate = ops.begin; candidate != ops.end; ++candidate) {
    if (name != candidate->name) continue;
    if (candidate->handler) return candidate->handler(reader);
    // A wasm module built for a few widgets leaves the other ops' code out (CMakeLists.txt, parascope_wasm_module).
    refuse_elsewhere("the " + name + " op", candidate->elsewhere, "", "op");
  }
  std::string names;
  for (const Op* candidate = ops.begin; candidate != ops.end; ++candidate) {
    names += (names.empty() ? "" : ", ") + std::string(candidate->name);
  }
  throw RequestError(code::unknown_op, "unknown op \"" + name + "\"; ops: " + names, "op");
}

void refuse_elsewhere(const std::string& what, const char* elsewhere, const char* tail, const char* field) {
  refuse(code::unknown_op,
         {what, " is answered by the ", elsewhere, " engine (wasm/", elsewhere, ".wasm), not by this one (",
          op_table().engine, ")", tail},
         field);
}

const char* elsewhere_of(std::string_view op) {
  const OpTable ops = op_table();
  for (const Op* candidate = ops.begin; candidate != ops.end; ++candidate) {
    if (op == candidate->name && candidate->elsewhere) return candidate->elsewhere;
  }
  return "parascope";
}

std::vector<double>& attachment() {
  thread_local std::vector<double> numbers;
  return numbers;
}

bool read_request(std::string_view request_text, json& request, std::string& refusal) {
  if (request_text.size() > kMaxRequestBytes) {
    refusal = text(error_object(code::too_large, "the request is larger than 1 MiB", ""));
    return false;
  }
  // JSON text holds no NUL byte (a string spells it \u0000); the parser would take one for the end of the text and
  // answer what came before it, so `{"op":"version"}<NUL>anything` is refused here like any other stray byte.
  if (const auto nul = request_text.find('\0'); nul != std::string_view::npos) {
    refusal = text(error_object(code::invalid_json,
                                "the request is not valid JSON: byte " + std::to_string(nul + 1) +
                                    " is NUL (0x00), which JSON text never holds (in a string, write \\u0000)",
                                ""));
    return false;
  }
  try {
    request = detail::parse_json(request_text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number that overflows a double
    // e.what() reads "[json.exception.parse_error.101] parse error at ...": keep what follows "] ".
    std::string why = e.what();
    why = why.substr(why.find("] ") == std::string::npos ? 0 : why.find("] ") + 2);
    if (why.find("ill-formed UTF-8") != std::string::npos) {
      why += " (a request is UTF-8 text: a lone UTF-16 surrogate or another encoding's bytes cannot be read)";
    }
    refusal = text(error_object(code::invalid_json, "the request is not valid JSON: " + why, ""));
    return false;
  }
  if (!request.is_object()) {
    refusal = text(error_object(code::invalid_request, "the request must be a JSON object with an \"op\" field", ""));
    return false;
  }
  return true;
}

std::string checked(const json& response) {
  if (const std::string where = first_non_finite(response, ""); !where.empty()) {
    attachment().clear();
    return text(error_object(code::out_of_range,
                             "the answer's " + where +
                                 " overflows a double: the request's numbers are too far apart "
                                 "in scale to compute it",
                             ""));
  }
  return text(response);
}

std::string refused(const RequestError& e) {
  attachment().clear();
  return text(error_object(e.code, e.message, e.field));
}

std::string out_of_memory() {
  attachment().clear();
  return text(error_object(code::too_large, "the request needs more memory than is available", ""));
}

std::string internal_error(const char* what) {
  attachment().clear();
  return text(
      error_object(code::internal_error, what[0] ? std::string("internal error: ") + what : "internal error", ""));
}

}  // namespace detail

const std::vector<double>& last_attachment() { return detail::attachment(); }

std::string call(std::string_view request_text) {
  // The last call's numbers are released, not just cleared: a big attachment's memory would otherwise stay taken in
  // the wasm heap (which never shrinks) under every later request (engine/API.md, "Cost of the largest request").
  std::vector<double>().swap(detail::attachment());
  std::string response = detail::answer_or_error([&] {
    json request;
    std::string refusal;
    if (!detail::read_request(request_text, request, refusal)) return refusal;
    const json answer = detail::dispatch(request);
    // An answer too large to build as a tree comes as text (json_text.hpp: the timeline's columns and trace).
    if (!detail::text_answer().empty()) return std::move(detail::text_answer());
    return detail::checked(answer);
  });
  std::string().swap(detail::text_answer());  // released, like the attachment: the wasm heap never shrinks
  detail::trim_compiled_pipelines();          // keep only small schedules compiled for the next call
  return response;
}

bool is_error_response(std::string_view response_text) { return response_text.substr(0, 9) == "{\"error\":"; }

}  // namespace parascope
