// Betweenness centrality beside the multi-source engine's rows (host/sparse/
// opencl_betweenness.cpp, host/sparse/betweenness.hpp for the arithmetic): the
// rows of a batch stay on the device (count x n, row-major, `inf` where
// unreachable) and each work-group takes the batch's sources in turn
// (persistent groups: source r goes to group r mod groups), Brandes' passes over
// one row in the group's own slot of scratch:
//  a. a pass over every vertex v (coalesced): the tight edges u -> v (u != v,
//     both reached, d(u) + w == d(v) in the weights' type: the host's test) among
//     v's in-edges, counted (v's in-degree) and, of v's first 32 in-edges and
//     first 32 out-edges, marked in two bit masks (transposed CSR and CSR
//     positions), so that b and c read neither the row nor the weights of a
//     vertex of at most 32 edges (a higher degree tests its edges again);
//  b. Kahn's order level by level (a barrier a level): each vertex of the level
//     pulls sigma over its tight in-edges in the transposed CSR's order (all of
//     them in earlier levels: the host's sum in the host's order, so the same
//     bits whatever order a level has), then its tight out-edges take their
//     targets' in-degrees down (atomic_dec) and the targets that reach 0 form the
//     next level (appended through a __local counter);
//  c. levels back from the last: delta(v) over v's tight out-edges in CSR order,
//     sigma(v) * coeff(w) each, coeff(v) = (1 + delta) / sigma(v) written over
//     sigma(v) (its successors, in later levels, are done; its predecessors read
//     it later), and delta (delta + 1 with endpoints) added to v's 64.64 fixed
//     sum in the slot (v != s); reached - 1 to s with endpoints;
//  d. flags[r]: 1 where a count overflowed float64 (the host redoes the source
//     in its wide pass), 2 where the order stalled (a zero-weight cycle: the host
//     reports it); a flagged source adds nothing.
// A vertex's sigma, masks and sum share one 32-byte record (bc_node): b and c
// touch one sector a vertex for them. No atomics on the sums: a slot belongs to
// one group and a vertex to one work-item within a level. bc_sum adds the slots
// up (integer adds with carry: any order gives the same sum). Portable OpenCL C
// 1.2 with cl_khr_fp64; no contraction (the host's a * b + c is two roundings).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifndef BC_WG
#define BC_WG 256
#endif

// A vertex's record in a slot (32 bytes; the host sizes the slots by it).
typedef struct {
  double sigma;     // sigma (b), then the coefficient (1 + delta) / sigma (c)
  uint in_mask;     // tight in-edges among the first 32 (bit j: in_off[v] + j)
  uint out_mask;    // tight out-edges among the first 32 (bit j: off[v] + j)
  ulong hi, lo;     // the 64.64 sum: integer part, fraction
} bc_node;

// Edge masks cover the first MASK_EDGES edges (at most 32); a vertex with more
// tests its edges again (-DMASK_EDGES=0: every vertex, experiments).
#ifndef MASK_EDGES
#define MASK_EDGES 32
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

// The lowest set bit of m (m != 0), its position.
#define LOW_BIT(m) (31 - (int)clz((m) & (0u - (m))))

__kernel __attribute__((reqd_work_group_size(BC_WG, 1, 1)))
void bc_sources(const int n, __global const int* restrict off, __global const int* restrict col,
                __global const value_t* restrict w, __global const int* restrict in_off,
                __global const int* restrict in_src, __global const int* restrict in_edge,
                __global const value_t* restrict rows, const int count, __global const int* restrict src,
                const value_t inf, const int endpoints, __global int* indeg_all, __global bc_node* node_all,
                __global int* order_all, __global int* level_all, __global int* flags) {
  const int lid = get_local_id(0);
  const size_t g = get_group_id(0);
  const size_t un = (size_t)n;
  __global int* indeg = indeg_all + g * un;
  __global bc_node* node = node_all + g * un;
  __global int* order = order_all + g * un;
  __global int* level = level_all + g * (un + 1);
  __local int l_reached, l_over, l_tail, l_lo, l_hi;
  for (int r = (int)g; r < count; r += (int)get_num_groups(0)) {
    const int s = src[r];
    __global const value_t* d = rows + (size_t)r * un;
    if (lid == 0) {
      l_reached = 0;
      l_over = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // a. in-degrees pulled, and the tight edges' masks
    int reached = 0;
    for (int v = lid; v < n; v += BC_WG) {
      const value_t dv = d[v];
      int c = 0;
      uint im = 0, om = 0;
      if (dv != inf) {
        ++reached;
        const int begin = in_off[v], end = in_off[v + 1];
        for (int k0 = begin; k0 < end; k0 += EDGES) {
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
          for (int j = 0; j < EDGES; ++j) {
            const int t = p[j] != v && TIGHT(du[j], wk[j], dv);
            c += t;
            const int bit = k0 + j - begin;
            if (t && bit < MASK_EDGES) im |= 1u << bit;
          }
        }
        const int obegin = off[v], oend = off[v + 1];
        for (int k0 = obegin; k0 < oend && k0 - obegin < MASK_EDGES; k0 += EDGES) {
          int x[EDGES];
          value_t wk[EDGES], dx[EDGES];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            const int k = k0 + j;
            x[j] = k < oend ? col[k] : v;
            wk[j] = k < oend ? w[k] : 0;
          }
#pragma unroll
          for (int j = 0; j < EDGES; ++j) dx[j] = d[x[j]];
#pragma unroll
          for (int j = 0; j < EDGES; ++j) {
            const int bit = k0 + j - obegin;
            if (x[j] != v && TIGHT(dv, wk[j], dx[j]) && bit < MASK_EDGES) om |= 1u << bit;
          }
        }
      }
      indeg[v] = c;
      node[v].in_mask = im;
      node[v].out_mask = om;
    }
    if (reached) atomic_add(&l_reached, reached);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (indeg[s] != 0) {  // s on a zero-weight cycle
      if (lid == 0) flags[r] = 2;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      continue;
    }
    // b. Kahn's order a level at a time: each vertex of the level [lo, hi) pulls
    // its sigma (its predecessors are in earlier levels, done), then takes its
    // successors' in-degrees down, those reaching 0 appended (l_tail)
    int over = 0, levels = 0;
    if (lid == 0) {
      order[0] = s;
      level[0] = 0;
      l_tail = 1;
      l_lo = 0;
      l_hi = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (;;) {
      const int lo = l_lo, hi = l_hi;
      if (lo == hi) break;
      for (int i = lo + lid; i < hi; i += BC_WG) {
        const int u = order[i];
        __global bc_node* nu = node + u;
        const uint im = nu->in_mask, om = nu->out_mask;
        double sum = 1.0;
        if (u != s) {
          sum = 0;
          const int begin = in_off[u], end = in_off[u + 1];
          if (end - begin <= MASK_EDGES) {
            for (uint m = im; m;) {
              int p[EDGES];
              bool t[EDGES];
#pragma unroll
              for (int j = 0; j < EDGES; ++j) {
                t[j] = m != 0;
                p[j] = in_src[begin + (t[j] ? LOW_BIT(m) : 0)];
                m &= m - 1;
              }
              double sp[EDGES];
#pragma unroll
              for (int j = 0; j < EDGES; ++j) sp[j] = node[p[j]].sigma;
#pragma unroll
              for (int j = 0; j < EDGES; ++j)
                if (t[j]) sum += sp[j];
            }
          } else {
            const value_t du = d[u];
            for (int k0 = begin; k0 < end; k0 += EDGES) {
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
                sp[j] = t[j] ? node[p[j]].sigma : 0.0;
              }
#pragma unroll
              for (int j = 0; j < EDGES; ++j)
                if (t[j]) sum += sp[j];
            }
          }
        }
        nu->sigma = sum;
        over |= !(sum <= DBL_MAX);
        const int begin = off[u], end = off[u + 1];
        if (end - begin <= MASK_EDGES) {
          for (uint m = om; m;) {
            int x[EDGES];
            bool t[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) {
              t[j] = m != 0;
              x[j] = col[begin + (t[j] ? LOW_BIT(m) : 0)];
              m &= m - 1;
            }
#pragma unroll
            for (int j = 0; j < EDGES; ++j)
              if (t[j] && atomic_dec(&indeg[x[j]]) == 1) order[atomic_inc(&l_tail)] = x[j];
          }
        } else {
          const value_t du = d[u];
          for (int k0 = begin; k0 < end; k0 += EDGES) {
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
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      ++levels;
      if (lid == 0) {
        level[levels] = hi;  // global memory, read by every work-item in the backward pass
        l_lo = hi;
        l_hi = l_tail;
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (over) l_over = 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const int tail = l_tail;
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
        __global bc_node* nv = node + v;
        const double sv = nv->sigma;
        const uint om = nv->out_mask;
        double delta = 0;
        const int begin = off[v], end = off[v + 1];
        if (end - begin <= MASK_EDGES) {
          for (uint m = om; m;) {
            int x[EDGES];
            bool t[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) {
              t[j] = m != 0;
              x[j] = col[begin + (t[j] ? LOW_BIT(m) : 0)];
              m &= m - 1;
            }
            double cx[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) cx[j] = node[x[j]].sigma;
#pragma unroll
            for (int j = 0; j < EDGES; ++j)
              if (t[j]) delta += sv * cx[j];
          }
        } else {
          const value_t dv = d[v];
          for (int k0 = begin; k0 < end; k0 += EDGES) {
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
              cx[j] = t[j] ? node[x[j]].sigma : 0.0;
            }
#pragma unroll
            for (int j = 0; j < EDGES; ++j)
              if (t[j]) delta += sv * cx[j];
          }
        }
        nv->sigma = (1 + delta) / sv;
        if (v != s) fixed_add(&nv->hi, endpoints ? delta + 1 : delta);
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (lid == 0 && endpoints) fixed_add(&node[s].hi, (double)(tail - 1));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
}

// The slots' sums added up: out[2v], out[2v + 1] = the sum of every group's
// fixed-point value of vertex v (integer adds with carry, exact).
__kernel void bc_sum(const int n, const int groups, __global const bc_node* node_all, __global ulong* out) {
  const int v = get_global_id(0);
  if (v >= n) return;
  ulong hi = 0, lo = 0;
  for (int g = 0; g < groups; ++g) {
    __global const bc_node* a = node_all + (size_t)g * (size_t)n + (size_t)v;
    const ulong l = lo + a->lo;
    hi += a->hi + (l < lo ? 1 : 0);
    lo = l;
  }
  out[2 * (size_t)v] = hi;
  out[2 * (size_t)v + 1] = lo;
}
