// Runs every registered native benchmark case (tests/bench/*_bench.cpp) and prints its figures.
#include <cstdio>
#include <cstring>

#include "bench.hpp"

namespace parascope::bench {

std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

void report(const std::string& name, double value, const std::string& unit, const std::string& target) {
  std::printf("  %-58s %12.4g %-6s%s%s\n", name.c_str(), value, unit.c_str(), target.empty() ? "" : "  target: ",
              target.c_str());
}

}  // namespace parascope::bench

int main(int argc, char** argv) {
  for (const auto& c : parascope::bench::registry()) {
    if (argc > 1 && !std::strstr(c.name.c_str(), argv[1])) continue;
    std::printf("%s\n", c.name.c_str());
    c.run();
  }
  return 0;
}
