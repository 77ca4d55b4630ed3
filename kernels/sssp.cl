// The multi-source shortest-path engine's kernel (host/sparse/opencl_sssp.cpp):
// one work-group per source, a whole single-source solve per work-group, near-far
// ordering (Davidson, Baxter, Garland and Owens, IPDPS 2014):
// - the near queue holds vertices whose distance dropped below `split`; the group
//   relaxes their out-edges in rounds (every work-item a share of the queue, one
//   barrier per round), each improved vertex entering the next round once;
// - a vertex improved to split or beyond goes to the far pile (once: infar flag);
// - when the near queue runs dry, split moves to (smallest far distance) + DELTA
//   and the far pile is split into the next near queue and the rest; entries
//   whose distance already fell below the old split were relaxed and are dropped.
// Work stays close to Dijkstra's (each vertex relaxed about once per bucket of
// width DELTA) while a round relaxes a whole frontier in parallel; a launch runs
// `count` sources (a batch), so launches do not scale with the graph's diameter.
//
// Distances are kept as bit patterns in bits_t (int, or long for the 64-bit
// types; dist rows, count x n): weights are >= 0 (Johnson's reweighting on the
// host otherwise), and non-negative integers and floats order as their bit
// patterns do, so an integer atomic_min serves every type. Unreachable: the
// largest int/long (above every reweighted distance) or +inf's pattern; the host
// maps them. Portable OpenCL C 1.2: 32-bit global and local atomics; the 64-bit
// types add cl_khr_int64_base_atomics (a compare-and-swap loop) or, where the
// host finds it, cl_khr_int64_extended_atomics (atom_min; -DHAVE_ATOM_MIN64).

#ifndef WG
#define WG 256
#endif

#if defined(VALUE_FLOAT32)
typedef int bits_t;
#define RAW_INF_BITS 0x7f800000
#define AS_VALUE(b) as_float(b)
#define AS_BITS(x) as_int(x)
#elif defined(VALUE_FLOAT64)
typedef long bits_t;
#define RAW_INF_BITS 0x7ff0000000000000L
#define AS_VALUE(b) as_double(b)
#define AS_BITS(x) as_long(x)
#elif defined(VALUE_INT64)
typedef long bits_t;
#define RAW_INF_BITS 0x7fffffffffffffffL
#define AS_VALUE(b) (b)
#define AS_BITS(x) (x)
#else
typedef int bits_t;
#define RAW_INF_BITS 0x7fffffff
#define AS_VALUE(b) (b)
#define AS_BITS(x) (x)
#endif

#if defined(VALUE_FLOAT64) || defined(VALUE_INT64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#ifdef HAVE_ATOM_MIN64
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define GLOBAL_MIN(p, v) atom_min((p), (v))
#define LOCAL_MIN(p, v) atom_min((p), (v))
#else
// atom_min from compare-and-swap: returns the old value as atomic_min does (one
// body, both address spaces: OpenCL C 1.2 has no generic pointers).
#define MIN64_BY_CAS(name, space)                        \
  bits_t name(volatile space bits_t* p, bits_t v) {      \
    bits_t old = *p;                                     \
    while (v < old) {                                    \
      const bits_t seen = atom_cmpxchg(p, old, v);       \
      if (seen == old) break;                            \
      old = seen;                                        \
    }                                                    \
    return old;                                          \
  }
MIN64_BY_CAS(global_min64, __global)
MIN64_BY_CAS(local_min64, __local)
#define GLOBAL_MIN(p, v) global_min64((p), (v))
#define LOCAL_MIN(p, v) local_min64((p), (v))
#endif
#else
#define GLOBAL_MIN(p, v) atomic_min((p), (v))
#define LOCAL_MIN(p, v) atomic_min((p), (v))
#endif

// Scratch per source, 5 x n ints: two near queues, two far piles, the near tags;
// plus n ints of far flags.
#define SCRATCH_ROWS 6

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sssp_near_far(const int n, __global const int* off, __global const int* col,
                   __global const value_t* w, __global const int* sources, const int count,
                   const value_t delta, const int vw_log, volatile __global bits_t* dist_all,
                   __global int* scratch) {
  const int g = get_group_id(0);
  if (g >= count) return;  // the whole group returns: no barrier is skipped by half of it
  const int lid = get_local_id(0);
  volatile __global bits_t* dist = dist_all + (size_t)g * n;
  __global int* sc = scratch + (size_t)g * SCRATCH_ROWS * n;
  __global int* near_a = sc;
  __global int* near_b = sc + n;
  __global int* far_a = sc + 2 * (size_t)n;
  __global int* far_b = sc + 3 * (size_t)n;
  volatile __global int* tag = sc + 4 * (size_t)n;    // round that queued v last (-1: none)
  volatile __global int* infar = sc + 5 * (size_t)n;  // v is on the far pile
  // Queue sizes and the far pile's minimum, shared by the group (an array: clang's
  // uninitialised-use warning does not follow barriers for scalars).
  __local int counters[4];
  __local bits_t l_min_bits[1];
#define l_near counters[0]
#define l_next counters[1]
#define l_far counters[2]
#define l_far2 counters[3]
#define l_min l_min_bits[0]

  for (int i = lid; i < n; i += WG) {
    dist[i] = RAW_INF_BITS;
    tag[i] = -1;
    infar[i] = 0;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) {
    const int s = sources[g];
    dist[s] = 0;
    near_a[0] = s;
    l_near = 1;
    l_next = 0;
    l_far = 0;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);

  value_t split = delta;
  int round = 0;
  for (;;) {
    // Near rounds: relax the queue, improved vertices below split into the next.
    // Each queued vertex goes to 2^vw_log work-items (a virtual warp) that share
    // its out-edges, so a round issues that many loads at once.
    const int vw = 1 << vw_log, lane = lid & (vw - 1);
    while (l_near > 0) {
      const int cnt = l_near;
      for (int i = lid >> vw_log; i < cnt; i += WG >> vw_log) {
        const int u = near_a[i];
        const value_t du = AS_VALUE(dist[u]);
        const int end = off[u + 1];
        for (int e = off[u] + lane; e < end; e += vw) {
          const int v = col[e];
          const value_t nd = du + w[e];
          const bits_t nb = AS_BITS(nd);
          if (nb < dist[v] && nb < GLOBAL_MIN(&dist[v], nb)) {
            if (nd < split) {
              if (atomic_xchg(&tag[v], round) != round) near_b[atomic_inc(&l_next)] = v;
            } else if (atomic_xchg(&infar[v], 1) == 0) {
              far_a[atomic_inc(&l_far)] = v;
            }
          }
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      __global int* t = near_a;
      near_a = near_b;
      near_b = t;
      ++round;
      if (lid == 0) {
        l_near = l_next;
        l_next = 0;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int fc = l_far;
    if (fc == 0) break;
    // The smallest distance on the far pile that still needs relaxing.
    if (lid == 0) l_min = RAW_INF_BITS;
    barrier(CLK_LOCAL_MEM_FENCE);
    bits_t mine = RAW_INF_BITS;
    for (int i = lid; i < fc; i += WG) {
      const bits_t db = dist[far_a[i]];
      if (AS_VALUE(db) >= split) mine = min(mine, db);
    }
    LOCAL_MIN(&l_min, mine);
    barrier(CLK_LOCAL_MEM_FENCE);
    const value_t old_split = split;
    if (l_min != RAW_INF_BITS) {
      const value_t lo = AS_VALUE(l_min);
      split = lo + delta;
#if defined(VALUE_IS_FLOAT)
      if (!(split > lo)) split = nextafter(lo, (value_t)INFINITY);  // delta below lo's precision
#endif
    }
    if (lid == 0) {
      l_next = 0;
      l_far2 = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < fc; i += WG) {
      const int v = far_a[i];
      const value_t dv = AS_VALUE(dist[v]);
      if (dv < old_split) {
        infar[v] = 0;  // relaxed in a near round since
      } else if (dv < split) {
        infar[v] = 0;
        near_a[atomic_inc(&l_next)] = v;
      } else {
        far_b[atomic_inc(&l_far2)] = v;
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    __global int* t = far_a;
    far_a = far_b;
    far_b = t;
    if (lid == 0) {
      l_near = l_next;
      l_next = 0;
      l_far = l_far2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#undef l_near
#undef l_next
#undef l_far
#undef l_far2
#undef l_min

#ifdef HAVE_FP64
// --stats without the rows (host/sparse/stats_sink.hpp): per row of a finished
// batch the four figures the per-vertex table is made of, so 32 bytes come back
// instead of n values. One work-group per row, strided partial sums, a tree in
// __local memory: the order is fixed by FIG_WG, so the result is deterministic.
// figures[4 r ..]: reach (finite entries, the source included), the largest
// finite value, their sum, the sum of 1 / value over the non-zero ones (only when
// want_harmonic). Integer sums are exact in long (int32: |d| < 2^30, n < 2^31);
// the other types sum in double, as the host reduction does.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define FIG_WG (WG < 256 ? WG : 256)
#if defined(VALUE_INT32)
typedef long sum_t;
#else
typedef double sum_t;
#endif

__kernel __attribute__((reqd_work_group_size(FIG_WG, 1, 1)))
void sssp_row_figures(const int n, const int count, __global const bits_t* dist_all,
                      const int want_harmonic, __global double* figures) {
  const int g = get_group_id(0);
  if (g >= count) return;
  const int lid = get_local_id(0);
  __global const bits_t* row = dist_all + (size_t)g * n;
  long reach = 0;
  sum_t sum = 0;
  double harm = 0;
  bits_t top = 0;  // finite values are >= 0: their bit patterns order as they do
  for (int j = lid; j < n; j += FIG_WG) {
    const bits_t b = row[j];
    if (b == RAW_INF_BITS) continue;
    ++reach;
    top = max(top, b);
    const value_t x = AS_VALUE(b);
    sum += (sum_t)x;
    if (want_harmonic && x != 0) harm += 1.0 / (double)x;
  }
  __local long l_reach[FIG_WG];
  __local sum_t l_sum[FIG_WG];
  __local double l_harm[FIG_WG];
  __local bits_t l_top[FIG_WG];
  l_reach[lid] = reach;
  l_sum[lid] = sum;
  l_harm[lid] = harm;
  l_top[lid] = top;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = FIG_WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      l_reach[lid] += l_reach[lid + s];
      l_sum[lid] += l_sum[lid + s];
      l_harm[lid] += l_harm[lid + s];
      l_top[lid] = max(l_top[lid], l_top[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    __global double* f = figures + 4 * (size_t)g;
    f[0] = (double)l_reach[0];
    f[1] = l_reach[0] ? (double)AS_VALUE(l_top[0]) : 0.0;
    f[2] = (double)l_sum[0];
    f[3] = l_harm[0];
  }
}
#endif
