// CPU-shaped blocked Floyd-Warshall (TILED=2): kernels for OpenCL CPU devices
// (PoCL), which vectorise across the work-items of a group and so turn the
// GPU-shaped kernels' per-work-item operand loads into gathers. Here one work-item
// owns a whole BLOCK x BLOCK tile (work-groups of one item) and does the SIMD
// itself: a tile row is BLOCK/16 explicit 16-wide vectors (vload16 / vstore16), the
// inner loop is the OpenMP solver's c_row = min(c_row, a(i,k) + b_row_k) on a
// register block of RB rows x SW vectors, which LLVM maps onto AVX-512 (AVX2: two
// halves). Needs common.cl before it. Per block round kb, launched with the
// arguments (ld, kb, d) over the padded ld x ld matrix d:
//   fw_cpu_phase1  1 work-item: FW inside the pivot tile (kb, kb);
//   fw_cpu_phase2  2 * ld/BLOCK work-items: pivot row tile (kb, j) = min(T, P (x) T),
//                  pivot column tile (i, kb) = min(T, T (x) P) with the closed pivot
//                  tile P (see fw_tiled_phase2 in minplus_tiled.cl: exact), the
//                  pivot itself returns;
//   fw_cpu_phase3  (ld/BLOCK)^2 work-items: tile (i, j) = min(T, A(i,kb) (x) A(kb,j))
//                  off the pivot row and column (the others return).
// Operand tiles are copied into __local memory first (PoCL: plain host memory of
// the group): rows of a tile lie ld values apart, and with ld a power of two they
// would all map onto the same few L1 sets. Values are stored through NORM; sums
// are kept unnormalised only inside a k loop, where every operand is a stored
// (normalised) value, so normalising once on the store is exact (as in
// minplus_tiled.cl): norm(min(x, y)) = min(norm x, norm y).

#ifndef BLOCK
#define BLOCK 64  // tile edge: 32, 64 or 128
#endif
#if BLOCK % 16 != 0 || BLOCK < 16
#error "BLOCK must be a multiple of 16"
#endif
#define NV (BLOCK / 16)  // 16-wide vectors per tile row

// Register block of the (min,+) product: RB rows x SW vectors of the output tile
// stay in registers over the whole k loop (16 accumulators: AVX-512 has 32 vector
// registers; B's SW vectors are reused RB times, each a(i, k) SW times).
#ifndef SW
#define SW (NV < 4 ? NV : 4)
#endif
#ifndef RB
#define RB (16 / SW)
#endif
#if NV % SW != 0 || BLOCK % RB != 0
#error "SW must divide BLOCK/16 and RB must divide BLOCK"
#endif

// The column operand A of a product is staged as well where two tiles fit 64 KiB
// (so every variant also builds for GPUs' __local limits); for BLOCK = 128 it is
// read in place (each work-item streams RB of its rows).
#ifndef STAGE_A
#define STAGE_A (BLOCK <= 64)
#endif
#if STAGE_A
#define ASPACE __local
#else
#define ASPACE __global
#endif

#define HELPER __attribute__((always_inline))

#if defined(VALUE_FLOAT32)
typedef float16 vec_t;
#define VNORM(v) (v)
#elif defined(VALUE_FLOAT64)
typedef double16 vec_t;
#define VNORM(v) (v)
#else
#if defined(VALUE_INT64)
typedef long16 vec_t;
#else
typedef int16 vec_t;
#endif
// NORM (common.cl) on 16 values at once.
#define VNORM(v) select(max((v), (vec_t)(-FINITE_LIMIT + 1)), (vec_t)(INF), (v) >= (vec_t)(FINITE_LIMIT))
#endif

// dst[r][c] = src[r * ld + c] for a BLOCK x BLOCK tile (dst rows contiguous).
HELPER void cpu_stage(__local value_t* dst, __global const value_t* src, int ld) {
  for (int r = 0; r < BLOCK; ++r)
#pragma unroll
    for (int s = 0; s < NV; ++s) vstore16(vload16(s, src + (size_t)r * ld), s, dst + r * BLOCK);
}

// Rows 0..RB-1, columns j0 .. j0 + 16*SW - 1 of c (stride ld): c = min(c, a (x) b),
// a the matching RB rows of the column operand (stride lda), b the staged row
// operand (stride BLOCK). c may be the memory a points to (column tiles): a row's
// a values are read before the row is stored.
HELPER void cpu_product_block(__global value_t* c, int ld, ASPACE const value_t* a, int lda,
                              __local const value_t* b, int j0) {
  vec_t acc[RB][SW];
#pragma unroll
  for (int r = 0; r < RB; ++r)
#pragma unroll
    for (int s = 0; s < SW; ++s) acc[r][s] = vload16(0, c + (size_t)r * ld + j0 + 16 * s);
  for (int k = 0; k < BLOCK; ++k) {
    vec_t bv[SW];
#pragma unroll
    for (int s = 0; s < SW; ++s) bv[s] = vload16(0, b + k * BLOCK + j0 + 16 * s);
#pragma unroll
    for (int r = 0; r < RB; ++r) {
      const vec_t av = (vec_t)(a[(size_t)r * lda + k]);
#pragma unroll
      for (int s = 0; s < SW; ++s) acc[r][s] = min(acc[r][s], av + bv[s]);
    }
  }
#pragma unroll
  for (int r = 0; r < RB; ++r)
#pragma unroll
    for (int s = 0; s < SW; ++s) vstore16(VNORM(acc[r][s]), 0, c + (size_t)r * ld + j0 + 16 * s);
}

// The whole tile: column strips of 16*SW values (the strip of b stays in L1),
// RB rows at a time.
HELPER void cpu_product(__global value_t* c, int ld, ASPACE const value_t* a, int lda,
                        __local const value_t* b) {
  for (int j0 = 0; j0 < BLOCK; j0 += 16 * SW)
    for (int i = 0; i < BLOCK; i += RB)
      cpu_product_block(c + (size_t)i * ld, ld, a + (size_t)i * lda, lda, b, j0);
}

// Phase 1: Floyd-Warshall on the staged pivot tile. Row k is normalised (in place)
// before it serves as operand, a(i, k) when read; the rest once on the way out.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fw_cpu_phase1(
    const int ld, const int kb, __global value_t* d) {
  __local value_t P[BLOCK * BLOCK];
  __global value_t* t = d + (size_t)kb * BLOCK * ld + kb * BLOCK;
  cpu_stage(P, t, ld);
  for (int k = 0; k < BLOCK; ++k) {
    vec_t row[NV];
#pragma unroll
    for (int s = 0; s < NV; ++s) {
      row[s] = VNORM(vload16(s, P + k * BLOCK));
      vstore16(row[s], s, P + k * BLOCK);
    }
    for (int i = 0; i < BLOCK; ++i) {
      const value_t a = NORM(P[i * BLOCK + k]);
      if (a == INF) continue;  // exact: INF + x normalises back to INF
      const vec_t av = (vec_t)(a);
#pragma unroll
      for (int s = 0; s < NV; ++s)
        vstore16(min(vload16(s, P + i * BLOCK), av + row[s]), s, P + i * BLOCK);
    }
  }
  for (int r = 0; r < BLOCK; ++r)
#pragma unroll
    for (int s = 0; s < NV; ++s) vstore16(VNORM(vload16(s, P + r * BLOCK)), s, t + (size_t)r * ld);
}

// Phase 2: work-item g < D is the pivot row tile (kb, g), g >= D the pivot column
// tile (g - D, kb), D = ld / BLOCK.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fw_cpu_phase2(
    const int ld, const int kb, __global value_t* d) {
  const int tiles = ld / BLOCK;
  const int g = get_global_id(0);
  const int is_col = g >= tiles, idx = is_col ? g - tiles : g;
  if (idx == kb) return;
  __local value_t Bs[BLOCK * BLOCK];
  __global value_t* p = d + (size_t)kb * BLOCK * ld + kb * BLOCK;
  __global value_t* t = is_col ? d + (size_t)idx * BLOCK * ld + kb * BLOCK
                               : d + (size_t)kb * BLOCK * ld + idx * BLOCK;
  // Row tile: T (x) staged (its rows are rewritten while read); column tile: P.
  cpu_stage(Bs, is_col ? p : t, ld);
#if STAGE_A
  __local value_t As[BLOCK * BLOCK];
  cpu_stage(As, is_col ? t : p, ld);
  cpu_product(t, ld, As, BLOCK, Bs);
#else
  cpu_product(t, ld, is_col ? t : p, ld, Bs);
#endif
}

// Phase 3: work-item (j, i) is tile (i, j); those in the pivot row or column return.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fw_cpu_phase3(
    const int ld, const int kb, __global value_t* d) {
  const int bj = get_global_id(0), bi = get_global_id(1);
  if (bi == kb || bj == kb) return;
  __local value_t Bs[BLOCK * BLOCK];
  __global value_t* t = d + (size_t)bi * BLOCK * ld + bj * BLOCK;
  __global value_t* a = d + (size_t)bi * BLOCK * ld + kb * BLOCK;  // pivot-column tile
  cpu_stage(Bs, d + (size_t)kb * BLOCK * ld + bj * BLOCK, ld);       // pivot-row tile
#if STAGE_A
  __local value_t As[BLOCK * BLOCK];
  cpu_stage(As, a, ld);
  cpu_product(t, ld, As, BLOCK, Bs);
#else
  cpu_product(t, ld, a, ld, Bs);
#endif
}
