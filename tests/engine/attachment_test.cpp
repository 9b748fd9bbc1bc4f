// The binary fast path: pipeline ops written beside the JSON are exactly the ops the JSON form lists.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

TEST(Attachment, BinaryPipelineColumnsHoldExactlyTheOpsOfTheObjectForm) {
  for (const char* schedule : {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"}) {
    json request = {{"op", "pipeline"}, {"schedule", schedule}, {"stages", 4}, {"microbatches", 8}};
    if (std::string(schedule) == "interleaved") request["chunks"] = 2;
    const json objects = json::parse(parascope::call(request.dump()))["ops"];
    request["ops_format"] = "binary";
    const json binary = json::parse(parascope::call(request.dump()));
    const std::vector<double> numbers = parascope::last_attachment();
    const std::size_t n = objects.size();
    ASSERT_EQ(binary["ops"]["count"], n) << schedule;
    ASSERT_EQ(numbers.size(), 5 * n) << schedule;
    std::size_t i = 0;
    for (int stage = 0; stage < 4; ++stage) {
      for (int k = 0; k < binary["ops"]["per_stage"][stage].get<int>(); ++k, ++i) {
        const json& op = objects[i];
        EXPECT_EQ(op["stage"], stage);
        EXPECT_EQ(numbers[i], op["microbatch"].get<double>());
        EXPECT_EQ(char(numbers[n + i]), op["kind"].get<std::string>()[0]);
        EXPECT_EQ(numbers[2 * n + i], op["chunk"].get<double>());
        EXPECT_EQ(numbers[3 * n + i], op["start"].get<double>());
        EXPECT_EQ(numbers[4 * n + i], op["end"].get<double>());
      }
    }
    EXPECT_EQ(i, n) << schedule;
  }
}

TEST(Attachment, EveryCallStartsEmptyAndARefusalLeavesNothing) {
  parascope::call(R"({"op":"pipeline","schedule":"1f1b","stages":2,"microbatches":2,"ops_format":"binary"})");
  EXPECT_FALSE(parascope::last_attachment().empty());
  parascope::call(R"({"op":"version"})");
  EXPECT_TRUE(parascope::last_attachment().empty());
  parascope::call(R"({"op":"pipeline","schedule":"1f1b","stages":2,"microbatches":2,"ops_format":"binary"})");
  parascope::call(R"({"op":"pipeline","schedule":"dualpipe","stages":3,"microbatches":2,"ops_format":"binary"})");
  EXPECT_TRUE(parascope::last_attachment().empty());
}

}  // namespace
