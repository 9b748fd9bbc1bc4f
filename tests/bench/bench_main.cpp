// Runs every registered native benchmark case (tests/bench/*_bench.cpp) and prints its figures.
// `parascope_bench [FILTER] [--json FILE]`: only cases whose name contains FILTER; every figure also written to FILE as
// JSON ([{case, name, value, unit, target, request?}], read by tests/bench/run-web.mjs for build/bench/report.json).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench.hpp"

namespace parascope::bench {

namespace {
nlohmann::json& figures() {
  static nlohmann::json all = nlohmann::json::array();
  return all;
}
std::string current_case;
}  // namespace

std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

void report(const std::string& name, double value, const std::string& unit, const std::string& target) {
  std::printf("  %-58s %12.4g %-6s%s%s\n", name.c_str(), value, unit.c_str(),
              target.empty() ? "" : "  target: ", target.c_str());
  figures().push_back({{"case", current_case}, {"name", name}, {"value", value}, {"unit", unit}, {"target", target}});
}

void report_request(const std::string& name, const std::string& request, double seconds) {
  report(name, seconds * 1e6, "us");
  figures().back()["request"] = request;
}

}  // namespace parascope::bench

int main(int argc, char** argv) {
  const char* filter = nullptr;
  const char* json_file = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
      json_file = argv[++i];
    else
      filter = argv[i];
  }
  for (const auto& c : parascope::bench::registry()) {
    if (filter && !std::strstr(c.name.c_str(), filter)) continue;
    std::printf("%s\n", c.name.c_str());
    parascope::bench::current_case = c.name;
    c.run();
  }
  if (json_file) std::ofstream(json_file) << parascope::bench::figures().dump(2) << '\n';
  return 0;
}
