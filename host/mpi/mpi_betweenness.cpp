// Betweenness under mpirun: the ranks' exact sums added on rank 0 (see
// mpi_betweenness.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_betweenness.hpp"

#include <mpi.h>

#include <algorithm>

namespace ocl_sp::mpi {

namespace {

// MPI_Op over Fixed values (two uint64 words each): in-out += in, exactly.
void add_fixed(void* in, void* inout, int* len, MPI_Datatype*) {
  const Fixed* a = static_cast<const Fixed*>(in);
  Fixed* b = static_cast<Fixed*>(inout);
  for (int i = 0; i < *len; ++i) b[i].add(a[i]);
}

}  // namespace

std::vector<double> reduce_betweenness(const std::vector<Fixed>& mine, int64_t n, int64_t k, const Session& s) {
  static_assert(sizeof(Fixed) == 2 * sizeof(uint64_t), "Fixed is two words");
  MPI_Datatype word2;
  MPI_Type_contiguous(2, MPI_UINT64_T, &word2);
  MPI_Type_commit(&word2);
  MPI_Op op;
  MPI_Op_create(&add_fixed, 1, &op);
  std::vector<Fixed> total(s.rank == 0 ? static_cast<size_t>(n) : 0);
  constexpr int64_t kChunk = int64_t{1} << 24;
  for (int64_t off = 0; off < n; off += kChunk) {
    const int c = static_cast<int>(std::min(kChunk, n - off));
    MPI_Reduce(mine.data() + off, s.rank == 0 ? total.data() + off : nullptr, c, word2, op, 0, MPI_COMM_WORLD);
  }
  MPI_Op_free(&op);
  MPI_Type_free(&word2);
  std::vector<double> out;
  if (s.rank != 0) return out;
  out.resize(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i) out[i] = total[i].value();
  scale_betweenness_column(out, n, k);
  return out;
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
