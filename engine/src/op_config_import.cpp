// The "config_import" op: a configuration file's text (a Hugging Face config.json, a Megatron-LM launch, a NeMo /
// Megatron-Bridge recipe YAML, a torchtitan TOML, a DeepSpeed JSON) read into a step request, with
// what could not be mapped, what was ignored and what was assumed, each with its reason (engine/API.md).
#include <string>

#include "config_import.hpp"
#include "config_import_formats.hpp"
#include "json_out.hpp"
#include "ops.hpp"
#include "parse_json.hpp"
#include "spec_json.hpp"

namespace parascope::detail {

namespace {

/// The 1-based line of byte `byte` (1-based, as nlohmann's parse_error counts) in `text`.
std::size_t line_of(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

/// The file's JSON object; a malformed file is refused naming its line.
json parse_config(const std::string& text) {
  json config;
  try {
    config = parse_json(text);
  } catch (const json::parse_error& e) {
    refuse(code::invalid_json, {"the config.json is not valid JSON at line ", line_of(text, e.byte)}, "text");
  } catch (const json::exception&) {
    refuse(code::invalid_json, {"the config.json holds a number out of range"}, "text");
  }
  if (!config.is_object()) refuse(code::wrong_type, {"a config.json holds one JSON object"}, "text");
  return config;
}

/// The imported model through the engine's own reader, so the request it answers is one `step` accepts.
void check_model(const json& model) {
  const json wrapped = {{"model", model}};
  RequestReader reader(wrapped, "");
  try {
    resolve_model(reader, "model");
  } catch (const RequestError& e) {
    throw RequestError(e.code, "the config maps to a model the engine refuses: " + e.message, "text");
  }
}

/// A launch configuration's answer: its whole request, and what it could not map.
json launch_import(const std::string& format, const std::string& text, ImportOptions options) {
  if (!options.given_base) options.base = json::object();
  ImportedRequest imported = format == "megatron"     ? import_megatron(text, options)
                             : format == "nemo"       ? import_nemo(text, options)
                             : format == "torchtitan" ? import_torchtitan(text, options)
                             : format == "nanotron"   ? import_nanotron(text, options)
                                                      : import_deepspeed(text, options);
  json out;
  put(out, "format", format);
  put(out, "request", std::move(imported.request));
  put(out, "unmapped", std::move(imported.unmapped));
  put(out, "ignored", std::move(imported.ignored));
  put(out, "assumed", std::move(imported.assumed));
  return out;
}

}  // namespace

json op_config_import(RequestReader& request) {
  const std::string format =
      request.choice("format", {"huggingface", "megatron", "nemo", "torchtitan", "deepspeed", "nanotron"});
  const json& text = request.value("text");
  if (!text.is_string()) refuse(code::wrong_type, {"text must be the file's text, a string"}, "text");
  const long long seq = request.integer_or("seq", 0, 1, 100'000'000);
  json base = {{"hardware", "h100-sxm"}, {"cluster", {{"gpus", 8}}}, {"parallel", {{"global_batch", 8}}}};
  const bool given_base = request.has("base");
  if (given_base) {
    base = request.value("base");
    if (!base.is_object()) {
      refuse(code::wrong_type, {"base must be a step request's object (without the model)"}, "base");
    }
  }
  const bool megatron_like = format == "megatron" || format == "nemo";  // the vocabulary from the tokenizer's files
  const long long vocab = megatron_like ? request.integer_or("vocab", 0, 1, 100'000'000) : 0;
  request.finish();
  if (format != "huggingface") return launch_import(format, text.get<std::string>(), {base, given_base, seq, vocab});

  ImportedModel imported = import_huggingface(parse_config(text.get<std::string>()), seq);
  check_model(imported.model);
  if (!given_base) {
    imported.assumed.push_back({{"field", "hardware, cluster, parallel"},
                                {"why",
                                 "a config.json describes the model only: 8 H100s, global batch 8, until "
                                 "you give `base`"}});
  }
  json step = base;
  step["op"] = "step";
  step["model"] = imported.model;
  json out;
  put(out, "format", format);
  put(out, "request", std::move(step));
  put(out, "unmapped", std::move(imported.unmapped));
  put(out, "ignored", std::move(imported.ignored));
  put(out, "assumed", std::move(imported.assumed));
  return out;
}

}  // namespace parascope::detail
