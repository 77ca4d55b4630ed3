// Checking a result against the CPU reference (serial Floyd-Warshall; the OpenMP
// FW, itself tested bit-exact against it, for large n). Shared by `--verify`,
// bench and sweep so all three apply the same rule.
#pragma once
#include <string>

#include "graph/matrix.hpp"

namespace ocl_sp {

struct VerifyResult {
  bool ok = true;
  long long mismatches = 0;
  std::string reference;  // "serial fw" | "openmp fw"
  std::string detail;     // first mismatches or the tolerance used
};

// input: the adjacency matrix that was solved; result: what the solver returned.
// int32 must match exactly; float32 within 1e-5 relative (different summation
// orders round differently), INF exactly.
template <typename T>
VerifyResult verify_result(const DistMatrix<T>& input, const DistMatrix<T>& result,
                           bool prefer_serial = false);

// Compares two matrices with the rule above (no solving).
template <typename T>
VerifyResult compare_matrices(const DistMatrix<T>& expected, const DistMatrix<T>& got);

}  // namespace ocl_sp
