// Error types of ocl_sp and the exit code each maps to (DESIGN.md: 0 ok,
// 1 runtime failure, 2 usage or input error, 3 negative cycle). main() is the
// only place that turns them into messages and exit codes.
#pragma once
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

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

// The graph has a negative cycle (exit 3). Solvers know a vertex i with
// d(i,i) < 0 (which may only reach a cycle); the solve command then finds a cycle
// in the input (graph/negative_cycle.hpp) and rethrows with it: `cycle` lists
// its vertices (the edges cycle[k] -> cycle[k+1] and back to cycle[0], vertex ==
// cycle[0]) and `length` is its total weight. The message names them:
// "negative cycle detected: 3 -> 7 -> 5 -> 3 (length -4); no distances written"
// (a long cycle is shortened in the message, never in `cycle`).
struct NegativeCycleError : std::runtime_error {
  explicit NegativeCycleError(long long v)
      : std::runtime_error("negative cycle detected (vertex " + std::to_string(v) +
                           " reaches one and is reached from it); no distances written"),
        vertex(v) {}
  NegativeCycleError(std::vector<long long> c, double len)
      : std::runtime_error(describe(c, len)),
        vertex(c.empty() ? -1 : c[0]),
        cycle(std::move(c)),
        length(len) {}
  long long vertex;
  std::vector<long long> cycle;  // empty when only the vertex is known
  double length = 0;

  static std::string describe(const std::vector<long long>& c, double len) {
    std::string s = "negative cycle detected: ";
    const size_t k = c.size(), shown = 12;
    for (size_t i = 0; i < k; ++i) {
      if (k > shown + 4 && i == shown - 2) {  // 0 .. 9, "...", the last two
        s += "... (" + std::to_string(k - shown) + " more) -> ";
        i = k - 3;
        continue;
      }
      s += std::to_string(c[i]) + " -> ";
    }
    s += (k ? std::to_string(c[0]) : std::string("?")) + " (";
    if (k > shown + 4) s += std::to_string(k) + " vertices, ";
    char buf[40];
    // Integral lengths as integers; a cast of one outside long long is undefined
    // (a negative self-loop of -1e308 in a text file: found by tests/fuzz).
    if (std::fabs(len) < 1e18 && len == std::floor(len))
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(len));
    else
      std::snprintf(buf, sizeof buf, "%.9g", len);
    return s + "length " + buf + "); no distances written";
  }
};

}  // namespace ocl_sp
