// Shared by the panel engine's test files (test_panel_engine.cpp,
// test_panel_paths.cpp): seeds, budgets, the graphs and the bit-exact check of a
// solver's placement against fw_serial.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_solvers.hpp"
#include "solvers/panel_engine.hpp"
#include "test_opencl_common.hpp"

namespace ocl_sp_test::panels {

using namespace ocl_sp;
using namespace ocl_sp::detail;

constexpr uint64_t kSeed = 20261123;
constexpr uint64_t kMiB = 1024ull * 1024;

inline DeviceBudget budget(uint64_t memory, uint64_t max_alloc) {
  DeviceBudget b;
  b.name = "test";
  b.memory = memory;
  b.max_alloc = max_alloc;
  return b;
}

// Random digraph with negative edges but no negative cycle (vertex potentials),
// zero weights and an unreachable third of the vertices; out-degree ~6.
template <typename T>
DistMatrix<T> graph(int64_t n, uint64_t seed) {
  return ocl_sp_test::random_graph<T>(n, seed, false, 6.0);
}

// n = 300 with a cycle 250 -> 20 -> 140 -> 250 of length -3 across three panels
// of 128.
inline DistMatrix<int32_t> graph_with_negative_cycle() {
  DistMatrix<int32_t> d = graph<int32_t>(300, kSeed);
  d(250, 20) = -1;
  d(20, 140) = -1;
  d(140, 250) = -1;
  return d;
}

template <typename T>
void check_solver(const SolverSpec& s, const std::vector<int64_t>& sizes,
                  const std::string& placement_word) {
  auto solver = make_opencl_solver<T>(s);
  for (int64_t n : sizes) {
    const uint64_t seed = kSeed + static_cast<uint64_t>(n);
    INFO("n = " << n << ", seed " << seed << ", panel " << s.panel << ", device memory "
                << s.device_memory << ", split " << s.split);
    DistMatrix<T> d = graph<T>(n, seed), ref = d;
    const RunStats st = solver->solve(d, nullptr);
    fw_serial(ref, nullptr);
    CHECK(d == ref);
    CHECK(st.placement.find(placement_word) != std::string::npos);
  }
}

}  // namespace ocl_sp_test::panels
