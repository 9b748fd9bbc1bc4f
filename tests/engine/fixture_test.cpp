// Runs every case in tests/fixtures/api/*.txt through the engine and compares the response byte for byte.
// The wasm test (tests/js/fixtures.test.mjs) runs the same files, so native and wasm answers must be identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "parascope/api.hpp"

namespace {

struct FixtureCase {
  std::string file;
  std::string name;
  std::string request;
  std::string response;
};

/// A fixture file is a list of cases, each three lines: "# name", the request, the expected response.
std::vector<FixtureCase> load_cases() {
  std::vector<FixtureCase> cases;
  const auto dir = std::filesystem::path(PARASCOPE_SOURCE_DIR) / "tests" / "fixtures" / "api";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) lines.push_back(line);
    }
    for (std::size_t i = 0; i + 2 < lines.size(); i += 3) {
      cases.push_back({path.filename().string(), lines[i].substr(2), lines[i + 1], lines[i + 2]});
    }
    EXPECT_EQ(lines.size() % 3, 0u) << path << ": cases are three lines each";
  }
  return cases;
}

TEST(Fixtures, EveryCaseAnswersExactlyAsRecorded) {
  const auto cases = load_cases();
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    EXPECT_EQ(parascope::call(c.request), c.response) << c.file << ": " << c.name;
  }
}

}  // namespace
