// Every published run the cost model is judged on, as one list: step requests with what was measured (throughput,
// peak memory, out of memory), each with the publication it comes from (the unit of leave-one-source-out).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace parascope::test {

struct PublishedRun {
  std::string source;    ///< the publication (one paper, one README, one benchmark page): held out as a whole
  std::string table;     ///< its table, for the printout
  std::string software;  ///< the request's software stack
  std::string family;    ///< the stack family its constants and error band belong to (pytorch-compile is pytorch)
  std::string label;
  std::string citation;          ///< where the row's numbers are printed (the fixture's "source", or the paper's table)
  nlohmann::json request;        ///< a step request (op included)
  std::string chip;              ///< the hardware preset the run's GPUs are ("" when none is named)
  double tokens_per_second = 0;  ///< measured, per GPU (0: none)
  double step_time = 0;          ///< measured seconds per step, where the source gives that instead (0: none)
  double peak_memory = 0;        ///< measured bytes (0: none)
  std::string memory_kind;       ///< "reserved" (torch.cuda.max_memory_reserved) or the source's word
  int oom = -1;                  ///< 1: the run ran out of memory, 0: it ran, -1: not reported
};

/// tests/fixtures/calibration-runs.jsonl and tests/fixtures/published-runs.jsonl, rows that need a field the engine
/// lacks ("needs") left out.
std::vector<PublishedRun> published_runs();

/// Every line of tests/fixtures/<name> as JSON.
std::vector<nlohmann::json> read_jsonl(const std::string& name);

/// The A100 GPT request of Narayanan et al. 2021 / Korthikanti et al. 2022 rows (Megatron-LM of 2021).
nlohmann::json megatron_2021_request(const nlohmann::json& row, const std::string& recompute, bool sequence_parallel);

}  // namespace parascope::test
