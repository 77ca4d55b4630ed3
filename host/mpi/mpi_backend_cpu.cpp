// The OpenMP backend of a rank (see mpi_backend.hpp): close a panel and the
// (min,+) GEMM-accumulate on the host, OpenMP threads and SIMD over the rank's
// local matrix.
#ifdef OCL_SP_HAVE_MPI
#include <omp.h>

#include "mpi/mpi_backend.hpp"
#include "util/parallel_copy.hpp"

namespace ocl_sp::mpi {

namespace {

// One tile of gemm_acc_cpu: rows [i0, ie) x columns [ja, je), 4 rows at a time
// so each loaded b vector serves four accumulating rows.
template <typename T>
inline __attribute__((always_inline)) void gemm_tile(T* c, int64_t ldc, const T* a, int64_t lda,
                                                     const T* b, int64_t ldb, int64_t i0, int64_t ie,
                                                     int64_t kdim, int64_t ja, int64_t je) {
  const T inf = ValueTraits<T>::inf;
  int64_t i = i0;
  for (; i + 4 <= ie; i += 4) {
    T* __restrict c0 = c + i * ldc;
    T* __restrict c1 = c0 + ldc;
    T* __restrict c2 = c1 + ldc;
    T* __restrict c3 = c2 + ldc;
    const T* a0 = a + i * lda;
    for (int64_t m = 0; m < kdim; ++m) {
      const T x0 = a0[m], x1 = a0[lda + m], x2 = a0[2 * lda + m], x3 = a0[3 * lda + m];
      if (x0 == inf && x1 == inf && x2 == inf && x3 == inf) continue;
      const T* __restrict bm = b + m * ldb;
#pragma omp simd
      for (int64_t j = ja; j < je; ++j) {
        const T v = bm[j];
        const T s0 = x0 + v, s1 = x1 + v, s2 = x2 + v, s3 = x3 + v;
        c0[j] = s0 < c0[j] ? s0 : c0[j];
        c1[j] = s1 < c1[j] ? s1 : c1[j];
        c2[j] = s2 < c2[j] ? s2 : c2[j];
        c3[j] = s3 < c3[j] ? s3 : c3[j];
      }
    }
  }
  for (; i < ie; ++i) {
    T* __restrict ci = c + i * ldc;
    for (int64_t m = 0; m < kdim; ++m) {
      const T x = a[i * lda + m];
      if (x == inf) continue;
      const T* __restrict bm = b + m * ldb;
#pragma omp simd
      for (int64_t j = ja; j < je; ++j) {
        const T s = x + bm[j];
        ci[j] = s < ci[j] ? s : ci[j];
      }
    }
  }
  for (int64_t r = i0; r < ie; ++r) {
    T* ci = c + r * ldc;
#pragma omp simd
    for (int64_t j = ja; j < je; ++j) ci[j] = ValueTraits<T>::norm(ci[j]);
  }
}

// Compiled per instruction set (GCC picks one at load time), as host/cpu does.
#if defined(__x86_64__)
#define OCL_SP_MPI_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OCL_SP_MPI_CLONES
#endif
OCL_SP_MPI_CLONES void gemm_tile_isa(int32_t* c, int64_t ldc, const int32_t* a, int64_t lda,
                                     const int32_t* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}
OCL_SP_MPI_CLONES void gemm_tile_isa(float* c, int64_t ldc, const float* a, int64_t lda,
                                     const float* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}
OCL_SP_MPI_CLONES void gemm_tile_isa(int64_t* c, int64_t ldc, const int64_t* a, int64_t lda,
                                     const int64_t* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}
OCL_SP_MPI_CLONES void gemm_tile_isa(double* c, int64_t ldc, const double* a, int64_t lda,
                                     const double* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}

// c[i][j] = norm(min(c[i][j], min_m a[i][m] + b[m][j])), i < rows, m < kdim,
// j in [j0, j1). c never aliases a or b. Operands are normalised values, so no
// sum overflows; the store rule is applied once per tile at the end (exact:
// norm(min(x, y)) = min(norm x, norm y)).
template <typename T>
void gemm_acc_cpu(T* c, int64_t ldc, const T* a, int64_t lda, const T* b, int64_t ldb,
                  int64_t rows, int64_t kdim, int64_t j0, int64_t j1) {
  if (rows <= 0 || j1 <= j0) return;
  constexpr int64_t RB = 16, JB = 512;
  const int64_t row_blocks = (rows + RB - 1) / RB, col_blocks = (j1 - j0 + JB - 1) / JB;
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t ib = 0; ib < row_blocks; ++ib)
    for (int64_t jb = 0; jb < col_blocks; ++jb) {
      const int64_t i0 = ib * RB, ie = std::min(rows, i0 + RB);
      const int64_t ja = j0 + jb * JB, je = std::min(j1, ja + JB);
      gemm_tile_isa(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
    }
}

// Floyd-Warshall in place on the p x p block at d (leading dimension ld), every
// store normalised (rows are operands of later steps).
template <typename T>
void close_cpu(T* d, int64_t ld, int64_t p) {
  const T inf = ValueTraits<T>::inf;
  for (int64_t k = 0; k < p; ++k) {
    T* dk = d + k * ld;
    {
      const T x = dk[k];  // row k first, alone: the others read it
      if (x != inf)
        for (int64_t j = 0; j < p; ++j) dk[j] = ValueTraits<T>::norm(std::min(dk[j], x + dk[j]));
    }
#pragma omp parallel for schedule(static) if (p >= 256)
    for (int64_t i = 0; i < p; ++i) {
      if (i == k) continue;
      T* di = d + i * ld;
      const T x = di[k];
      if (x == inf) continue;
#pragma omp simd
      for (int64_t j = 0; j < p; ++j) di[j] = ValueTraits<T>::norm(std::min(di[j], x + dk[j]));
    }
  }
}

template <typename T>
class CpuBackend final : public RankBackend<T> {
 public:
  CpuBackend(const Layout& lay, std::vector<T>& local)
      : lay_(lay), d_(local),
        tmp_(static_cast<size_t>(std::max(lay.p * lay.mc(), lay.mr() * lay.p))) {}
  std::string describe() const override {
    return "openmp (" + std::to_string(omp_get_max_threads()) + " threads)";
  }
  void load() override {}
  T* block(int64_t li, int64_t lj) { return d_.data() + (li * lay_.mc() + lj) * lay_.p; }

  void close_pivot(int64_t r, T* out) override {
    const int64_t p = lay_.p, mc = lay_.mc();
    T* piv = block(lay_.lrow(r), lay_.lcol(r));
    close_cpu(piv, mc, p);
    copy_block(out, p, piv, mc, p, p);
  }
  bool pivot_ready() override { return true; }
  void set_pivot(int64_t, const T*) override {}

  void phase2(int64_t r, const T* piv, T* row_out, T* col_out) override {
    const int64_t p = lay_.p, mc = lay_.mc(), mr = lay_.mr();
    if (lay_.has_row(r)) {
      // Row panels: D[r][j] = D*[r][r] (x) D[r][j] (through a copy), j != r.
      T* c = block(lay_.lrow(r), 0);
      copy_values(tmp_.data(), c, p * mc);
      const int64_t skip = lay_.has_col(r) ? lay_.lcol(r) : -1;
      for (const auto& [a, b] : ranges_without(static_cast<int64_t>(lay_.cols.size()), skip, -1))
        gemm_acc_cpu(c, mc, piv, p, tmp_.data(), mc, lay_.real(r), p, a * p, b * p);
      // Block-major for the broadcasts: block lj of the row at lj P^2.
      for (int64_t lj = 0; lj < static_cast<int64_t>(lay_.cols.size()); ++lj)
        copy_block(row_out + lj * p * p, p, c + lj * p, mc, p, p);
    }
    if (lay_.has_col(r)) {
      // Column panels: D[i][r] = D[i][r] (x) D*[r][r] (through a copy), i != r.
      const int64_t lj = lay_.lcol(r);
      copy_block(tmp_.data(), p, d_.data() + lj * p, mc, mr, p);
      for (size_t li = 0; li < lay_.rows.size(); ++li) {
        const int64_t i = lay_.rows[li];
        if (i == r) continue;
        gemm_acc_cpu(block(static_cast<int64_t>(li), lj), mc, tmp_.data() + static_cast<int64_t>(li) * p * p, p,
                     piv, p, lay_.real(i), p, 0, p);
      }
      copy_block(col_out, p, d_.data() + lj * p, mc, mr, p);
    }
  }
  void set_panels(int64_t, const T* row, const T* col) override {
    row_ = row;
    col_ = col;
  }
  void update(int64_t, int64_t li, int64_t lj, int64_t count) override {
    const int64_t p = lay_.p, mc = lay_.mc(), rows = lay_.real(lay_.rows[static_cast<size_t>(li)]);
    for (int64_t k = lj; k < lj + count; ++k)
      gemm_acc_cpu(block(li, k), mc, col_ + li * p * p, p, row_ + k * p * p, p, rows, p, 0, p);
  }
  bool idle() override { return true; }
  void store() override {}

 private:
  // rows x cols values from src (pitch src_pitch values) to dst (pitch dst_pitch).
  static void copy_block(T* dst, int64_t dst_pitch, const T* src, int64_t src_pitch, int64_t rows, int64_t cols) {
    copy_rows(dst, sizeof(T) * static_cast<size_t>(dst_pitch), src, sizeof(T) * static_cast<size_t>(src_pitch),
              static_cast<size_t>(rows), sizeof(T) * static_cast<size_t>(cols));
  }
  const Layout& lay_;
  std::vector<T>& d_;
  std::vector<T> tmp_;
  const T* row_ = nullptr;
  const T* col_ = nullptr;
};

}  // namespace

template <typename T>
std::unique_ptr<RankBackend<T>> make_cpu_backend(const Layout& lay, std::vector<T>& local) {
  return std::make_unique<CpuBackend<T>>(lay, local);
}

template std::unique_ptr<RankBackend<int32_t>> make_cpu_backend(const Layout&, std::vector<int32_t>&);
template std::unique_ptr<RankBackend<float>> make_cpu_backend(const Layout&, std::vector<float>&);
template std::unique_ptr<RankBackend<double>> make_cpu_backend(const Layout&, std::vector<double>&);
template std::unique_ptr<RankBackend<int64_t>> make_cpu_backend(const Layout&, std::vector<int64_t>&);

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
