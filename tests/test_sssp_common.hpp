// Shared by the multi-source engine's test files (test_sssp.cpp,
// test_sssp_lanes.cpp, test_sssp_stats.cpp): the fw reference, the backends sssp
// runs on in CI, a lattice, and rows collected through the solver's row stream.
#pragma once
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <tuple>
#include <string>
#include <utility>

#include "graph/csr.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "graph/paths.hpp"
#include "solvers/verify.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/lane_order.hpp"
#include "sparse/sssp_plan.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

namespace ocl_sp_test::sssp {

using namespace ocl_sp;

template <typename T>
DistMatrix<T> fw_reference(DistMatrix<T> d) {
  solve_reference(d, true);
  return d;
}

inline SolverSpec cpu_spec(Backend b) {
  SolverSpec s;
  s.algo = Algo::sssp;
  s.backend = b;
  return s;
}

// The backends sssp runs on in CI: serial, OpenMP, PoCL, PoCL split in two, and
// PoCL with 8 sources side by side a work-group (kernels/sssp.cl sssp_lanes), on
// one device and split in two.
inline std::vector<std::pair<std::string, SolverSpec>> sssp_specs(Tunables t = {}) {
  std::vector<std::pair<std::string, SolverSpec>> out = {{"serial", cpu_spec(Backend::serial)},
                                                         {"openmp", cpu_spec(Backend::openmp)}};
  SolverSpec cl = spec(Algo::sssp, t);
  out.push_back({"pocl", cl});
  cl.split = 2;
  out.push_back({"pocl split 2", cl});
  Tunables tl = t;
  tl.emplace("LANES", 8);
  SolverSpec lanes = spec(Algo::sssp, tl);
  out.push_back({"pocl lanes", lanes});
  lanes.split = 2;
  out.push_back({"pocl lanes split 2", lanes});
  return out;
}

// A k x k 4-neighbour lattice (high diameter), weights from a fixed pattern with zeros.
inline DistMatrix<int32_t> lattice(int64_t k) {
  DistMatrix<int32_t> d(k * k);
  for (int64_t i = 0; i < k * k; ++i) d(i, i) = 0;
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < k; ++c) {
      const int64_t v = r * k + c;
      const auto w = [&](int64_t a, int64_t b) { return static_cast<int32_t>((a * 7 + b * 13) % 10); };
      if (c + 1 < k) d(v, v + 1) = w(v, 1), d(v + 1, v) = w(v, 2);
      if (r + 1 < k) d(v, v + k) = w(v, 3), d(v + k, v) = w(v, 4);
    }
  return d;
}


// Rows of chosen sources in their order, through the solver's row stream.
template <typename T>
struct CollectRows : RowSink<T> {
  std::vector<T> got;  // row r of the request at r x n
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*, const int32_t*) override {
    if (got.size() < static_cast<size_t>((first + count) * n)) got.resize(static_cast<size_t>((first + count) * n));
    std::copy(d, d + count * n, got.begin() + first * n);
  }
};

template <typename T>
std::pair<std::vector<T>, std::string> rows_of(const SolverSpec& s, const Csr<T>& c, const std::vector<int64_t>& src,
                                               RunStats* stats = nullptr) {
  CollectRows<T> sink;
  const RunStats st = make_sssp_solver<T>(s)->solve_rows(c, src, sink, false);
  if (stats) *stats = st;
  return {sink.got, st.placement};
}

}  // namespace ocl_sp_test::sssp
