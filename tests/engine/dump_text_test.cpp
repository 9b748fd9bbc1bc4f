// The engine's JSON writer (json_text.hpp: dump_text, dump_indented) against the one it replaces, nlohmann's dump (with
// error_handler_t::replace), byte for byte: on trees of every type, indented or not, and on random and malformed bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "../../engine/src/json_text.hpp"

namespace parascope::detail {
namespace {

std::string nlohmann_text(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

TEST(DumpText, TreesOfEveryTypeAsNlohmannWritesThem) {
  const json trees[] = {
      json(nullptr),
      json(true),
      json(false),
      json(0),
      json(-1),
      json(std::numeric_limits<std::int64_t>::min()),
      json(std::numeric_limits<std::uint64_t>::max()),
      json(0.0),
      json(-0.0),
      json(1.0),
      json(0.1),
      json(2.5e-7),
      json(1e300),
      json(std::numeric_limits<double>::denorm_min()),
      json(std::numeric_limits<double>::infinity()),
      json(std::numeric_limits<double>::quiet_NaN()),
      json(""),
      json("a \"quoted\" \\ path/\b\f\n\r\t\x01\x1f\x7f é 🚀"),
      json::object(),
      json::array(),
      json::parse(R"({"z": [1, 2.5, {"b": null, "a": "x"}], "a": {"nested": [[], {}]}, "é": true})"),
  };
  for (const json& tree : trees) {
    EXPECT_EQ(dump_text(tree), nlohmann_text(tree)) << nlohmann_text(tree);
    EXPECT_EQ(dump_indented(tree, 2), tree.dump(2)) << nlohmann_text(tree);
    EXPECT_EQ(dump_indented(tree, 4), tree.dump(4)) << nlohmann_text(tree);
  }
}

TEST(DumpText, MalformedUtf8BecomesReplacementCharactersAsNlohmannWritesThem) {
  const std::string cases[] = {
      "\x80",         "\xC0\xAF",     "\xC1\xBF",         "\xC2",         "\xC2\x41",     "\xE0\x80\x80",
      "\xE0\x9F\xBF", "\xE0\xA0",     "\xED\xA0\x80",     "\xED\x9F\xBF", "\xEF\xBF\xBF", "\xF0\x8F\xBF\xBF",
      "\xF0\x90\x80", "\xF4\x90\x80", "\xF4\x8F\xBF\xBF", "\xF5\x80",     "\xFF",         "a\xE2\x82z\xE2\x82\xAC",
      "\xE2\x28\xA1", "\xF0\x28\x8C", "\x22\xC3",         "\xC3\x22",
  };
  for (const std::string& s : cases) EXPECT_EQ(dump_text(json(s)), nlohmann_text(json(s))) << nlohmann_text(json(s));
}

TEST(DumpText, RandomBytesAsNlohmannWritesThem) {
  std::mt19937 random(20261207);
  // Bytes drawn mostly from the edges of UTF-8's ranges, so that sequences start, continue and break often.
  const unsigned char edges[] = {0x00, 0x08, 0x1F, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF};
  for (int round = 0; round < 20000; ++round) {
    std::string s(random() % 12, '\0');
    for (char& c : s) {
      c = static_cast<char>(random() % 4 == 0 ? random() % 256 : edges[random() % sizeof edges]);
    }
    ASSERT_EQ(dump_text(json(s)), nlohmann_text(json(s))) << "round " << round;
  }
}

}  // namespace
}  // namespace parascope::detail
