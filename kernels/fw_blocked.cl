// Blocked Floyd-Warshall (seeds/000, 002, 004 with K = 1): the padded n x n matrix is
// a D x D grid of BLOCK x BLOCK tiles; block round kb runs three kernels:
//   fw_phase1  the pivot tile (kb, kb): plain FW over its BLOCK k's in __local;
//   fw_phase2  the pivot row (kb, j) and column (i, kb) tiles, 2 (D-1) work-groups,
//              each staging the final pivot tile and its own tile in __local;
//   fw_phase3  every other tile (i, j), (D-1)^2 work-groups, staging the final
//              column tile (i, kb) and row tile (kb, j); the element's minimum
//              stays in a register and is written once.
// Within a tile k runs in FW order, so int32 results equal the serial reference.
// A work-group is BLOCK x (BLOCK / WPT) work-items; each handles WPT rows of one
// column (rows ty, ty + TY, ...), which lets BLOCK = 64 run where a device caps
// work-groups at 1024 or 256 items.

#ifndef BLOCK
#define BLOCK 32 // tile edge: 8, 16, 32 or 64
#endif
#ifndef WPT
#define WPT 1 // rows per work-item: 1, 2, 4 or 8, dividing BLOCK
#endif
#define TY (BLOCK / WPT)  // work-group height
#if BLOCK % WPT != 0
#error "WPT must divide BLOCK"
#endif

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_phase1(const int n, const int kb, __global value_t* d) {
  __local value_t P[BLOCK][BLOCK];
  const int tx = get_local_id(0), ty = get_local_id(1);
  __global value_t* tile = d + (size_t)kb * BLOCK * n + kb * BLOCK;
  for (int r = 0; r < WPT; ++r) P[ty + r * TY][tx] = tile[(size_t)(ty + r * TY) * n + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < BLOCK; ++k) {
    // Row k and column k do not change in step k while d(k,k) >= 0, so one barrier
    // per step is enough; with a negative cycle the race only lowers values.
    const value_t dkj = P[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const value_t s = P[i][k] + dkj;
      if (s < P[i][tx]) P[i][tx] = NORM(s);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < WPT; ++r) tile[(size_t)(ty + r * TY) * n + tx] = P[ty + r * TY][tx];
}

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_phase2(const int n, const int kb, __global value_t* d) {
  __local value_t P[BLOCK][BLOCK];  // pivot tile, final for this round
  __local value_t T[BLOCK][BLOCK];  // own tile, updated in place
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int others = n / BLOCK - 1;          // tiles in the pivot row besides the pivot
  const int g = get_group_id(0);
  const int is_row = g < others;             // uniform per work-group
  const int o = (is_row ? g : g - others);
  const int other = o + (o >= kb);           // skip the pivot tile itself
  const int ti = is_row ? kb : other, tj = is_row ? other : kb;
  __global value_t* pivot = d + (size_t)kb * BLOCK * n + kb * BLOCK;
  __global value_t* tile = d + (size_t)ti * BLOCK * n + tj * BLOCK;
  for (int r = 0; r < WPT; ++r) {
    const size_t off = (size_t)(ty + r * TY) * n + tx;
    P[ty + r * TY][tx] = pivot[off];
    T[ty + r * TY][tx] = tile[off];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (is_row) {
    // Row tile: d(k', j) = min(d(k', j), d(k', k) + d(k, j)); d(k, j) is own row k.
    for (int k = 0; k < BLOCK; ++k) {
      const value_t dkj = T[k][tx];
      for (int r = 0; r < WPT; ++r) {
        const int i = ty + r * TY;
        const value_t s = P[i][k] + dkj;
        if (s < T[i][tx]) T[i][tx] = NORM(s);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  } else {
    // Column tile: d(i, k') = min(d(i, k'), d(i, k) + d(k, k')); d(i, k) is own column k.
    for (int k = 0; k < BLOCK; ++k) {
      const value_t dkj = P[k][tx];
      for (int r = 0; r < WPT; ++r) {
        const int i = ty + r * TY;
        const value_t s = T[i][k] + dkj;
        if (s < T[i][tx]) T[i][tx] = NORM(s);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  for (int r = 0; r < WPT; ++r) tile[(size_t)(ty + r * TY) * n + tx] = T[ty + r * TY][tx];
}

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_phase3(const int n, const int kb, __global value_t* d) {
  __local value_t Cs[BLOCK][BLOCK];  // tile (ib, kb): d(i, k), final for this round
  __local value_t Rs[BLOCK][BLOCK];  // tile (kb, jb): d(k, j), final for this round
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int ib = get_group_id(1) + (get_group_id(1) >= kb);  // the grid skips the pivot row
  const int jb = get_group_id(0) + (get_group_id(0) >= kb);  // and the pivot column
  __global const value_t* ctile = d + (size_t)ib * BLOCK * n + kb * BLOCK;
  __global const value_t* rtile = d + (size_t)kb * BLOCK * n + jb * BLOCK;
  __global value_t* tile = d + (size_t)ib * BLOCK * n + jb * BLOCK;
  value_t best[WPT];
  for (int r = 0; r < WPT; ++r) {
    const size_t off = (size_t)(ty + r * TY) * n + tx;
    Cs[ty + r * TY][tx] = ctile[off];
    Rs[ty + r * TY][tx] = rtile[off];
    best[r] = tile[off];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < BLOCK; ++k) {
    const value_t dkj = Rs[k][tx];
    for (int r = 0; r < WPT; ++r) best[r] = min(best[r], Cs[ty + r * TY][k] + dkj);
  }
  // Operands are normalised tiles, so normalising once after the k loop is exact.
  for (int r = 0; r < WPT; ++r) tile[(size_t)(ty + r * TY) * n + tx] = NORM(best[r]);
}
