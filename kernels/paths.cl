// Path-carrying kernels (ocl_sp --paths): blocked Floyd-Warshall (3 phases as in
// fw_blocked.cl), the paper's squaring product (as in minplus_square.cl) and the
// naive one-launch-per-k FW, each over three matrices: distances d (value_t), hop
// counts hop and the path matrix via (int). Relaxations compare (d, hop)
// lexicographically: candidate (d_ik + d_kj, hop_ik + hop_kj) replaces (d_ij, hop_ij)
// only when strictly smaller, and then via_ij = k. At the end every (d, hop) is
// optimal, so both halves of a via split have fewer hops than the whole and path
// expansion terminates even with zero-weight cycles (host/graph/paths.hpp).
// via is -1 for a direct edge, the diagonal and unreachable pairs; hop is 0 on the
// diagonal and for unreachable pairs. These kernels are built only on the first
// solve with paths, with their own tiling (the register-tiled TILED=1 family has
// no path version). int32 sums are compared before normalisation: a sum involving
// INF is >= 2^29 and never beats a finite value, so it can only "improve" an INF
// entry; such entries are written back as INF with hop 0 and via -1.

#ifndef BLOCK
#define BLOCK 32 // fw tile edge: 8, 16, 32 or 64 (four BLOCK x BLOCK tiles of __local)
#endif
#ifndef WPT
#define WPT 1 // fw rows per work-item: 1, 2, 4 or 8, dividing BLOCK
#endif
#ifndef WG
#define WG 16 // squaring / naive work-group edge: 4, 8, 16 or 32
#endif
#define TY (BLOCK / WPT)  // fw work-group height
#if BLOCK % WPT != 0
#error "WPT must divide BLOCK"
#endif
#define HOPS_CAP 1073741823  // 2^30 - 1: hops saturate (negative cycles only), sums fit
#define KEEP (-2)            // via sentinel: this element was not improved here

// (s, hs) strictly better than (d, h) in the lexicographic order.
#define LEX_BETTER(s, hs, d, h) ((s) < (d) || ((s) == (d) && (hs) < (h)))

// Hop and via matrices of an ld x ld adjacency matrix (padding included): hop 1
// where an edge exists, 0 on the diagonal and where none does; via -1. The
// distances are normalised in place on the way.
__kernel void paths_init(const int ld, __global value_t* d, __global int* hop,
                         __global int* via) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= ld || j >= ld) return;
  const size_t ij = (size_t)i * ld + j;
  const value_t x = NORM(d[ij]);
  d[ij] = x;
  hop[ij] = (i != j && x != INF) ? 1 : 0;
  via[ij] = -1;
}

// Writes an element the kernel improved (v != KEEP): an improved INF entry (only an
// INF candidate can do that) goes back to hop 0, via -1.
#define STORE_IMPROVED(idx, dval, hval, v)                 \
  do {                                                     \
    const value_t dn_ = NORM(dval);                        \
    d[idx] = dn_;                                          \
    hop[idx] = dn_ == INF ? 0 : min((hval), HOPS_CAP);     \
    via[idx] = dn_ == INF ? -1 : (v);                      \
  } while (0)

// ---- blocked Floyd-Warshall -------------------------------------------------
// Work-group BLOCK x TY; each work-item owns WPT rows (ty, ty + TY, ...) of one
// column, as in fw_blocked.cl. d and hop tiles live in __local memory; via is only
// written (the k of the last improvement, kept in registers).

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_paths_phase1(const int n, const int kb, __global value_t* d, __global int* hop,
                     __global int* via) {
  __local value_t P[BLOCK][BLOCK];
  __local int H[BLOCK][BLOCK];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const size_t base = (size_t)kb * BLOCK * n + kb * BLOCK;
  int v[WPT];
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    P[i][tx] = d[base + (size_t)i * n + tx];
    H[i][tx] = hop[base + (size_t)i * n + tx];
    v[r] = KEEP;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < BLOCK; ++k) {
    // Row k and column k do not change in step k: d(k,k) = 0 and hop(k,k) = 0 make
    // their candidates equal to the entries, so one barrier per step is enough.
    const value_t dkj = P[k][tx];
    const int hkj = H[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const value_t s = P[i][k] + dkj;
      const int hs = H[i][k] + hkj;
      if (LEX_BETTER(s, hs, P[i][tx], H[i][tx]) && NORM(s) != INF) {
        P[i][tx] = NORM(s);
        H[i][tx] = min(hs, HOPS_CAP);
        v[r] = kb * BLOCK + k;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    if (v[r] != KEEP) STORE_IMPROVED(base + (size_t)i * n + tx, P[i][tx], H[i][tx], v[r]);
  }
}

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_paths_phase2(const int n, const int kb, __global value_t* d, __global int* hop,
                     __global int* via) {
  __local value_t P[BLOCK][BLOCK];  // pivot tile, final for this round
  __local int PH[BLOCK][BLOCK];
  __local value_t T[BLOCK][BLOCK];  // own tile, updated in place
  __local int TH[BLOCK][BLOCK];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int others = n / BLOCK - 1;  // tiles in the pivot row besides the pivot
  const int g = get_group_id(0);
  const int is_row = g < others;     // uniform per work-group
  const int o = is_row ? g : g - others;
  const int other = o + (o >= kb);   // skip the pivot tile itself
  const int ti = is_row ? kb : other, tj = is_row ? other : kb;
  const size_t pbase = (size_t)kb * BLOCK * n + kb * BLOCK;
  const size_t tbase = (size_t)ti * BLOCK * n + tj * BLOCK;
  int v[WPT];
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    const size_t off = (size_t)i * n + tx;
    P[i][tx] = d[pbase + off];
    PH[i][tx] = hop[pbase + off];
    T[i][tx] = d[tbase + off];
    TH[i][tx] = hop[tbase + off];
    v[r] = KEEP;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < BLOCK; ++k) {
    // Row tile: (i, j) from P(i, k) + T(k, j), T's row k unchanged in step k.
    // Column tile: (i, j) from T(i, k) + P(k, j), T's column k unchanged in step k.
    const value_t dkj = is_row ? T[k][tx] : P[k][tx];
    const int hkj = is_row ? TH[k][tx] : PH[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const value_t s = (is_row ? P[i][k] : T[i][k]) + dkj;
      const int hs = (is_row ? PH[i][k] : TH[i][k]) + hkj;
      if (LEX_BETTER(s, hs, T[i][tx], TH[i][tx]) && NORM(s) != INF) {
        T[i][tx] = NORM(s);
        TH[i][tx] = min(hs, HOPS_CAP);
        v[r] = kb * BLOCK + k;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    if (v[r] != KEEP) STORE_IMPROVED(tbase + (size_t)i * n + tx, T[i][tx], TH[i][tx], v[r]);
  }
}

__kernel __attribute__((reqd_work_group_size(BLOCK, TY, 1)))
void fw_paths_phase3(const int n, const int kb, __global value_t* d, __global int* hop,
                     __global int* via) {
  __local value_t Cs[BLOCK][BLOCK];  // tile (ib, kb): d(i, k), final for this round
  __local int CH[BLOCK][BLOCK];
  __local value_t Rs[BLOCK][BLOCK];  // tile (kb, jb): d(k, j), final for this round
  __local int RH[BLOCK][BLOCK];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int ib = get_group_id(1) + (get_group_id(1) >= kb);  // the grid skips the pivot row
  const int jb = get_group_id(0) + (get_group_id(0) >= kb);  // and the pivot column
  const size_t cbase = (size_t)ib * BLOCK * n + kb * BLOCK;
  const size_t rbase = (size_t)kb * BLOCK * n + jb * BLOCK;
  const size_t tbase = (size_t)ib * BLOCK * n + jb * BLOCK;
  value_t bd[WPT];
  int bh[WPT], bv[WPT];
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    const size_t off = (size_t)i * n + tx;
    Cs[i][tx] = d[cbase + off];
    CH[i][tx] = hop[cbase + off];
    Rs[i][tx] = d[rbase + off];
    RH[i][tx] = hop[rbase + off];
    bd[r] = d[tbase + off];
    bh[r] = hop[tbase + off];
    bv[r] = KEEP;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < BLOCK; ++k) {
    const value_t dkj = Rs[k][tx];
    const int hkj = RH[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const value_t s = Cs[i][k] + dkj;
      const int hs = CH[i][k] + hkj;
      const int better = LEX_BETTER(s, hs, bd[r], bh[r]);
      bd[r] = better ? s : bd[r];
      bh[r] = better ? hs : bh[r];
      bv[r] = better ? k : bv[r];
    }
  }
  // Operands are normalised tiles, so normalising once after the k loop is exact.
  for (int r = 0; r < WPT; ++r) {
    const int i = ty + r * TY;
    if (bv[r] != KEEP) STORE_IMPROVED(tbase + (size_t)i * n + tx, bd[r], bh[r], kb * BLOCK + bv[r]);
  }
}

// ---- repeated squaring (the paper's kernel with hops and via) ---------------
// C = A (x) A over (d, hop): each element starts from A's own value and only a
// strictly better k replaces it. via is not read by a product, so one via matrix
// is updated in place while d and hop ping-pong. changed[slot] = 1 when any (d, hop)
// changes (a product that changes only hop counts must be followed by another).

__kernel __attribute__((reqd_work_group_size(WG, WG, 1)))
void minplus_square_paths(const int n,  // padded order, a multiple of WG
                          __global const value_t* A, __global const int* AH,
                          __global value_t* d, __global int* hop, __global int* via,
                          __global int* changed, const int slot) {
  __local value_t As[WG][WG];
  __local int AsH[WG][WG];
  __local value_t Bs[WG][WG];
  __local int BsH[WG][WG];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * WG + tx;
  const int row = get_group_id(1) * WG + ty;
  const size_t ij = (size_t)row * n + col;
  const value_t a0 = A[ij];
  const int h0 = AH[ij];
  value_t best = a0;
  int bh = h0, bv = KEEP;
  for (int k0 = 0; k0 < n; k0 += WG) {
    As[ty][tx] = A[(size_t)row * n + k0 + tx];  // tile of the row band
    AsH[ty][tx] = AH[(size_t)row * n + k0 + tx];
    Bs[ty][tx] = A[(size_t)(k0 + ty) * n + col];  // tile of the column band
    BsH[ty][tx] = AH[(size_t)(k0 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < WG; ++k) {
      const value_t s = As[ty][k] + Bs[k][tx];
      const int hs = AsH[ty][k] + BsH[k][tx];
      const int better = LEX_BETTER(s, hs, best, bh);
      best = better ? s : best;
      bh = better ? hs : bh;
      bv = better ? k0 + k : bv;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const value_t dn = NORM(best);
  const int improved = bv != KEEP && dn != INF;  // an INF "improvement" stays INF
  d[ij] = dn;
  hop[ij] = improved ? min(bh, HOPS_CAP) : h0;
  if (improved) {
    via[ij] = bv;
    changed[slot] = 1;  // plain store: every writer writes the same 1
  }
}

// ---- naive Floyd-Warshall, one launch per k --------------------------------
// In place over the unpadded n x n matrices; row k and column k do not change in
// step k (as in fw_naive.cl), so the in-place update is exact.

__kernel __attribute__((reqd_work_group_size(WG, WG, 1)))
void fw_naive_paths(const int n, const int k, __global value_t* d, __global int* hop,
                    __global int* via) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= n) return;
  const size_t ij = (size_t)i * n + j, ik = (size_t)i * n + k, kj = (size_t)k * n + j;
  const value_t s = d[ik] + d[kj];
  const int hs = hop[ik] + hop[kj];
  if (LEX_BETTER(s, hs, d[ij], hop[ij]) && NORM(s) != INF) {
    d[ij] = NORM(s);
    hop[ij] = min(hs, HOPS_CAP);
    via[ij] = k;
  }
}
