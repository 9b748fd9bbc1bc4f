// The text of a file under tests/fixtures/, for the tests that import published configs.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace parascope::test {

/// tests/fixtures/<folder>/<name> as text; a failed expectation (and "") when it cannot be read.
inline std::string fixture_text(const std::string& folder, const std::string& name) {
  std::ifstream in(std::string(PARASCOPE_SOURCE_DIR) + "/tests/fixtures/" + folder + "/" + name);
  EXPECT_TRUE(in) << folder << "/" << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace parascope::test
