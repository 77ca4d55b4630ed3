// CPU solvers: the paper's CPU_SP (serial) and OMP_SP (OpenMP) columns and the
// reference every OpenCL result is checked against bit-exactly (int32).
#pragma once
#include <memory>

#include "solvers/solver.hpp"

namespace ocl_sp {

// Serial Floyd-Warshall: the reference. Throws NegativeCycleError.
template <typename T>
void fw_serial(DistMatrix<T>& d, PathMatrix* paths);

// Serial repeated squaring; returns the number of products executed.
template <typename T>
int squaring_serial(DistMatrix<T>& d, PathMatrix* paths);

// OpenMP blocked Floyd-Warshall (cache-sized tiles, vectorised inner loop).
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

}  // namespace ocl_sp
