/// A GPU (or TPU chip) and its links, as data. Bandwidths are bytes/s in ONE direction per GPU.
#pragma once

#include <map>
#include <string>

namespace parascope {

struct Hardware {
  std::string id;
  std::string name;
  std::string kind = "gpu";     ///< "gpu" or "tpu": what one device is called (a TPU is a chip, not a GPU)
  double peak_flops = 0;        ///< dense BF16 FLOP/s per GPU
  double memory_bytes = 0;      ///< 0 = not given
  double memory_bandwidth = 0;  ///< HBM bytes/s; 0 = not given
  int gpus_per_node = 0;        ///< 0 = not given
  std::string intra_link;       ///< name of the link inside a node ("NVLink 4")
  double intra_bandwidth = 0;   ///< bytes/s, one direction, per GPU
  double intra_latency = 0;     ///< seconds per collective step
  std::string inter_link;       ///< name of the network across nodes
  double inter_bandwidth = 0;   ///< bytes/s, one direction, per GPU
  double inter_latency = 0;     ///< seconds per collective step
  std::map<std::string, std::string> sources;  ///< where each number comes from
};

}  // namespace parascope
