// CPU solvers: the paper's CPU_SP (serial) and OMP_SP (OpenMP) columns and the
// reference every OpenCL result is checked against bit-exactly (int32).
#pragma once
#include <cstdint>
#include <memory>

#include "solvers/solver.hpp"

namespace ocl_sp {

// Serial Floyd-Warshall: the reference. Throws NegativeCycleError.
template <typename T>
void fw_serial(DistMatrix<T>& d, PathMatrix* paths);

// Serial repeated squaring; returns the number of products executed.
template <typename T>
int squaring_serial(DistMatrix<T>& d, PathMatrix* paths);

// OpenMP blocked Floyd-Warshall (cache-sized tiles, vectorised inner loop);
// block = tile edge, 0 = default_fw_block(). Bit-exact with fw_serial for int32;
// float32 may differ in the last bits (paths are summed in another order).
template <typename T>
void fw_openmp(DistMatrix<T>& d, PathMatrix* paths, int block);

// OpenMP repeated squaring, stops once a product changes nothing.
template <typename T>
int squaring_openmp(DistMatrix<T>& d, PathMatrix* paths);

// Maximum number of (min,+) products repeated squaring needs: ceil(log2(n-1)),
// or ceil(log2(n)) when negative weights are present so that a negative cycle
// through all n vertices also shows on the diagonal.
int max_products(int64_t n, bool negative_weights);

template <typename T>
std::unique_ptr<Solver<T>> make_cpu_solver(const SolverSpec& spec);

// Instruction set the OpenMP kernels are compiled for; one copy of each hot kernel
// per set keeps the binary portable (no -march=native needed for AVX-512).
enum class CpuIsa { generic, avx2, avx512 };
const char* to_string(CpuIsa isa);
CpuIsa best_cpu_isa();  // the best this CPU supports

// Same solvers with the instruction set forced (tests cover every kernel copy the
// CPU can run; asking for more than best_cpu_isa() throws UsageError).
template <typename T>
void fw_openmp(DistMatrix<T>& d, PathMatrix* paths, int block, CpuIsa isa);
template <typename T>
int squaring_openmp(DistMatrix<T>& d, PathMatrix* paths, CpuIsa isa);

// Block edge fw_openmp uses for block == 0: 96 (36 KiB int32 tiles). Measured on a
// 2-core AVX-512 EPYC at n = 1000..5000 against 32..256: 64 and 128 were 5-15%
// slower (bench/results/cpu-*/cpu_vs_scipy.txt has the resulting rate).
int default_fw_block();

// Throws NegativeCycleError(i) for the lowest i with d(i,i) < 0. Such an i lies on
// a negative closed walk (its strongly connected component holds a negative
// cycle), not necessarily on a negative cycle; every vertex of a negative cycle has
// d(i,i) < 0 after any solver here, so the lowest of them is named when the cycle's
// component is the cycle itself.
template <typename T>
void check_negative_cycles(const DistMatrix<T>& d);

// Whether any finite off-diagonal entry is negative (decides max_products).
template <typename T>
bool has_negative_weights(const DistMatrix<T>& d);

}  // namespace ocl_sp
