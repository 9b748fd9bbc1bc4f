/// A GPU (or TPU chip) and its links, as data. Bandwidths are bytes/s in ONE direction per GPU.
#pragma once

#include <map>
#include <string>
#include <vector>

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
  bool nvlink_multicast =
      false;  ///< CUDA multicast over the node's NVSwitch (Hopper and later): what TransformerEngine's
              ///< userbuffer TP overlap runs on (engine/API.md, "Software generations")
  // Kernel ceilings measured on this chip (0 = not given: the engine's generic defaults apply; engine/API.md).
  double peak_flops_fp8 = 0;        ///< dense FP8 FLOP/s per GPU; 0 = the chip has no FP8 tensor cores
  int compute_units = 0;            ///< SMs (NVIDIA) or CUs (AMD) that GEMM tiles are spread over; 0 = no wave model
  double gemm_efficiency = 0;       ///< best large dense BF16 GEMM / peak_flops (measured, sustained clock included)
  double gemm_efficiency_fp8 = 0;   ///< the same for FP8 GEMMs / peak_flops_fp8
  double attention_efficiency = 0;  ///< newest fused attention kernel (fwd + bwd) / peak_flops (FA3/cuDNN on Hopper)
  double attention_efficiency_fa2 = 0;  ///< FlashAttention-2 (fwd + bwd) / peak_flops
  double memory_efficiency = 0;         ///< streaming kernels' share of memory_bandwidth
  /// Watts: the board power the efficiencies above were measured at (the data sheet's, SXM), and the limit the
  /// cluster runs the chip at (nvidia-smi -pl); 0 = not given. A limit below the board power lowers the clock of
  /// compute-bound kernels (engine/API.md, "Power limit").
  double board_power = 0;
  double power_limit = 0;
  /// The host side, for optimizer offload (engine/API.md, "Host offload"); 0 = not given. host_bandwidth: bytes/s one
  /// way between one GPU and its host (PCIe or NVLink-C2C, after the link's framing); host_memory_bandwidth: the
  /// host DRAM's peak bytes/s, the node's sockets' channels shared by its GPUs (per GPU).
  double host_bandwidth = 0;
  double host_memory_bandwidth = 0;
  /// FP8 block-scaling formats the tensor cores take natively (`fp8_recipe` values beyond per-tensor scaling):
  /// {"mxfp8"} on Blackwell data-center GPUs, empty on Hopper (TransformerEngine's support matrix; engine/API.md).
  std::vector<std::string> fp8_block_scaling;
  std::map<std::string, std::string> sources;  ///< where each number comes from
};

}  // namespace parascope
