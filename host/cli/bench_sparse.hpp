// `ocl_sp bench --generator FAMILY` (bench_sparse.cpp): fw, sssp and auto on the
// sparse graph families, sssp without n x n memory.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "report/bench_report.hpp"
#include "tuning/bench_plan.hpp"

namespace ocl_sp {

struct SparseBenchOptions {
  std::vector<int64_t> sizes;
  std::vector<std::string> algos;
  std::vector<BenchColumn> columns;
  GeneratorParams generator;  // family, degree, weights; n and seed per size
  std::string type = "int32";
  int reps = 3, warmup = 1, split = 1;
  std::optional<uint64_t> seed;
  double time_limit = 60;
  bool no_tuned = false;
  Tunables params;  // OpenCL columns: given to every solver (sssp's WG, VW, DELTA, ...)
  std::string csv, json;
};

int run_sparse_bench(const SparseBenchOptions& o);

// A result row of column c and algorithm a at n, before it runs (bench.cpp).
ResultRow base_row(const BenchColumn& c, Algo a, const std::string& type, int64_t n);

}  // namespace ocl_sp
