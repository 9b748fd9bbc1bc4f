// ConfigDoc: a config file's leaves by dotted key, each read marked, the rest listed (config_doc.hpp).
#include "config_doc.hpp"

#include "json_text.hpp"
#include "request_reader.hpp"
#include "step_json.hpp"

namespace parascope::detail {

using nlohmann::json;

const json* ConfigDoc::get(const std::string& dotted) {
  if (!lines_.contains(dotted)) return nullptr;
  read_.insert(dotted);
  const json* at = &doc_;
  std::size_t from = 0;
  for (std::size_t dot; (dot = dotted.find('.', from)) != std::string::npos; from = dot + 1) {
    at = &(*at)[dotted.substr(from, dot - from)];
  }
  return &(*at)[dotted.substr(from)];
}

long long ConfigDoc::integer(const std::string& k, long long fallback, long long min) {
  const json* v = get(k);
  if (v == nullptr || v->is_null()) return fallback;
  if (!v->is_number_integer() || v->get<long long>() < min) bad(k, "a whole number ≥ " + std::to_string(min));
  return v->get<long long>();
}

double ConfigDoc::number(const std::string& k, double fallback, double min, double max) {
  const json* v = get(k);
  if (v == nullptr || v->is_null()) return fallback;
  if (!v->is_number() || v->get<double>() < min || v->get<double>() > max) {
    bad(k, "a number from " + dump_text(json(min)) + " to " + dump_text(json(max)));
  }
  return v->get<double>();
}

std::string ConfigDoc::text(const std::string& k, const std::string& fallback) {
  const json* v = get(k);
  if (v == nullptr || v->is_null()) return fallback;
  if (!v->is_string()) bad(k, "a string");
  return v->get<std::string>();
}

bool ConfigDoc::flag(const std::string& k, bool fallback) {
  const json* v = get(k);
  if (v == nullptr || v->is_null()) return fallback;
  if (!v->is_boolean()) bad(k, "true or false");
  return v->get<bool>();
}

void ConfigDoc::bad(const std::string& k, const std::string& want) {
  refuse(code::invalid_value, {k, " (line ", lines_[k].get<long long>(), ") must be ", want}, "text");
}

std::string ConfigDoc::key(const std::string& k) {
  return lines_.contains(k) ? k + " (line " + std::to_string(lines_[k].get<long long>()) + ")" : k + " (default)";
}

void ConfigDoc::unmap(const std::string& k, const std::string& why) {
  out_.unmapped.push_back({{"key", key(k)}, {"why", why}});
}

void ConfigDoc::finish(const char* (*ignored_reason)(const std::string& key), const std::string& unknown) {
  for (const auto& [k, line] : lines_.items()) {
    if (read_.count(k)) continue;
    if (const char* why = ignored_reason(k)) {
      out_.ignored.push_back({{"key", key(k)}, {"why", why}});
    } else {
      unmap(k, unknown);
    }
  }
}

void assume(ImportedRequest& out, const std::string& field, const std::string& why) {
  out.assumed.push_back({{"field", field}, {"why", why}});
}

void check_imported(const json& request, const char* what) {
  try {
    RequestReader reader(request, "");
    reader.accept("op");
    const StepRequest s = read_step_request(reader);
    reader.finish();
    check(s);
  } catch (const RequestError& e) {
    throw RequestError(e.code,
                       std::string(what) + " maps to a request the engine refuses: " + e.message + " (" + e.field + ")",
                       "text");
  }
}

}  // namespace parascope::detail
