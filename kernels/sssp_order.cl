// Vertex ids with locality (ORDER; host/sparse/opencl_sssp_order.cpp,
// host/graph/vertex_order.hpp): the order's searches, the graph renumbered on
// the device, and the two kernels a launch of a source a group runs around its
// search on a renumbered graph. Built with sssp.cl (bits_t, GROUP_SCRATCH).
// (Nothing of this file in sssp.cl's programs of the near-far kernels alone:
// NEAR_FAR_LOCAL_ROW, NEAR_FAR_ONLY.)
#if !defined(NEAR_FAR_LOCAL_ROW) && !defined(NEAR_FAR_ONLY)

// ---- The order's searches: hop distances, a launch a level -------------------
// Breadth first from one vertex over the whole device (a lone near-far group
// would be one compute unit's search, its phases one after another). Level L's
// front holds the vertices at L hops, counts[L % 3] of them; a launch finds the
// next level's (an unreached vertex claimed once by compare-and-swap) and zeroes
// the count of the level after, which nothing reads in this launch. The host
// enqueues levels in runs and reads a count between runs.
__kernel void sssp_order_hops(const int level, __global const int* off, __global const int* col,
                              volatile __global int* hops, __global const int* front, __global int* next,
                              volatile __global int* counts) {
  const int size = counts[level % 3];
  if (get_global_id(0) == 0) counts[(level + 2) % 3] = 0;
  for (int i = get_global_id(0); i < size; i += get_global_size(0)) {
    const int u = front[i];
    const int end = off[u + 1];
    for (int e = off[u]; e < end; ++e) {
      const int v = col[e];
      if (hops[v] < 0 && atomic_cmpxchg(&hops[v], -1, level + 1) == -1)
        next[atomic_inc(&counts[(level + 1) % 3])] = v;
    }
  }
}

// ---- The graph renumbered ------------------------------------------------------
// Input row u goes whole to row new_id[u], which starts at new_off[new_id[u]],
// its targets renumbered and its weights' bits with them; a row of at most
// ORDER_SORTED_ROW edges is then sorted by target (insertion, stable: equal
// targets keep their order), a longer one stays in its order. The host's
// renumber() (graph/vertex_order.hpp) makes the same CSR.
#define ORDER_SORTED_ROW 64
__kernel void sssp_order_renumber(const int n, __global const int* off, __global const int* col,
                                  __global const bits_t* w, __global const int* new_id,
                                  __global const int* new_off, __global int* col2, __global bits_t* w2) {
  const int u = get_global_id(0);
  if (u >= n) return;
  const int lo = new_off[new_id[u]], from = off[u], deg = off[u + 1] - from;
  for (int k = 0; k < deg; ++k) {
    col2[lo + k] = new_id[col[from + k]];
    w2[lo + k] = w[from + k];
  }
  if (deg > ORDER_SORTED_ROW) return;
  for (int i = lo + 1; i < lo + deg; ++i) {
    const int c = col2[i];
    const bits_t x = w2[i];
    int j = i;
    for (; j > lo && col2[j - 1] > c; --j) {
      col2[j] = col2[j - 1];
      w2[j] = w2[j - 1];
    }
    col2[j] = c;
    w2[j] = x;
  }
}

// ---- Launches on the renumbered graph -------------------------------------------
// new_id[v]: input vertex v's id on the device. A launch of the near-far kernels
// runs between these two, so its rows come back as without the renumbering. The
// searches' own code is the same either way (a flag in it made them 17-28 %
// slower on an H200).
// The launch's sources (input ids) as the device's ids, before the search.
__kernel void sssp_map_sources(const int count, __global int* sources, __global const int* new_id) {
  const int i = get_global_id(0);
  if (i < count) sources[i] = new_id[sources[i]];
}

// After the search: each row back in the input's vertex order, copied into its
// group's queue memory (free by then: 6 n ints hold n values of 8 bytes) and
// gathered back from there, two launches of a work-item a vertex and row
// (global size n_pad x count; a work-group a row ran each row's n values on 256
// work-items, 0.70 s of 1 000 rows at 2^24 on an H200). The queues as the
// near-far kernels place them (GROUP_SCRATCH: one buffer where per_buf >= count).
__kernel void sssp_rows_to_scratch(const int n, const int count, __global const bits_t* dist_all,
                                   __global int* s0, __global int* s1, __global int* s2, __global int* s3,
                                   const int per_buf) {
  const int v = get_global_id(0), g = get_global_id(1);
  if (v >= n || g >= count) return;
  ((__global bits_t*)GROUP_SCRATCH(g))[v] = dist_all[(size_t)g * n + v];
}

__kernel void sssp_rows_in_order(const int n, const int count, __global bits_t* dist_all,
                                 __global const int* new_id, __global int* s0, __global int* s1,
                                 __global int* s2, __global int* s3, const int per_buf) {
  const int v = get_global_id(0), g = get_global_id(1);
  if (v >= n || g >= count) return;
  dist_all[(size_t)g * n + v] = ((__global const bits_t*)GROUP_SCRATCH(g))[new_id[v]];
}

#endif  // !NEAR_FAR_LOCAL_ROW && !NEAR_FAR_ONLY
