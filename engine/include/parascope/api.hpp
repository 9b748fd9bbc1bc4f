/// The engine's one entry point: a JSON request with an "op" in, a JSON response out. Never throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace parascope {

/// The largest request text call() reads, in bytes; longer requests are refused with too_large. Readers (the CLI,
/// the wasm boundary) stop at this many bytes plus one instead of holding a larger input.
inline constexpr std::size_t kMaxRequestBytes = std::size_t{1} << 20;

/// Answers one request. Bad input yields {"error": {"code", "message", "field"}}; this function never throws.
std::string call(std::string_view request_text);

/// Numbers the last call() on this thread attached beside its JSON (empty when it attached none). The fast path for
/// in-process callers such as the wasm module: e.g. "pipeline" with "ops_format": "binary" puts its op columns here
/// instead of formatting tens of thousands of numbers as text. The response says how the numbers are laid out.
const std::vector<double>& last_attachment();

/// True when a response text (from call) is an error object.
bool is_error_response(std::string_view response_text);

/// A "plan" request run a slice at a time (the browser's way: a Web Worker advances it between messages). Built from
/// the same request text as call() takes for {"op": "plan", ...}; no method throws.
class PlanSession {
 public:
  explicit PlanSession(std::string_view request_text);
  ~PlanSession();
  PlanSession(const PlanSession&) = delete;
  PlanSession& operator=(const PlanSession&) = delete;

  /// Considers up to `max_configs` more configurations. Returns {"done": bool, "evaluated": N, "total": M} (N counts
  /// configurations considered so far, evaluated or rejected; it reaches M when done), or the request's error object.
  std::string advance(std::int64_t max_configs);
  /// The plan op's answer text, exactly as call() gives it (the search runs to its end first if it has not).
  std::string result();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parascope
