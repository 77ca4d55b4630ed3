// Checking a result against the CPU reference (serial Floyd-Warshall; the OpenMP
// FW, itself tested bit-exact against it, for large n). Shared by `--verify`,
// bench and sweep so all three apply the same rule.
#pragma once
#include <cstdint>
#include <string>

#include "graph/matrix.hpp"

namespace ocl_sp {

struct VerifyResult {
  bool ok = true;
  long long mismatches = 0;
  std::string reference;  // "serial fw" | "openmp fw"
  std::string detail;     // first mismatches or the tolerance used
};

// The CPU reference rule: serial FW is the reference; above n = 3000 (unless
// prefer_serial) it would dominate the run (n^3 at ~1 G/s), so the OpenMP FW,
// tested bit-exact against it, stands in. Solves d in place and returns the
// method's name (reference_method); throws NegativeCycleError.
// verify_result() and ReferenceCache (tuning/measure.hpp) both use it.
std::string reference_method(int64_t n, bool prefer_serial = false);  // "serial fw" | "openmp fw"
template <typename T>
std::string solve_reference(DistMatrix<T>& d, bool prefer_serial = false);

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
