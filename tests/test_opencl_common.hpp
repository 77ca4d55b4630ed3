// Helpers of the OpenCL test suites (test_opencl_*.cpp, test_paths.cpp):
// environment guards, the process-wide temporary program cache, so tests never
// touch ~/.cache, and the SolverSpec of a solver on the test device.
#pragma once
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

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

}  // namespace ocl_sp_test

// The suites call it unqualified, as spec(Algo::fw, {{"BLOCK", 32}}).
using ocl_sp_test::spec;
