// Register-tiled (min,+) kernels, the fast variants: blocked Floyd-Warshall
// phases (fw_tiled_phase1/2/3) and the repeated-squaring product
// (minplus_tiled_product). A work-group owns a BLOCK x BLOCK tile; each work-item
// keeps TM x TN accumulators in registers and reads its operands from __local
// panels staged KC values of k at a time, so the inner loop is TM + TN local
// loads for TM * TN relaxations. Needs common.cl before it.

#ifndef BLOCK
#define BLOCK 64  // tile edge: the FW block edge and the product's output tile
#endif
#ifndef TM
#define TM 4  // rows of the tile each work-item updates
#endif
#ifndef TN
#define TN 4  // columns each work-item updates (a multiple of 4: vector loads)
#endif
#ifndef KC
#define KC 16  // k values staged in __local memory per step (divides BLOCK)
#endif
#ifndef APAD
#define APAD 4  // padding of the transposed column panel: fewer bank conflicts on
                // its staging stores while rows stay 16-byte aligned
#endif

#define NTX (BLOCK / TN)  // work-items along a tile row
#define NTY (BLOCK / TM)  // work-items along a tile column
#define NT (NTX * NTY)   // work-items per work-group

#if (BLOCK % TM) || (BLOCK % TN) || (TN % 4) || (TM % 4) || (BLOCK % KC)
#error "BLOCK must be a multiple of TM, TN and KC; TM and TN multiples of 4"
#endif

// The helpers below take the accumulator array by pointer: unless they are
// inlined, compilers move it to (slow) private memory in the stack frame.
#define HELPER __attribute__((always_inline))

#if defined(VALUE_FLOAT32)
typedef float4 value4_t;
#else
typedef int4 value4_t;
#endif

// Accumulators c[TM][TN] of the work-item at local (tx, ty): tile rows
// ty*TM .. ty*TM+TM-1 (contiguous: the work-items of a warp share few rows, so
// their row-operand loads are broadcasts) and columns in groups of 4:
// COLN(n) = (n/4) * 4*NTX + 4*tx + n%4, so the 4-wide vector accesses of
// neighbouring work-items are contiguous (no local-memory bank conflicts,
// coalesced global rows).
#define ROW0 (get_local_id(1) * TM)
#define COLN(n) (((n) / 4) * (4 * NTX) + get_local_id(0) * 4 + ((n) % 4))

HELPER void load_acc(value_t c[TM][TN], __global const value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = vload4(0, t + (size_t)(ROW0 + m) * ld + COLN(n));
      c[m][n] = v.s0;
      c[m][n + 1] = v.s1;
      c[m][n + 2] = v.s2;
      c[m][n + 3] = v.s3;
    }
}

HELPER void fill_acc(value_t c[TM][TN], value_t v) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) c[m][n] = v;
}

// c = min(c, tile): merges the accumulated products with the old values, read
// only after the k loop so the loads do not hold up its start.
HELPER void merge_acc(value_t c[TM][TN], __global const value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = vload4(0, t + (size_t)(ROW0 + m) * ld + COLN(n));
      c[m][n] = min(c[m][n], v.s0);
      c[m][n + 1] = min(c[m][n + 1], v.s1);
      c[m][n + 2] = min(c[m][n + 2], v.s2);
      c[m][n + 3] = min(c[m][n + 3], v.s3);
    }
}

HELPER void store_acc(value_t c[TM][TN], __global value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = (value4_t)(NORM(c[m][n]), NORM(c[m][n + 1]), NORM(c[m][n + 2]),
                                    NORM(c[m][n + 3]));
      vstore4(v, 0, t + (size_t)(ROW0 + m) * ld + COLN(n));
    }
}

// Stages As[kk][r] = a[r][k0 + kk] (transposed) for the BLOCK x KC panel at a.
HELPER void stage_cols(__local value_t As[KC][BLOCK + APAD], __global const value_t* a, int ld,
                       int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = tid; e < BLOCK * KC; e += NT) {
    const int r = e / KC, kk = e % KC;  // consecutive work-items read along a row
    As[kk][r] = a[(size_t)r * ld + k0 + kk];
  }
}

// Stages Bs[kk][c] = b[k0 + kk][c] for the KC x BLOCK panel at b.
HELPER void stage_rows(__local value_t Bs[KC][BLOCK], __global const value_t* b, int ld, int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = tid; e < BLOCK * KC; e += NT) {
    const int kk = e / BLOCK, cc = e % BLOCK;
    Bs[kk][cc] = b[(size_t)(k0 + kk) * ld + cc];
  }
}

// c = min(c, a + b) over the KC staged values of k: the hot loop.
HELPER void relax_chunk(value_t c[TM][TN], __local value_t As[KC][BLOCK + APAD],
                        __local value_t Bs[KC][BLOCK]) {
// Fully unrolled where it was measured fastest (NVIDIA: the host defines
// FULL_UNROLL); elsewhere a partial unroll keeps compile times short (clang for
// amdgcn needs ~100 s for a fully unrolled 8 x 8 x 32 chunk).
#ifdef FULL_UNROLL
#pragma unroll
#else
#pragma unroll 4
#endif
  for (int kk = 0; kk < KC; ++kk) {
    value_t a[TM], b[TN];
#pragma unroll
    for (int m = 0; m < TM; m += 4) {
      const value4_t v = vload4(0, &As[kk][ROW0 + m]);
      a[m] = v.s0;
      a[m + 1] = v.s1;
      a[m + 2] = v.s2;
      a[m + 3] = v.s3;
    }
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = vload4(0, &Bs[kk][COLN(n)]);
      b[n] = v.s0;
      b[n + 1] = v.s1;
      b[n + 2] = v.s2;
      b[n + 3] = v.s3;
    }
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
      for (int n = 0; n < TN; ++n) c[m][n] = min(c[m][n], a[m] + b[n]);
  }
}

// Publishes row k of the work-group's tile (held in registers) to rowbuf. Register
// arrays must be indexed statically, so the element is picked by a select chain.
HELPER void publish_row(value_t c[TM][TN], __local value_t* rowbuf, int k) {
  if (get_local_id(1) == k / TM) {
    const int mm = k % TM;
#pragma unroll
    for (int n = 0; n < TN; ++n) {
      value_t v = c[0][n];
#pragma unroll
      for (int m = 1; m < TM; ++m) v = m == mm ? c[m][n] : v;
      rowbuf[COLN(n)] = NORM(v);
    }
  }
}

// Publishes column k of the tile to colbuf.
HELPER void publish_col(value_t c[TM][TN], __local value_t* colbuf, int k) {
  // Inverse of COLN: column k is element nn of work-item tx.
  if (get_local_id(0) == (k % (4 * NTX)) / 4) {
    const int nn = (k / (4 * NTX)) * 4 + k % 4;
#pragma unroll
    for (int m = 0; m < TM; ++m) {
      value_t v = c[m][0];
#pragma unroll
      for (int n = 1; n < TN; ++n) v = n == nn ? c[m][n] : v;
      colbuf[ROW0 + m] = NORM(v);
    }
  }
}

HELPER void relax_one(value_t c[TM][TN], const value_t a[TM], const value_t b[TN]) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) c[m][n] = min(c[m][n], a[m] + b[n]);
}

// Phase 1: Floyd-Warshall inside the pivot tile (kb, kb); one work-group. Row and
// column k are broadcast through __local memory each step; the buffers alternate
// between steps, so one barrier per step suffices (a buffer is rewritten two
// steps later, after every work-item has passed the barrier between).
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_phase1(
    const int ld, const int kb, __global value_t* d) {
  __local value_t rowbuf[2][BLOCK], colbuf[2][BLOCK];
  __global value_t* t = d + (size_t)kb * BLOCK * ld + kb * BLOCK;
  value_t c[TM][TN];
  load_acc(c, t, ld);
  for (int k = 0; k < BLOCK; ++k) {
    const int p = k & 1;
    publish_row(c, rowbuf[p], k);
    publish_col(c, colbuf[p], k);
    barrier(CLK_LOCAL_MEM_FENCE);
    value_t a[TM], b[TN];
#pragma unroll
    for (int m = 0; m < TM; ++m) a[m] = colbuf[p][ROW0 + m];
#pragma unroll
    for (int n = 0; n < TN; ++n) b[n] = rowbuf[p][COLN(n)];
    relax_one(c, a, b);
  }
  store_acc(c, t, ld);
}

// Phase 2: the pivot row tiles (kb, j) and pivot column tiles (i, kb), 2 * D
// work-groups (the pivot itself returns). With the pivot tile P closed by phase 1
// (P(i,i) = 0), the sequential k loop of classic FW collapses into one product:
// row tile T = P (x) T, column tile T = T (x) P (a path through the pivot block
// is a walk inside it, P, followed or preceded by one step of the old tile). A
// tile is staged before it is written and only its own work-group touches it, so
// the product runs in place, with phase 3's parallel GEMM loop.
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_phase2(
    const int ld, const int kb, __global value_t* d) {
  const int tiles = ld / BLOCK;
  const int g = get_group_id(0);
  const int is_col = g >= tiles, idx = is_col ? g - tiles : g;
  if (idx == kb) return;
  __local value_t As[KC][BLOCK + APAD];
  __local value_t Bs[KC][BLOCK];
  __global const value_t* p = d + (size_t)kb * BLOCK * ld + kb * BLOCK;
  __global value_t* t = is_col ? d + (size_t)idx * BLOCK * ld + kb * BLOCK
                               : d + (size_t)kb * BLOCK * ld + idx * BLOCK;
  value_t c[TM][TN];
  fill_acc(c, INF);
  for (int k0 = 0; k0 < BLOCK; k0 += KC) {
    stage_cols(As, is_col ? t : p, ld, k0);
    stage_rows(Bs, is_col ? p : t, ld, k0);
    barrier(CLK_LOCAL_MEM_FENCE);
    relax_chunk(c, As, Bs);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  merge_acc(c, t, ld);
  store_acc(c, t, ld);
}

// Phase 3: every tile (i, j) off the pivot row and column: a (min,+) product of
// the final pivot-column panel and pivot-row panel into the tile, D x D groups.
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_phase3(
    const int ld, const int kb, __global value_t* d) {
  const int bj = get_group_id(0), bi = get_group_id(1);
  if (bi == kb || bj == kb) return;  // whole work-group leaves: no barrier is split
  __local value_t As[KC][BLOCK + APAD];
  __local value_t Bs[KC][BLOCK];
  __global value_t* t = d + (size_t)bi * BLOCK * ld + bj * BLOCK;
  __global const value_t* a = d + (size_t)bi * BLOCK * ld + kb * BLOCK;  // pivot columns
  __global const value_t* b = d + (size_t)kb * BLOCK * ld + bj * BLOCK;  // pivot rows
  value_t c[TM][TN];
  fill_acc(c, INF);
  for (int k0 = 0; k0 < BLOCK; k0 += KC) {
    stage_cols(As, a, ld, k0);
    stage_rows(Bs, b, ld, k0);
    barrier(CLK_LOCAL_MEM_FENCE);
    relax_chunk(c, As, Bs);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  merge_acc(c, t, ld);
  store_acc(c, t, ld);
}

// One repeated-squaring step out = in (x) in over the padded ld x ld matrix.
// The diagonal is 0, so the k = i term is in(i, j) itself: out = min over k
// without a separate merge; changed[slot] is set when any element improves
// (one slot per product).
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void minplus_tiled_product(
    const int ld, __global const value_t* in, __global value_t* out, __global int* changed,
    const int slot) {
  const int bj = get_group_id(0), bi = get_group_id(1);
  __local value_t As[KC][BLOCK + APAD];
  __local value_t Bs[KC][BLOCK];
  __global const value_t* a = in + (size_t)bi * BLOCK * ld;  // row panel of the output tile
  __global const value_t* b = in + bj * BLOCK;               // column panel
  value_t c[TM][TN];
  fill_acc(c, INF);
  for (int k0 = 0; k0 < ld; k0 += KC) {
    stage_cols(As, a, ld, k0);
    stage_rows(Bs, b, ld, k0);
    barrier(CLK_LOCAL_MEM_FENCE);
    relax_chunk(c, As, Bs);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // Compare with the input tile (re-read: keeping a copy would double the
  // registers); one plain store of 1 is enough, no atomics needed.
  value_t old[TM][TN];
  load_acc(old, in + (size_t)bi * BLOCK * ld + bj * BLOCK, ld);
  int any = 0;
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) any |= NORM(c[m][n]) != old[m][n];
  if (any) changed[slot] = 1;
  store_acc(c, out + (size_t)bi * BLOCK * ld + bj * BLOCK, ld);
}
