// Error types of ocl_sp and the exit code each maps to (DESIGN.md: 0 ok,
// 1 runtime failure, 2 usage or input error, 3 negative cycle). main() is the
// only place that turns them into messages and exit codes.
#pragma once
#include <stdexcept>
#include <string>

namespace ocl_sp {

enum ExitCode : int { kExitOk = 0, kExitRuntime = 1, kExitUsage = 2, kExitNegativeCycle = 3 };

// Bad flag, bad value, malformed or unsupported input file (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// OpenCL, device, memory or I/O failure at run time (exit 1).
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The graph has a negative cycle through `vertex` (exit 3).
struct NegativeCycleError : std::runtime_error {
  explicit NegativeCycleError(long long v)
      : std::runtime_error("negative cycle detected (vertex " + std::to_string(v) +
                           " lies on one); no distances written"),
        vertex(v) {}
  long long vertex;
};

}  // namespace ocl_sp
