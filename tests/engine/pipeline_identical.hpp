/// Test helpers: a pipeline spec's name for failure messages, and two timings' metrics compared to the last bit.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "parascope/pipeline.hpp"

namespace parascope::testing {

/// "zb-h2 p=4 m=8 v=1 f=… b=… w=… comm=…", every time to 17 digits.
inline std::string spec_name(const PipelineSpec& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s p=%d m=%d v=%d f=%.17g b=%.17g w=%.17g comm=%.17g",
                std::string(schedule_id(s.schedule)).c_str(), s.stages, s.microbatches, s.chunks, s.times.f, s.times.b,
                s.times.w, s.times.comm);
  return buf;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Every number pipeline_metrics reports, to the last bit.
inline void expect_identical(const PipelineMetrics& fast, const PipelineMetrics& full, const std::string& what) {
  ASSERT_TRUE(same_bits(fast.makespan, full.makespan)) << what << ": " << fast.makespan << " vs " << full.makespan;
  ASSERT_EQ(fast.busy.size(), full.busy.size()) << what;
  for (std::size_t s = 0; s < full.busy.size(); ++s) ASSERT_TRUE(same_bits(fast.busy[s], full.busy[s])) << what;
  ASSERT_TRUE(same_bits(fast.bubble_fraction, full.bubble_fraction)) << what;
  ASSERT_TRUE(same_bits(fast.steady_bubble_fraction, full.steady_bubble_fraction)) << what;
  ASSERT_EQ(fast.peak_activations, full.peak_activations) << what;
  ASSERT_EQ(fast.critical_sends, full.critical_sends) << what;
  ASSERT_TRUE(same_bits(fast.chunk_model_fraction, full.chunk_model_fraction)) << what;
}

}  // namespace parascope::testing
