// The published runs as one list (tests/fixtures/*.jsonl), each turned into a step request and a measurement.
#include "published_runs.hpp"

#include <fstream>

#include "parascope/presets.hpp"

namespace parascope::test {

namespace {

using nlohmann::json;

/// Narayanan et al. 2021 Table 1 lists attention heads per model width (the jsonl leaves them out).
int heads_for(int hidden) {
  switch (hidden) {
    case 2304:
      return 24;
    case 3072:
      return 32;
    case 4096:
      return 32;
    case 6144:
      return 48;
    case 8192:
      return 64;
    case 10240:
      return 80;
    case 12288:
      return 96;
    case 16384:
      return 128;
    case 20480:
      return 128;
    case 25600:
      return 160;
  }
  return hidden / 128;
}

/// The publication a table belongs to: tables of one paper, README or benchmark page are one source.
std::string publication(const std::string& table) {
  for (const char* prefix : {"torchtitan-h100-202412", "torchtitan-asynctp", "torchtitan-trainy", "torchtitan-perf",
                             "llm-foundry", "bloom", "maxtext", "meta-llama3"}) {
    if (table.rfind(prefix, 0) == 0) return prefix;
  }
  return table;
}

std::string family_of(const std::string& software) {
  return software == "pytorch-compile" || software == "nanotron" ? "pytorch" : software;
}

/// Narayanan et al. 2021 count 96·B·s·l·h²·(1 + s/6h + V/16lh) FLOPs per iteration (Eq. 3, with recomputation).
double narayanan_step_time(const json& row) {
  const double B = row["gbs_seqs"], s = row["seq"], l = row["layers"], h = row["hidden"], V = row["vocab"];
  const double flops = 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
  return flops / (double(row["tflops_per_gpu"]) * 1e12 * double(row["gpus"]));
}

/// The hardware preset a row's GPUs are: the request's preset id, else the preset the fixture maps a hardware object
/// to ("hw", when it names a preset), else "".
std::string chip_of(const json& request, const json& row) {
  if (request.contains("hardware") && request["hardware"].is_string()) return request["hardware"];
  const std::string hw = row.value("hw", std::string());
  return parascope::find_hardware(hw) ? hw : "";
}

/// The calibration file's rows: Narayanan Tables 1 and 2, Korthikanti Table 5 (two runs a row), NeMo / Bridge runs.
void add_calibration_rows(std::vector<PublishedRun>& out) {
  for (const json& row : read_jsonl("calibration-runs.jsonl")) {
    PublishedRun run;
    if (row.contains("request")) {
      run.table = row["source"].get<std::string>().find("Megatron-Bridge") != std::string::npos ? "megatron-bridge"
                                                                                                : "nemo-24.07";
      run.software = row["software"];
      run.label = row["run"];
      run.citation = row["source"];
      run.request = row["request"];
      run.request["op"] = "step";
      run.tokens_per_second = row["measured_tokens_per_s_per_gpu"];
    } else if (row.contains("tflops_per_gpu")) {
      run.table = row.contains("pct_peak") ? "narayanan-2021-t1" : "narayanan-2021-t2";
      run.software = "megatron-2021";
      run.label = row["model"].get<std::string>() + ", " + std::to_string(row["gpus"].get<int>()) + " GPUs";
      run.citation = row.value("source", std::string("Narayanan et al. 2021, arXiv 2104.04473, Tables 1 and 2"));
      run.request = megatron_2021_request(row, "full", false);
      run.tokens_per_second =
          double(row["gbs_seqs"]) * double(row["seq"]) / narayanan_step_time(row) / double(row["gpus"]);
    } else if (row.contains("iter_s_full_recompute")) {
      for (const bool selective : {false, true}) {
        PublishedRun k;
        k.source = k.table = "korthikanti-2022";
        k.software = k.family = "megatron-2021";
        k.label = row["model"].get<std::string>() + (selective ? ", selective + SP" : ", full recompute");
        k.citation = row.value("source", std::string("Korthikanti et al. 2022, arXiv 2205.05198, Table 5"));
        k.request = megatron_2021_request(row, selective ? "selective" : "full", selective);
        const double seconds = row[selective ? "iter_s_seqpar_selective" : "iter_s_full_recompute"];
        k.tokens_per_second = double(row["gbs_seqs"]) * double(row["seq"]) / seconds / double(row["gpus"]);
        k.chip = chip_of(k.request, row);
        out.push_back(std::move(k));
      }
      continue;
    } else {
      continue;  // PaLM: judged by the mfu op (its FLOPs from a throughput), not a step request
    }
    run.source = publication(run.table);
    run.family = family_of(run.software);
    run.chip = chip_of(run.request, row);
    out.push_back(std::move(run));
  }
}

void add_published_rows(std::vector<PublishedRun>& out) {
  for (const json& row : read_jsonl("published-runs.jsonl")) {
    if (row.contains("needs") && !row["needs"].empty()) continue;
    PublishedRun run;
    run.table = row["source_id"];
    run.source = publication(run.table);
    run.software = row["software"];
    run.family = family_of(run.software);
    run.label = row["run"];
    run.citation = row["source"];
    run.request = row["request"];
    run.request["op"] = "step";
    run.chip = chip_of(run.request, row);
    const json& m = row["measured"];
    if (m.contains("tokens_per_s_per_gpu")) {
      run.tokens_per_second = m["tokens_per_s_per_gpu"];
    } else if (m.contains("step_time_s")) {
      run.step_time = m["step_time_s"];
    }
    if (m.contains("peak_memory_gib")) run.peak_memory = double(m["peak_memory_gib"]) * 1073741824.0;
    if (m.contains("peak_memory_gb")) run.peak_memory = double(m["peak_memory_gb"]) * 1e9;
    run.memory_kind = m.value("memory_kind", "");
    if (m.contains("oom")) run.oom = m["oom"].get<bool>() ? 1 : 0;
    out.push_back(std::move(run));
  }
}

}  // namespace

std::vector<json> read_jsonl(const std::string& name) {
  std::ifstream in(std::string(PARASCOPE_SOURCE_DIR) + "/tests/fixtures/" + name);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

json megatron_2021_request(const json& row, const std::string& recompute, bool sequence_parallel) {
  const int hidden = row["hidden"];
  const json model = {{"layers", row["layers"]},
                      {"hidden", hidden},
                      {"heads", row.contains("heads") ? row["heads"].get<int>() : heads_for(hidden)},
                      {"ffn", 4 * hidden},
                      {"vocab", row["vocab"]},
                      {"seq", row["seq"]},
                      {"activation", "gelu"},
                      {"bias", true},
                      {"norm", "layernorm"},
                      {"position_embedding", "learned"},
                      {"tied_embeddings", true}};
  const int vpp = row.value("vpp", 1);
  return {{"op", "step"},
          {"model", model},
          {"hardware", "a100-80gb"},
          {"cluster", {{"gpus", row.value("gpus", 0)}, {"gpus_per_node", 8}}},
          {"parallel",
           {{"tp", row["tp"]},
            {"pp", row["pp"]},
            {"dp", row["dp"]},
            {"vpp", vpp},
            {"microbatch_size", row.value("mbs", 1)},
            {"global_batch", row["gbs_seqs"]},
            {"schedule", vpp > 1 ? "interleaved" : "1f1b"},
            {"recompute", recompute},
            {"sequence_parallel", sequence_parallel}}},
          // Megatron-LM of 2021-22 (engine/API.md, `software`): unfused (but fused-softmax) attention, gradients
          // all-reduced after the pipeline flush, CUDA 11's cuBLAS.
          {"software", "megatron-2021"}};
}

std::vector<PublishedRun> published_runs() {
  std::vector<PublishedRun> out;
  add_calibration_rows(out);
  add_published_rows(out);
  return out;
}

}  // namespace parascope::test
