// The native CLI: one JSON request from stdin (or a file named as the argument) -> one JSON response on stdout.
// Exit 0 on success, 2 when the response is an error object, 1 when the input cannot be read (or written).
// --trace FILE: for a step or timeline request, also writes the step's Chrome trace (the timeline op's "chrome").
// --kineto FILE [--step N]: a PyTorch profiler trace's step split as the step figure splits it (engine/cli/kineto.hpp).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kineto.hpp"
#include "parascope/api.hpp"

namespace {

/// Reads at most kMaxRequestBytes + 1 bytes: enough for the engine to refuse an oversized request (too_large)
/// without holding it, so an endless stream (/dev/zero) costs 1 MiB. nullopt when the input cannot be read
/// (a directory, a read error).
std::optional<std::string> read_request(std::FILE* in) {
  std::string request;
  char buffer[1 << 16];
  while (request.size() <= parascope::kMaxRequestBytes) {
    const std::size_t want = std::min(sizeof buffer, parascope::kMaxRequestBytes + 1 - request.size());
    const std::size_t got = std::fread(buffer, 1, want, in);
    request.append(buffer, got);
    if (got < want) break;
  }
  if (std::ferror(in)) return std::nullopt;
  return request;
}

}  // namespace

/// The timeline op's Chrome trace of a step or timeline request, written to `path`: 0, or 2 (the engine refused it:
/// its error object on stdout) or 1 (not such a request, or the file cannot be written; a line on stderr).
int write_trace(const std::string& request_text, const std::string& path) {
  nlohmann::json request = nlohmann::json::parse(request_text, nullptr, false);
  const bool timed =
      request.is_object() && request.contains("op") && (request["op"] == "step" || request["op"] == "timeline");
  if (!timed) {
    std::cerr << "parascope: --trace takes a \"step\" or \"timeline\" request\n";
    return 1;
  }
  request["op"] = "timeline";
  request["format"] = "chrome";
  const std::string trace = parascope::call(request.dump());
  if (parascope::is_error_response(trace)) {
    std::cout << trace << "\n";
    return 2;
  }
  std::ofstream out(path, std::ios::binary);
  out << trace << "\n";
  if (!out.flush()) {
    std::cerr << "parascope: cannot write " << path << "\n";
    return 1;
  }
  return 0;
}

constexpr const char* kUsage =
    "usage: parascope [--trace FILE] [request.json]   (reads the request from stdin when no file is given)\n"
    "       parascope --kineto TRACE.json[.gz] [--step N]\n"
    "  --trace FILE   also write a step or timeline request's Chrome trace (Perfetto, chrome://tracing)\n"
    "  --kineto FILE  split one step of a PyTorch profiler trace (gzipped or not) as Holistic Trace Analysis does:\n"
    "                 compute, communication hidden and exposed, copies, idle (s), per stream and per collective\n"
    "  --step N       the step marked ProfilerStep#N (default: the last one in the trace)\n"
    "example: echo '{\"op\": \"version\"}' | parascope\n";

/// parascope --kineto FILE [--step N]; nullopt when `args` is not such a command line.
std::optional<int> kineto_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "--kineto") return std::nullopt;
  const bool plain = args.size() == 2;
  const bool stepped = args.size() == 4 && args[2] == "--step";
  std::optional<long long> step;
  if (stepped) {
    const std::string& n = args[3];
    if (n.empty() || n.size() > 18 || n.find_first_not_of("0123456789") != std::string::npos) {
      std::cerr << "parascope: --step takes a step number (the N of ProfilerStep#N)\n" << kUsage;
      return 1;
    }
    step = std::stoll(n);
  }
  if (!plain && !stepped) {
    std::cerr << kUsage;
    return 1;
  }
  return parascope::cli::kineto_main(args[1], step, std::cout, std::cerr);
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (const auto status = kineto_command(args)) return *status;
  std::string trace_path;
  if (args.size() >= 2 && args[0] == "--trace") {
    trace_path = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  if (args.size() > 1 || (args.size() == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "--trace"))) {
    std::cerr << kUsage;
    return args.size() == 1 && args[0] != "--trace" ? 0 : 1;
  }
  const std::string name = args.empty() ? "standard input" : args[0];
  std::FILE* in = args.empty() ? stdin : std::fopen(args[0].c_str(), "rb");
  std::optional<std::string> request = in ? read_request(in) : std::nullopt;
  if (in && in != stdin) std::fclose(in);
  if (!request) {
    std::cerr << "parascope: cannot read " << name << "\n";
    return 1;
  }
  const std::string response = parascope::call(*request);
  if (!trace_path.empty() && !parascope::is_error_response(response)) {
    if (const int status = write_trace(*request, trace_path); status != 0) return status;
  }
  std::cout << response << "\n";
  return parascope::is_error_response(response) ? 2 : 0;
}
