// Betweenness centrality beside the multi-source engine's rows (host/sparse/
// opencl_betweenness.cpp, host/sparse/betweenness.hpp for the arithmetic): the
// rows of a batch stay on the device (count x n, row-major, `inf` where
// unreachable) and each work-group takes the batch's sources in turn
// (persistent groups: source r goes to group r mod groups), Brandes' passes over
// one row in the group's own slot of scratch:
//  a. in-degrees over the tight edges u -> v (u != v, both reached, d(u) + w ==
//     d(v) in the weights' type: the host's test), pulled over v's in-edges;
//  b. Kahn's order level by level (a barrier a level): each vertex of the level
//     pulls sigma over its tight in-edges in the transposed CSR's order (all of
//     them in earlier levels: the host's sum in the host's order, so the same
//     bits whatever order a level has), then its out-edges take their targets'
//     in-degrees down (atomic_dec) and the targets that reach 0 form the next
//     level (appended through a __local counter);
//  c. levels back from the last: delta(v) over v's tight out-edges in CSR order,
//     sigma(v) * coeff(w) each, coeff(v) = (1 + delta) / sigma(v) written over
//     sigma(v) (its successors, in later levels, are done; its predecessors read
//     it later), and delta (delta + 1 with endpoints) added to v's 64.64 fixed
//     sum in the slot (v != s); reached - 1 to s with endpoints;
//  d. flags[r]: 1 where a count overflowed float64 (the host redoes the source
//     in its wide pass), 2 where the order stalled (a zero-weight cycle: the host
//     reports it); a flagged source adds nothing.
// No atomics on the sums: a slot belongs to one group and a vertex to one
// work-item within a level. bc_sum adds the slots up (integer adds with carry:
// any order gives the same sum). Portable OpenCL C 1.2 with cl_khr_fp64; no
// contraction (the host's a * b + c is two roundings).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifndef BC_WG
#define BC_WG 256
#endif

// x >= 0 (finite, below 2^63) rounded down to a multiple of 2^-64 and added to
// the fixed-point value at a (a[0] the integer part, a[1] the fraction): the
// host's Fixed::of and Fixed::add.
void fixed_add(__global ulong* a, const double x) {
  if (!(x > 0)) return;
  const ulong hi = (ulong)x;  // truncation: floor, a double again
  const double frac = x - (double)hi;
  const ulong lo = (ulong)(frac * 18446744073709551616.0);
  const ulong l = a[1] + lo;
  a[1] = l;
  a[0] += hi + (l < lo ? 1 : 0);
}

// Whether u -> v (weight wk) is tight in row d.
#define TIGHT(du, wk, dv) ((du) != inf && (dv) != inf && (du) + (wk) == (dv))

// Edge lists are read EDGES at a time (the loads of a chunk issued together,
// then the tests and sums in the list's order): a vertex's few edges cost one
// round trip to memory, not one each.
#define EDGES 4

__kernel __attribute__((reqd_work_group_size(BC_WG, 1, 1)))
void bc_sources(const int n, __global const int* off, __global const int* col, __global const value_t* w,
                __global const int* in_off, __global const int* in_src, __global const int* in_edge,
                __global const value_t* rows, const int count, __global const int* src, const value_t inf,
                const int endpoints, __global int* indeg_all, __global double* sigma_all,
                __global int* order_all, __global int* level_all, __global ulong* acc_all,
                __global int* flags) {
  const int lid = get_local_id(0);
  const size_t g = get_group_id(0);
  const size_t un = (size_t)n;
  __global int* indeg = indeg_all + g * un;
  __global double* sigma = sigma_all + g * un;
  __global int* order = order_all + g * un;
  __global int* level = level_all + g * (un + 1);
  __global ulong* acc = acc_all + g * 2 * un;
  __local int l_reached, l_tail, l_lo, l_hi, l_levels, l_over;
  for (int r = (int)g; r < count; r += (int)get_num_groups(0)) {
    const int s = src[r];
    __global const value_t* d = rows + (size_t)r * un;
    if (lid == 0) {
      l_reached = 0;
      l_over = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // a. in-degrees, pulled
    int reached = 0;
    for (int v = lid; v < n; v += BC_WG) {
      const value_t dv = d[v];
      int c = 0;
      if (dv != inf) {
        ++reached;
        const int end = in_off[v + 1];
        for (int k0 = in_off[v]; k0 < end; k0 += EDGES) {
          int p[EDGES];
          value_t du[EDGES], wk[EDGES];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            const int k = k0 + j;
            p[j] = k < end ? in_src[k] : v;
            wk[j] = k < end ? w[in_edge[k]] : 0;
          }
#pragma unroll
          for (int j = 0; j < EDGES; ++j) du[j] = d[p[j]];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) c += p[j] != v && TIGHT(du[j], wk[j], dv);
        }
      }
      indeg[v] = c;
    }
    if (reached) atomic_add(&l_reached, reached);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const int stall_at_s = indeg[s] != 0;
    if (lid == 0 && !stall_at_s) {
      order[0] = s;
      level[0] = 0;
      l_tail = 1;
      l_lo = 0;
      l_hi = 1;
      l_levels = 0;
    }
    if (stall_at_s) {
      if (lid == 0) flags[r] = 2;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      continue;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // b. Kahn's order a level at a time: each vertex of the level pulls its
    // sigma (its predecessors are in earlier levels, done), then takes its
    // successors' in-degrees down, those reaching 0 forming the next level
    int over = 0;
    for (;;) {
      const int lo = l_lo, hi = l_hi;
      if (lo == hi) break;
      for (int i = lo + lid; i < hi; i += BC_WG) {
        const int u = order[i];
        const value_t du = d[u];
        double sum = 1.0;
        if (u != s) {
          sum = 0;
          const int end = in_off[u + 1];
          for (int k0 = in_off[u]; k0 < end; k0 += EDGES) {
            int p[EDGES];
            value_t dp[EDGES], wk[EDGES];
            bool t[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) {
              const int k = k0 + j;
              p[j] = k < end ? in_src[k] : u;
              wk[j] = k < end ? w[in_edge[k]] : 0;
            }
#pragma unroll
            for (int j = 0; j < EDGES; ++j) dp[j] = d[p[j]];
            double sp[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) {
              t[j] = p[j] != u && TIGHT(dp[j], wk[j], du);
              sp[j] = t[j] ? sigma[p[j]] : 0.0;
            }
#pragma unroll
            for (int j = 0; j < EDGES; ++j)
              if (t[j]) sum += sp[j];
          }
        }
        sigma[u] = sum;
        over |= !(sum <= DBL_MAX);
        const int end = off[u + 1];
        for (int k0 = off[u]; k0 < end; k0 += EDGES) {
          int x[EDGES];
          value_t wk[EDGES], dx[EDGES];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            const int k = k0 + j;
            x[j] = k < end ? col[k] : u;
            wk[j] = k < end ? w[k] : 0;
          }
#pragma unroll
          for (int j = 0; j < EDGES; ++j) dx[j] = d[x[j]];
#pragma unroll
          for (int j = 0; j < EDGES; ++j)
            if (x[j] != u && TIGHT(du, wk[j], dx[j]) && atomic_dec(&indeg[x[j]]) == 1)
              order[atomic_inc(&l_tail)] = x[j];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (lid == 0) {
        level[++l_levels] = hi;
        l_lo = hi;
        l_hi = l_tail;
      }
      // level[] is global memory, read by every work-item in the backward pass.
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (over) l_over = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int tail = l_tail, levels = l_levels;
    const int flag = tail != l_reached ? 2 : l_over ? 1 : 0;
    if (lid == 0) flags[r] = flag;
    if (flag) {
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      continue;
    }
    // c. dependencies, levels back from the last
    for (int l = levels - 1; l >= 0; --l) {
      const int a = level[l], b = level[l + 1];
      for (int i = a + lid; i < b; i += BC_WG) {
        const int v = order[i];
        const value_t dv = d[v];
        const double sv = sigma[v];
        double delta = 0;
        const int end = off[v + 1];
        for (int k0 = off[v]; k0 < end; k0 += EDGES) {
          int x[EDGES];
          value_t wk[EDGES], dx[EDGES];
          bool t[EDGES];
          double cx[EDGES];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            const int k = k0 + j;
            x[j] = k < end ? col[k] : v;
            wk[j] = k < end ? w[k] : 0;
          }
#pragma unroll
          for (int j = 0; j < EDGES; ++j) dx[j] = d[x[j]];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            t[j] = x[j] != v && TIGHT(dv, wk[j], dx[j]);
            cx[j] = t[j] ? sigma[x[j]] : 0.0;
          }
#pragma unroll
          for (int j = 0; j < EDGES; ++j)
            if (t[j]) delta += sv * cx[j];
        }
        sigma[v] = (1 + delta) / sv;
        if (v != s) fixed_add(acc + 2 * (size_t)v, endpoints ? delta + 1 : delta);
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (lid == 0 && endpoints) fixed_add(acc + 2 * (size_t)s, (double)(tail - 1));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
}

// The slots' sums added up: out[2v], out[2v + 1] = the sum of every group's
// fixed-point value of vertex v (integer adds with carry, exact).
__kernel void bc_sum(const int n, const int groups, __global const ulong* acc_all, __global ulong* out) {
  const int v = get_global_id(0);
  if (v >= n) return;
  ulong hi = 0, lo = 0;
  for (int g = 0; g < groups; ++g) {
    __global const ulong* a = acc_all + ((size_t)g * (size_t)n + (size_t)v) * 2;
    const ulong l = lo + a[1];
    hi += a[0] + (l < lo ? 1 : 0);
    lo = l;
  }
  out[2 * (size_t)v] = hi;
  out[2 * (size_t)v + 1] = lo;
}
