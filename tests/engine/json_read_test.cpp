// Our JSON reader (parse_json.hpp, json_read.cpp) against the one it replaces, nlohmann's json::parse: the same value
// (number kinds included) or the same exception (type, id, message, byte offset), on every fixture request, on hand-
// picked edge cases and on generated text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../../engine/src/parse_json.hpp"

namespace parascope::detail {
namespace {

using nlohmann::json;

/// The value's types and contents, number kinds told apart (json's == takes 1u and 1 as equal).
std::string typed(const json& v) {
  std::string out;
  switch (v.type()) {
    case json::value_t::object:
      out = "{";
      for (const auto& [key, item] : v.items()) out += json(key).dump() + ":" + typed(item) + ",";
      return out + "}";
    case json::value_t::array:
      out = "[";
      for (const json& item : v) out += typed(item) + ",";
      return out + "]";
    case json::value_t::number_unsigned:
      return "u" + v.dump();
    case json::value_t::number_integer:
      return "i" + v.dump();
    case json::value_t::number_float:
      return "f" + v.dump();
    default:
      return v.dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

/// What a reader makes of `text`: its value, or its exception's kind, id, message and byte.
template <typename Read>
std::string outcome(Read read, const std::string& text) {
  try {
    return "value " + typed(read(text));
  } catch (const json::parse_error& e) {
    return "parse_error " + std::to_string(e.id) + " at " + std::to_string(e.byte) + ": " + e.what();
  } catch (const json::out_of_range& e) {
    return "out_of_range " + std::to_string(e.id) + ": " + e.what();
  }
}

/// Checks that both readers make the same of `text`; returns what nlohmann's made of it ("value ...", "parse_error
/// ...", "out_of_range ...").
std::string same_as_nlohmann(const std::string& text) {
  const std::string theirs = outcome([](const std::string& t) { return json::parse(t); }, text);
  const std::string ours = outcome([](const std::string& t) { return parse_json(t); }, text);
  EXPECT_EQ(ours, theirs) << "text: " << json(text).dump(-1, ' ', true, json::error_handler_t::replace);
  return theirs;
}

/// How many outcomes of each kind (their first word) a run of cases had.
void tally(std::map<std::string, int>& kinds, const std::string& outcome) {
  ++kinds[outcome.substr(0, outcome.find(' '))];
}

TEST(JsonRead, EdgeCasesAsNlohmannReadsThem) {
  const std::vector<std::string> cases = {
      "",
      " ",
      "\n\n  ",
      "{}",
      "[]",
      "{} ",
      " [ ] ",
      "null",
      "true",
      "false",
      "nul",
      "tru",
      "fals",
      "falsy",
      "x",
      "0",
      "-0",
      "01",
      "-",
      "-a",
      "1.",
      "1.5",
      "1e",
      "1e+",
      "1e-5",
      "1E5",
      "-1.5e300",
      "1e999",
      "-1e999",
      "1e-999",
      "18446744073709551615",
      "18446744073709551616",
      "-9223372036854775808",
      "-9223372036854775809",
      "123456789012345678901234567890",
      "0.1e1",
      ".5",
      "+1",
      "\"",
      "\"abc",
      "\"a\\\"b\"",
      "\"\\u0041\"",
      "\"\\u00e9\\u20AC\"",
      "\"\\ud83d\\ude80\"",
      "\"\\ud800\"",
      "\"\\ud800x\"",
      "\"\\ud800\\u0041\"",
      "\"\\udc00\"",
      "\"\\u12\"",
      "\"\\u12g4\"",
      "\"\\x\"",
      "\"\\/\\b\\f\\n\\r\\t\"",
      std::string("\"a\0b\"", 5),
      "\"\x01\"",
      "\"\t\"",
      "\"\n\"",
      "\"\x1f\"",
      "\"é\"",
      "\"\xC3\"",
      "\"\xC3\x28\"",
      "\"\xE0\x80\x80\"",
      "\"\xED\xA0\x80\"",
      "\"\xF0\x9F\x9A\x80\"",
      "\"\xF4\x90\x80\x80\"",
      "\"\xFF\"",
      "\xEF\xBB\xBF{}",
      "\xEF\xBB{}",
      "\xEF{}",
      "\xEF",
      std::string("{}\0garbage", 10),
      std::string("\0", 1),
      "{\"a\":1,\"a\":2}",
      "{\"a\":{\"x\":1},\"a\":[2]}",
      "{\"a\"}",
      "{\"a\":}",
      "{\"a\" 1}",
      "{,}",
      "{\"a\":1,}",
      "{\"a\":1 \"b\":2}",
      "[1,]",
      "[,1]",
      "[1 2]",
      "[[[[[]]]]]",
      "[{\"a\":[{\"b\":[]}]}]",
      "{1:2}",
      "}",
      "]",
      ":",
      ",",
      "[\n1,\n2\n",
      "{\"op\":\"version\"} x",
      "{\"op\":\"version\"}{}",
      "\r\n\t{\"a\":\n\n1}\n\nx",
      "[1e5000]",
      "/*c*/{}",
      "{}//c",
      "[true,false,null]",
      "[-]",
      "[0x1]",
      "[1.e5]",
      "[1e+5e]",
      "\n\n\nx",
      "\n",
      "[\"\\u00\"]",
      "\"\\ud800\\udc00\\ud800\"",
  };
  for (const std::string& text : cases) same_as_nlohmann(text);
}

TEST(JsonRead, EveryFixtureRequestAsNlohmannReadsIt) {
  int requests = 0;
  for (const auto& file : std::filesystem::directory_iterator(std::filesystem::path(PARASCOPE_SOURCE_DIR) / "tests" /
                                                              "fixtures" / "api")) {
    std::ifstream in(file.path());
    std::string line, previous;
    while (std::getline(in, line)) {
      if (previous.rfind("# ", 0) == 0) {
        same_as_nlohmann(line);
        ++requests;
      }
      previous = line;
    }
  }
  EXPECT_GT(requests, 150);
}

/// Random text from JSON's own bytes, and the bytes that break it, weighted so that tokens start, nest and fail.
std::string random_text(std::mt19937& random) {
  static const std::vector<std::string> pieces = {"{",
                                                  "}",
                                                  "[",
                                                  "]",
                                                  ":",
                                                  ",",
                                                  "\"",
                                                  "\\",
                                                  "\"a\"",
                                                  "\"key\":",
                                                  "1",
                                                  "0",
                                                  "-",
                                                  "+",
                                                  ".",
                                                  "e",
                                                  "E",
                                                  "5",
                                                  "9",
                                                  "true",
                                                  "false",
                                                  "null",
                                                  "t",
                                                  "f",
                                                  "n",
                                                  "u",
                                                  "\\u",
                                                  "d83d",
                                                  "de80",
                                                  "dc00",
                                                  "00e9",
                                                  "g",
                                                  " ",
                                                  "\n",
                                                  "\r",
                                                  "\t",
                                                  std::string(1, '\0'),
                                                  "\x01",
                                                  "\x1f",
                                                  "\x7f",
                                                  "\xC3",
                                                  "\xA9",
                                                  "\xE2\x82\xAC",
                                                  "\xF0\x9F",
                                                  "\x80",
                                                  "\xBF",
                                                  "\xFF",
                                                  "\xEF\xBB\xBF",
                                                  "é",
                                                  "1e400",
                                                  "18446744073709551616",
                                                  "-9223372036854775809",
                                                  "0.5",
                                                  "x"};
  std::uniform_int_distribution<std::size_t> count(0, 24), pick(0, pieces.size() - 1);
  std::string text;
  for (std::size_t i = count(random); i > 0; --i) text += pieces[pick(random)];
  return text;
}

/// A fixture-like request with one byte changed, dropped or added.
std::string mutated(std::mt19937& random, const std::vector<std::string>& requests) {
  std::string text = requests[std::uniform_int_distribution<std::size_t>(0, requests.size() - 1)(random)];
  if (text.empty()) return text;
  const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random);
  const char byte = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(random));
  switch (std::uniform_int_distribution<int>(0, 2)(random)) {
    case 0:
      text[at] = byte;
      break;
    case 1:
      text.erase(at, 1);
      break;
    default:
      text.insert(at, 1, byte);
  }
  return text;
}

TEST(JsonRead, GeneratedTextAsNlohmannReadsIt) {
  std::mt19937 random(20261207);
  std::map<std::string, int> kinds;
  for (int i = 0; i < 60000; ++i) tally(kinds, same_as_nlohmann(random_text(random)));
  const std::vector<std::string> requests = {
      R"({"op":"step","model":"llama3-8b","hardware":"h100-sxm","cluster":{"gpus":8},"parallel":{"dp":8}})",
      R"({"op":"plan","model":{"layers":32,"hidden":4096,"heads":32},"global_batch":1024,"top_k":[1,2.5e3,-7]})",
      R"({"a":"\u00e9\ud83d\ude80\n","b":[true,false,null,{},[]],"c":-0.0e-0})"};
  for (int i = 0; i < 60000; ++i) tally(kinds, same_as_nlohmann(mutated(random, requests)));
  // The generator reaches every outcome often: values, syntax errors and number overflows.
  EXPECT_GT(kinds["value"], 5000);
  EXPECT_GT(kinds["parse_error"], 20000);
  EXPECT_GT(kinds["out_of_range"], 100);
}

}  // namespace
}  // namespace parascope::detail
