// The native CLI: one JSON request from stdin (or a file named as the argument) -> one JSON response on stdout.
// Exit 0 on success, 2 when the response is an error object, 1 when the input cannot be read.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "parascope/api.hpp"

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
    std::cerr << "usage: parascope [request.json]   (reads the request from stdin when no file is given)\n"
                 "example: echo '{\"op\": \"version\"}' | parascope\n";
    return argc == 2 ? 0 : 1;
  }
  std::string request;
  if (argc == 2) {
    std::ifstream file(argv[1], std::ios::binary);
    if (!file) {
      std::cerr << "parascope: cannot read " << argv[1] << "\n";
      return 1;
    }
    request.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  } else {
    request.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  const std::string response = parascope::call(request);
  std::cout << response << "\n";
  return parascope::is_error_response(response) ? 2 : 0;
}
