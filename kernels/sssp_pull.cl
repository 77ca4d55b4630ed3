// Pull rounds of sssp_lanes (kernels/sssp.cl; the host builds common.cl, sssp.cl
// and this file as one program: "sssp.cl+sssp_pull.cl"). A near round whose queue
// holds at least pull_min vertices (the host's PULL, a share of n) is run over the
// graph's in-edges instead of the queue's out-edges: the queue becomes a bitmap
// in __local memory, and work-item i takes vertices i, i + LANE_WG, ...; for each
// it reads its in-edges (in_off, in_src, in_w: the transposed CSR) and, for
// every in-edge whose tail is queued, the tail's LANES values (one sector), and
// lowers its own row to the minimum over them with a plain store: in a pull round
// only a vertex's own work-item writes its row, so no atomics and no lost
// updates. The same relaxations as the push round (every out-edge of every
// queued vertex), in another order: each lane value it writes is a path's sum
// computed as the push round computes it (the tail's value + the edge's weight,
// in the value type), so the search ends at the same values, bit for bit, float
// or integer (the smallest path sum, which no schedule changes). A tail lowered
// during the round (it is a vertex of this round too) may be read old or new:
// either is a path's sum, and a lowered tail is queued for the next round anyway.
// A vertex that improved goes on the queues as a push round's head does: near when
// a lane fell below split, else on the far pile (far_lo lowered).
// (Nothing of this file in sssp.cl's programs of the near-far kernels alone:
// NEAR_FAR_LOCAL_ROW, NEAR_FAR_ONLY.)
#if !defined(NEAR_FAR_LOCAL_ROW) && !defined(NEAR_FAR_ONLY)

// The round's queue (queue[0, cnt)) as bits of `bits` (n bits; cleared first).
void lanes_pull_mark(__local uint* bits, __global const int* queue, const int cnt, const int n, const int lid) {
  for (int i = lid; i < (n + 31) / 32; i += LANE_WG) bits[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < cnt; i += LANE_WG) {
    const int u = queue[i];
    atomic_or(&bits[u >> 5], 1u << (u & 31));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

#define PULL_QUEUED(u) ((bits[(u) >> 5] >> ((u) & 31)) & 1u)
// The outcome of a lane for the queues: 1 the lane now below split, 2 improved to
// split or beyond (far_lo lowered to it).
#define PULL_HIT(B, OLD)            \
  if ((B) < (OLD)) {                \
    if ((B) < split_bits) {         \
      hit |= 1;                     \
    } else {                        \
      hit |= 2;                     \
      *far_lo = min(*far_lo, (B));  \
    }                               \
  }

// Tiles of PULL_TV consecutive vertices (8 KiB of lane values in __local memory):
// their in-edges are one range of in_src, read by consecutive work-items
// (coalesced); each edge with a queued tail reads the tail's row and lowers the
// head's lane values in the tile (__local atomic_min, found by a binary search
// of the tile's offsets); then each vertex of the tile compares its lane values
// with its row, writes the row where a lane improved and goes on the queues.
#define PULL_LANE(K, DU)                                         \
  if ((DU) != RAW_INF_BITS) {                                    \
    const bits_t nb = AS_BITS(AS_VALUE(DU) + we);                \
    volatile __local bits_t* p = &l_best[at + (K)];              \
    if (nb < *p) LOCAL_MIN(p, nb);                               \
  }
void lanes_pull_round(const int n, const int lid, __global const int* in_off, __global const int* in_src,
                      __global const value_t* in_w, __local const uint* bits, volatile __local bits_t* l_best,
                      __local int* l_off, volatile __global bits_t* dist, const bits_t split_bits, bits_t* far_lo,
                      __global int* near_b, __global int* far_a, volatile __global int* flags,
                      volatile __local int* counters) {
  for (int v0 = 0; v0 < n; v0 += PULL_TV) {
    const int tv = min(PULL_TV, n - v0);
    for (int i = lid; i <= tv; i += LANE_WG) l_off[i] = in_off[v0 + i];
    for (int i = lid; i < tv * LANES; i += LANE_WG) l_best[i] = RAW_INF_BITS;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int e1 = l_off[tv];
    for (int e = l_off[0] + lid; e < e1; e += LANE_WG) {
      const int u = in_src[e];
      if (!PULL_QUEUED(u)) continue;
      int lo = 0, hi = tv - 1;  // the head: the last tile vertex whose edges start at or before e
      while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (l_off[mid] <= e)
          lo = mid;
        else
          hi = mid - 1;
      }
      const int at = lo * LANES;
      const value_t we = in_w[e];
      const __global bits_t* ru = (const __global bits_t*)dist + (size_t)u * LANES;
#pragma unroll
      for (int c = 0; c < LANE_VECS; ++c) {
        const bits4_t du = vload4(c, ru);
        PULL_LANE(4 * c, du.s0)
        PULL_LANE(4 * c + 1, du.s1)
        PULL_LANE(4 * c + 2, du.s2)
        PULL_LANE(4 * c + 3, du.s3)
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < tv; i += LANE_WG) {
      __global bits_t* rv = (__global bits_t*)dist + (size_t)(v0 + i) * LANES;
      int hit = 0;
      bits4_t best[LANE_VECS];
#pragma unroll
      for (int c = 0; c < LANE_VECS; ++c) {
        const bits4_t old = vload4(c, rv);
        best[c] = min(old, vload4(c, (__local const bits_t*)l_best + i * LANES));
        PULL_HIT(best[c].s0, old.s0)
        PULL_HIT(best[c].s1, old.s1)
        PULL_HIT(best[c].s2, old.s2)
        PULL_HIT(best[c].s3, old.s3)
      }
      if (hit) {
#pragma unroll
        for (int c = 0; c < LANE_VECS; ++c) vstore4(best[c], c, rv);
        lanes_pull_queue(v0 + i, hit, n, near_b, far_a, flags, counters);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile's __local arrays are the next tile's
  }
}
#undef PULL_QUEUED
#undef PULL_LANE
#undef PULL_HIT

#endif  // !NEAR_FAR_LOCAL_ROW && !NEAR_FAR_ONLY
