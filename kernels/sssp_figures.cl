// Per-vertex figures of finished rows for --stats (kernels/sssp.cl's searches;
// the host builds common.cl, sssp.cl, sssp_pull.cl and this file as one program:
// "sssp.cl+sssp_pull.cl+sssp_figures.cl"): the row figures of a batch of single
// searches and of a lanes launch, the column figures continued in source order,
// and the lanes' rows transposed into row order.
// (Nothing of this file in sssp.cl's programs of the near-far kernels alone:
// NEAR_FAR_LOCAL_ROW, NEAR_FAR_ONLY.)
#if !defined(NEAR_FAR_LOCAL_ROW) && !defined(NEAR_FAR_ONLY)

#ifdef HAVE_FP64
// --stats without the rows (host/sparse/stats_sink.hpp): per row of a finished
// batch the four figures the per-vertex table is made of, so 32 bytes come back
// instead of n values. One work-group per row, strided partial sums, a tree in
// __local memory. Sums whose order shows in the bits (floating-point values,
// the harmonic sum of any type) are added by one work-item a row in vertex order,
// as the host's continue_figures adds them: the same bits on every placement
// (DESIGN.md), whatever FIG_WG is; the other work-items add nothing (+0).
// figures[4 r ..]: reach (finite entries, the source included), the largest
// finite value, their sum, the sum of 1 / value over the non-zero ones (only when
// want_harmonic). Integer sums are exact in long (int32: |d| < 2^30, n < 2^31);
// the other types sum in double, as the host reduction does.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define FIG_WG (WG < 256 ? WG : 256)
#define FIG_SPAN 4  // values a work-item reads per chunk of the in-order sums
#if defined(VALUE_INT32)
typedef long sum_t;
#else
typedef double sum_t;
#endif

// The figures of `stride` interleaved rows (row l: base[v stride + l], v < n) by
// one work-group: work-item (slot, l) = (lid / stride, lid % stride) reads every
// (FIG_WG / stride)-th value of row l; reach, the largest and integer sums are
// partial sums, then a tree over the slots in __local memory (exact: any order).
// Sums whose order shows in the bits (floating-point values, the harmonic sum of
// any type) are added in vertex order, as the host's continue_figures adds them:
// the work-group reads a chunk of FIG_SPAN x FIG_WG / stride vertices at a time (every
// work-item FIG_SPAN values, reciprocals computed where they were read) into __local
// memory, and slot 0's work-item of each row adds the chunk's terms one after
// another. The same additions in the same order as one work-item reading the
// whole row (the same bits on every placement, whatever FIG_WG is), but the
// loads and divisions spread over the work-group: one work-item a row was
// latency-bound (H100, geometric n = 2^24, int64: 53 s of row figures for 1 000
// rows, docs/performance/sparse.md). Absent terms are added as +0.0, which
// leaves any sum's bits as they are (a sum of these terms is never -0.0).
// Rows l < valid are written to out[4 l ..].
void group_figures(__global const bits_t* base, const int n, const int stride, const int valid,
                   const int want_harmonic, __global double* out, __local long* l_reach,
                   __local sum_t* l_sum, __local double* l_harm, __local bits_t* l_top,
                   __local double* l_term_h, __local double* l_term_s) {
#if defined(VALUE_INT32)
  const int ordered_sum = 0;  // long: exact in any order
#elif defined(VALUE_FLOAT32) || defined(VALUE_FLOAT64)
  const int ordered_sum = 1;
#else
  const int ordered_sum = want_harmonic;  // int64 in double: in order, as before
#endif
  const int in_order = want_harmonic || ordered_sum;
  const int lid = get_local_id(0), l = lid % stride, slot = lid / stride;
  const int slots = FIG_WG / stride;
  long reach = 0;
  sum_t sum = 0;
  double harm = 0;
  bits_t top = 0;  // finite values are >= 0: their bit patterns order as they do
  if (!in_order) {
    for (int v = slot; v < n; v += slots) {
      const bits_t b = base[(size_t)v * stride + l];
      if (b == RAW_INF_BITS) continue;
      ++reach;
      top = max(top, b);
      sum += (sum_t)AS_VALUE(b);
    }
  } else {
    // Every work-item runs the same number of chunks (the barriers); a chunk is
    // FIG_SPAN values per work-item, so one pair of barriers serves FIG_SPAN x
    // (FIG_WG / stride) vertices of the serial adds.
    const int span = slots * FIG_SPAN;
    for (int v0 = 0; v0 < n; v0 += span) {
      for (int i = 0; i < FIG_SPAN; ++i) {
        const int j = i * slots + slot;  // the vertex's place in the chunk
        const int v = v0 + j;
        double th = 0, ts = 0;
        if (v < n) {
          const bits_t b = base[(size_t)v * stride + l];
          if (b != RAW_INF_BITS) {
            ++reach;
            top = max(top, b);
            const value_t x = AS_VALUE(b);
            if (ordered_sum)
              ts = (double)x;
            else
              sum += (sum_t)x;
            if (want_harmonic && x != 0) th = 1.0 / (double)x;
          }
        }
        l_term_h[j * stride + l] = th;
        l_term_s[j * stride + l] = ts;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (slot == 0) {
        // Both sums in one loop: two independent chains of dependent adds.
        const int k = min(span, n - v0);
        for (int j = 0; j < k; ++j) {
          const int o = j * stride + l;
          if (want_harmonic) harm += l_term_h[o];
          if (ordered_sum) sum += l_term_s[o];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  l_reach[lid] = reach;
  l_sum[lid] = sum;
  l_harm[lid] = harm;
  l_top[lid] = top;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = FIG_WG / stride / 2; s > 0; s >>= 1) {
    if (slot < s) {
      const int o = lid + s * stride;
      l_reach[lid] += l_reach[o];
      l_sum[lid] += l_sum[o];
      l_harm[lid] += l_harm[o];
      l_top[lid] = max(l_top[lid], l_top[o]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (slot == 0 && l < valid) {
    __global double* f = out + 4 * (size_t)l;
    f[0] = (double)l_reach[lid];
    f[1] = l_reach[lid] ? (double)AS_VALUE(l_top[lid]) : 0.0;
    f[2] = (double)l_sum[lid];
    f[3] = l_harm[lid];
  }
}

__kernel __attribute__((reqd_work_group_size(FIG_WG, 1, 1)))
void sssp_row_figures(const int n, const int count, __global const bits_t* dist_all,
                      const int want_harmonic, __global double* figures) {
  const int g = get_group_id(0);
  if (g >= count) return;
  __local long l_reach[FIG_WG];
  __local sum_t l_sum[FIG_WG];
  __local double l_harm[FIG_WG];
  __local bits_t l_top[FIG_WG];
  __local double l_term_h[FIG_WG * FIG_SPAN], l_term_s[FIG_WG * FIG_SPAN];
  group_figures(dist_all + (size_t)g * n, n, 1, 1, want_harmonic, figures + 4 * (size_t)g, l_reach, l_sum,
                l_harm, l_top, l_term_h, l_term_s);
}

// The same figures for a lanes launch (sssp_lanes): one work-group per group of
// LANES sources, their rows interleaved.
#if FIG_WG % LANES != 0
#error FIG_WG must be a multiple of LANES
#endif
__kernel __attribute__((reqd_work_group_size(FIG_WG, 1, 1)))
void sssp_lanes_row_figures(const int n, const int count, LANE_BUFFERS(__global const bits_t*),
                            const int want_harmonic, __global double* figures) {
  const int g = get_group_id(0);
  if (g * LANES >= count) return;
  __local long l_reach[FIG_WG];
  __local sum_t l_sum[FIG_WG];
  __local double l_harm[FIG_WG];
  __local bits_t l_top[FIG_WG];
  __local double l_term_h[FIG_WG * FIG_SPAN], l_term_s[FIG_WG * FIG_SPAN];
  group_figures(GROUP_DIST(g), n, LANES, min(LANES, count - g * LANES), want_harmonic,
                figures + 4 * (size_t)g * LANES, l_reach, l_sum, l_harm, l_top, l_term_h, l_term_s);
}

// Columns: every vertex's figures over the sources of a lanes launch, continued
// from acc (4 doubles a vertex, as sssp_row_figures writes them) in source order,
// one value after another as the host's column reduction adds them
// (stats_sink.cpp continue_figures): the same sums, bit for bit. slot_of[s]: the
// lane slot (group x LANES + lane) of the launch's source s (host/sparse/
// lane_order.hpp: runs of 4 consecutive sources share a group's sector).
__kernel void sssp_lanes_column_figures(const int n, const int count, LANE_BUFFERS(__global const bits_t*),
                                        __global const int* slot_of, const int want_harmonic,
                                        __global double* acc) {
  const int v = get_global_id(0);
  if (v >= n) return;
  __global double* f = acc + 4 * (size_t)v;
  double reach = f[0], sum = f[2], harm = f[3];
  double top = reach > 0 ? f[1] : -INFINITY;
#define ADD_VALUE(B)                                 \
  if ((B) != RAW_INF_BITS) {                         \
    reach += 1;                                      \
    const double x = (double)AS_VALUE(B);            \
    top = max(top, x);                               \
    sum += x;                                        \
    if (want_harmonic && x != 0) harm += 1.0 / x;    \
  }
  for (int s = 0; s < count;) {
    const int q = slot_of[s];
    const __global bits_t* row = GROUP_DIST(q / LANES) + (size_t)v * LANES;
    // A run: four sources in four consecutive lanes of one group (lane_order's
    // groups are runs of 4), one 16-byte load (or 32: 64-bit types) for them.
    if (q % 4 == 0 && s + 3 < count && slot_of[s + 1] == q + 1 && slot_of[s + 2] == q + 2 &&
        slot_of[s + 3] == q + 3) {
      const bits4_t b = vload4(0, row + q % LANES);
      ADD_VALUE(b.s0)
      ADD_VALUE(b.s1)
      ADD_VALUE(b.s2)
      ADD_VALUE(b.s3)
      s += 4;
    } else {
      ADD_VALUE(row[q % LANES])
      s += 1;
    }
  }
#undef ADD_VALUE
  f[0] = reach;
  f[1] = reach > 0 ? top : 0.0;
  f[2] = sum;
  f[3] = harm;
}
#endif

// Rows of a lanes launch in source order (rows: count x n, row-major), as
// sssp_near_far leaves them, so they come back as one source a group's do. A
// work-item per (group, vertex): it reads the group's LANES values of its vertex
// (one sector for 8 int lanes, consecutive work-items consecutive sectors) and
// writes each lane's to that lane's row (consecutive work-items, consecutive
// addresses). row_of[q]: the source (row) of lane slot q, the inverse of slot_of.
// Unreachable written as out_inf (the output's value; RAW_INF_BITS keeps it raw).
// Global size: groups x n_pad, n_pad a multiple of the work-group size.
__kernel void sssp_lanes_rows(const int n, const int count, const int n_pad, LANE_BUFFERS(__global const bits_t*),
                              __global const int* row_of, __global bits_t* rows, const bits_t out_inf) {
  const size_t gid = get_global_id(0);
  const int g = (int)(gid / (size_t)n_pad);
  const int v = (int)(gid % (size_t)n_pad);
  if (v >= n) return;
  const __global bits_t* from = GROUP_DIST(g) + (size_t)v * LANES;
  const int first = g * LANES;
  for (int c = 0; c < LANE_VECS; ++c) {
    const bits4_t raw = vload4(c, from);
    const bits4_t b = select(raw, (bits4_t)(out_inf), raw == (bits4_t)(RAW_INF_BITS));
    const int q = first + 4 * c;
    if (q < count) rows[(size_t)row_of[q] * n + v] = b.s0;
    if (q + 1 < count) rows[(size_t)row_of[q + 1] * n + v] = b.s1;
    if (q + 2 < count) rows[(size_t)row_of[q + 2] * n + v] = b.s2;
    if (q + 3 < count) rows[(size_t)row_of[q + 3] * n + v] = b.s3;
  }
}

#endif  // !NEAR_FAR_LOCAL_ROW && !NEAR_FAR_ONLY
