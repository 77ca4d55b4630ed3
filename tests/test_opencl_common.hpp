// Helpers of the OpenCL test suites (test_opencl_*.cpp, test_panel_engine.cpp,
// test_paths.cpp): environment guards, the process-wide temporary program cache,
// so tests never touch ~/.cache, the SolverSpec of a solver on the test device and
// the random graphs the solvers are checked on.
#pragma once
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "graph/matrix.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp_test {

// Sets (or unsets, value = nullopt) an environment variable for one scope.
class EnvGuard {
 public:
  EnvGuard(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~EnvGuard() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh folder under the system temp dir, removed with its contents at scope end.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix) {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + ".XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Points OCL_SP_CACHE_DIR at one temporary folder for the whole test process (set
// again on every call in case another suite moved it) and returns it.
inline const std::string& use_temp_program_cache() {
  static TempDir dir("ocl_sp_test_cache");
  ::setenv("OCL_SP_CACHE_DIR", dir.path().c_str(), 1);
  ::unsetenv("OCL_SP_NO_CACHE");
  ::unsetenv("OCL_SP_KERNEL_DIR");
  return dir.path();
}

// The device the solver tests run on: $OCL_SP_TEST_DEVICE (e.g. "nvidia" on a GPU
// machine), else PoCL.
inline std::string test_device() {
  const char* d = std::getenv("OCL_SP_TEST_DEVICE");
  return d && *d ? d : "pocl";
}

// An OpenCL solver of algorithm `a` on the test device with tunables `t` (none:
// the built-in defaults), tuned values off, built with the temporary program cache.
inline ocl_sp::SolverSpec spec(ocl_sp::Algo a, ocl_sp::Tunables t = {}) {
  use_temp_program_cache();
  ocl_sp::SolverSpec s;
  s.algo = a;
  s.backend = ocl_sp::Backend::opencl;
  s.device = test_device();
  s.params = std::move(t);
  s.use_tuned = false;
  return s;
}

// Random digraph as an adjacency matrix: three parts, edges inside a part and from
// part 0 to part 1 only (so part 2 is unreachable from the others and parts 1, 2
// cannot reach part 0); weights w + h(u) - h(v) with w in [0, 20] (zeros included)
// and potentials h in [0, 40], so edges can be negative but cycles are not.
// degree: expected out-degree for n > 8 (smaller graphs: edge probability 1/2).
// `fraction` makes weights non-integral (float tests with a tolerance).
template <typename T>
ocl_sp::DistMatrix<T> random_graph(int64_t n, uint64_t seed, bool fraction = false,
                                   double degree = 5.0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> w(0, 20), h(0, 40), part(0, 2);
  std::uniform_real_distribution<double> u01(0, 1);
  std::vector<int> pot(static_cast<size_t>(n)), comp(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    pot[static_cast<size_t>(i)] = h(rng);
    comp[static_cast<size_t>(i)] = n < 6 ? 0 : part(rng);
  }
  const double p = n <= 8 ? 0.5 : std::min(1.0, degree / static_cast<double>(n));
  ocl_sp::DistMatrix<T> d(n);
  for (int64_t i = 0; i < n; ++i) d(i, i) = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == j || u01(rng) >= p) continue;
      const int ci = comp[static_cast<size_t>(i)], cj = comp[static_cast<size_t>(j)];
      if (!(ci == cj || (ci == 0 && cj == 1))) continue;
      double v = w(rng) + pot[static_cast<size_t>(i)] - pot[static_cast<size_t>(j)];
      if (fraction) v += (pot[static_cast<size_t>(i)] - pot[static_cast<size_t>(j)]) * 0.013 + 0.37;
      d(i, j) = std::min(d(i, j), static_cast<T>(v));
    }
  return d;
}

}  // namespace ocl_sp_test

// The suites call it unqualified, as spec(Algo::fw, {{"BLOCK", 32}}).
using ocl_sp_test::spec;
