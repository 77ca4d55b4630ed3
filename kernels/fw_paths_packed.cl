// Blocked Floyd-Warshall with paths on packed keys: the fast path of `--paths` for
// graphs whose weights are non-negative integers (int32, or float32 holding
// integers, whose sums are then exact) (host/solvers/opencl_fw.cpp decides; the
// general kernels of paths.cl run otherwise, and whenever this path reports that a
// value did not fit). Each (distance, hops) pair is one int key
//     key = dist << dshift | hops << TAGB | tag
// so that comparing keys compares (distance, hops) lexicographically and one
// integer add + min relaxes both: the cost of a distance-only (min,+) step. The
// low TAGB bits are zero in stored keys; phase 3 adds k+1 to its staged pivot
// column, so the minimum also names the k it came from (via) and an unchanged
// element (tag 0) wins ties, as the lexicographic rule wants.
// Distances saturate: a stored distance field is exact below SAT, SAT means "a
// finite length >= SAT" and INFF is unreachable. Without negative weights every
// prefix of a shortest path is no longer than the path, so a pair whose result is
// below SAT is exact (distance and hops); a result of SAT, or a hop count above
// hmax (which would make two summed hop fields carry into the distance), sets
// flags[0] and the host reruns the general kernels. Runtime layout (host):
// dshift = TAGB + hop bits, INFF = 2^(31 - dshift - 1) - 1, SAT = (INFF - 1) / 2,
// so the sum of two stored keys plus a tag stays below 2^31.

#ifndef WPT
#define WPT 8 // phases 1-2: rows per work-item (4, 8 or 16); work-group PB x PB/WPT
#endif
#define PB 64        // tile edge and pivot block (the tag field holds k + 1 <= 64)
#define TAGB 7       // bits of the tag field
#define TAGMASK 127
#define TY (PB / WPT)
#define KEEP (-2)    // via sentinel: not improved here
#if PB % WPT != 0
#error "WPT must divide 64"
#endif

// A sum of two stored keys (tag removed) as a stored key: distance saturated.
int clamp_key(const int c, const int dshift, const int satf, const int inff) {
  const int df = c >> dshift;
  return df >= inff ? inff << dshift : df >= satf ? satf << dshift : c;
}

// Stores an improved key and its via; flags a hop count the layout cannot add.
void store_key(__global int* key, __global int* via, __global int* flags, const size_t idx,
               const int k, const int v, const int dshift, const int satf, const int hmax) {
  key[idx] = k;
  via[idx] = v;
  if ((k >> dshift) < satf && ((k >> TAGB) & ((1 << (dshift - TAGB)) - 1)) > hmax) flags[0] = 1;
}

// Normalised ld x ld adjacency matrix (padding included) -> keys in place (the key
// matrix is the distance buffer read as int), via -1.
__kernel void fwp_pack(const int ld, const int dshift, const int satf, const int inff,
                       __global value_t* d, __global int* via) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= ld || j >= ld) return;
  const size_t ij = (size_t)i * ld + j;
  const value_t x = d[ij];  // an integer >= 0 (checked on the host) or INF
  ((__global int*)d)[ij] =
      x == INF ? inff << dshift : i == j ? 0 : (min((int)x, satf) << dshift) | (1 << TAGB);
  via[ij] = -1;
}

// Keys -> distances in place and hop counts; flags a saturated result.
__kernel void fwp_unpack(const int n, const int ld, const int dshift, const int satf,
                         const int inff, __global value_t* d, __global int* hop,
                         __global int* flags) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= ld || j >= ld) return;
  const size_t ij = (size_t)i * ld + j;
  const int k = ((__global int*)d)[ij], df = k >> dshift;
  if (df >= satf && df < inff && i < n && j < n) flags[0] = 1;
  d[ij] = df >= satf ? INF : (value_t)df;
  hop[ij] = df >= satf ? 0 : (k >> TAGB) & ((1 << (dshift - TAGB)) - 1);
}

// Phase 1: FW inside the pivot tile, in FW order in __local memory. Row k and
// column k do not change in step k (key(k,k) = 0), so one barrier per step.
__kernel __attribute__((reqd_work_group_size(PB, TY, 1)))
void fwp_phase1(const int ld, const int kb, const int dshift, const int satf, const int inff,
                const int hmax, __global int* key, __global int* via, __global int* flags) {
  __local int P[PB][PB];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const size_t base = (size_t)kb * PB * ld + kb * PB;
  int v[WPT];
  for (int r = 0; r < WPT; ++r) {
    P[ty + r * TY][tx] = key[base + (size_t)(ty + r * TY) * ld + tx];
    v[r] = KEEP;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < PB; ++k) {
    const int pkj = P[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const int c = P[i][k] + pkj;
      if (c < P[i][tx]) {
        P[i][tx] = clamp_key(c, dshift, satf, inff);
        v[r] = kb * PB + k;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < WPT; ++r)
    if (v[r] != KEEP)
      store_key(key, via, flags, base + (size_t)(ty + r * TY) * ld + tx, P[ty + r * TY][tx], v[r],
                dshift, satf, hmax);
}

// Phase 2: the pivot row and column tiles, in FW order against the final pivot.
__kernel __attribute__((reqd_work_group_size(PB, TY, 1)))
void fwp_phase2(const int ld, const int kb, const int dshift, const int satf, const int inff,
                const int hmax, __global int* key, __global int* via, __global int* flags) {
  __local int P[PB][PB];  // pivot tile, final for this round
  __local int T[PB][PB];  // own tile, updated in place
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int others = ld / PB - 1;
  const int g = get_group_id(0);
  const int is_row = g < others;  // uniform per work-group
  const int o = is_row ? g : g - others;
  const int other = o + (o >= kb);  // skip the pivot tile itself
  const int ti = is_row ? kb : other, tj = is_row ? other : kb;
  const size_t pbase = (size_t)kb * PB * ld + kb * PB;
  const size_t tbase = (size_t)ti * PB * ld + tj * PB;
  int v[WPT];
  for (int r = 0; r < WPT; ++r) {
    const size_t off = (size_t)(ty + r * TY) * ld + tx;
    P[ty + r * TY][tx] = key[pbase + off];
    T[ty + r * TY][tx] = key[tbase + off];
    v[r] = KEEP;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < PB; ++k) {
    // Row tile: P(i, k) + T(k, j); column tile: T(i, k) + P(k, j).
    const int kj = is_row ? T[k][tx] : P[k][tx];
    for (int r = 0; r < WPT; ++r) {
      const int i = ty + r * TY;
      const int c = (is_row ? P[i][k] : T[i][k]) + kj;
      if (c < T[i][tx]) {
        T[i][tx] = clamp_key(c, dshift, satf, inff);
        v[r] = kb * PB + k;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int r = 0; r < WPT; ++r)
    if (v[r] != KEEP)
      store_key(key, via, flags, tbase + (size_t)(ty + r * TY) * ld + tx, T[ty + r * TY][tx], v[r],
                dshift, satf, hmax);
}

// Phase 3: every other tile, C = min(C, A (x) B) with A = tile (ib, kb) tagged with
// k + 1, B = tile (kb, jb). 16 x 16 work-items, each owning 4 x 4 elements of the
// 64 x 64 tile in registers; per 4 values of k, four vector loads of A and four of
// B serve 64 relaxations of one add and one min each.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void fwp_phase3(const int ld, const int kb, const int dshift, const int satf, const int inff,
                const int hmax, __global int* key, __global int* via, __global int* flags) {
  __local int As[PB][PB + 4];  // rows of tile (ib, kb), tagged; +4 keeps rows 16-byte
                               // aligned and spreads the rows of a warp over the banks
  __local int Bs[PB][PB];      // tile (kb, jb)
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = ty * 16 + tx;
  const int ib = get_group_id(1) + (get_group_id(1) >= kb);  // the grid skips the pivot row
  const int jb = get_group_id(0) + (get_group_id(0) >= kb);  // and the pivot column
  const size_t abase = (size_t)ib * PB * ld + kb * PB;
  const size_t bbase = (size_t)kb * PB * ld + jb * PB;
  const size_t cbase = (size_t)ib * PB * ld + jb * PB;
  // Staging: each work-item copies 16 values of each tile, one int4 per row step.
  for (int e = lid; e < PB * PB / 4; e += 256) {
    const int r = e / (PB / 4), c = (e % (PB / 4)) * 4;
    const int4 a = vload4(0, key + abase + (size_t)r * ld + c);
    vstore4(a + (int4)(c + 1, c + 2, c + 3, c + 4), 0, &As[r][c]);
    vstore4(vload4(0, key + bbase + (size_t)r * ld + c), 0, &Bs[r][c]);
  }
  int4 acc[4];
  for (int r = 0; r < 4; ++r) acc[r] = vload4(0, key + cbase + (size_t)(ty * 4 + r) * ld + tx * 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k0 = 0; k0 < PB; k0 += 4) {
    int4 a[4], b[4];
    for (int r = 0; r < 4; ++r) a[r] = vload4(0, &As[ty * 4 + r][k0]);
    for (int q = 0; q < 4; ++q) b[q] = vload4(0, &Bs[k0 + q][tx * 4]);
    for (int r = 0; r < 4; ++r) {
      acc[r] = min(acc[r], (int4)(a[r].x) + b[0]);
      acc[r] = min(acc[r], (int4)(a[r].y) + b[1]);
      acc[r] = min(acc[r], (int4)(a[r].z) + b[2]);
      acc[r] = min(acc[r], (int4)(a[r].w) + b[3]);
    }
  }
  for (int r = 0; r < 4; ++r) {
    const int x[4] = {acc[r].x, acc[r].y, acc[r].z, acc[r].w};
    for (int c = 0; c < 4; ++c) {
      const int tag = x[c] & TAGMASK;
      if (tag)
        store_key(key, via, flags, cbase + (size_t)(ty * 4 + r) * ld + tx * 4 + c,
                  clamp_key(x[c] & ~TAGMASK, dshift, satf, inff), kb * PB + tag - 1, dshift,
                  satf, hmax);
    }
  }
}

