/// Reads the fields shared by "step" and "traffic": model, hardware, cluster and parallel, checked together.
#pragma once

#include "parascope/hardware.hpp"
#include "parascope/model.hpp"
#include "parascope/parallel.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

/// Reads request.model, .hardware, .cluster and .parallel; refuses splits that do not multiply out, naming the product.
TrainingRun read_run(RequestReader& request);

}  // namespace parascope::detail
