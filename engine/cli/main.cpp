// The native CLI: one JSON request from stdin (or a file named as the argument) -> one JSON response on stdout.
// Exit 0 on success, 2 when the response is an error object, 1 when the input cannot be read.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

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

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
    std::cerr << "usage: parascope [request.json]   (reads the request from stdin when no file is given)\n"
                 "example: echo '{\"op\": \"version\"}' | parascope\n";
    return argc == 2 ? 0 : 1;
  }
  std::FILE* in = argc == 2 ? std::fopen(argv[1], "rb") : stdin;
  std::optional<std::string> request = in ? read_request(in) : std::nullopt;
  if (in && in != stdin) std::fclose(in);
  if (!request) {
    std::cerr << "parascope: cannot read " << (argc == 2 ? argv[1] : "standard input") << "\n";
    return 1;
  }
  const std::string response = parascope::call(*request);
  std::cout << response << "\n";
  return parascope::is_error_response(response) ? 2 : 0;
}
