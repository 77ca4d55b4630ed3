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
//  d. where a float64 count overflowed, b and c again in software extended
//     arithmetic (wide_t: the host's x86 long double pass, bit for bit) over the
//     same order and tight edges; flags[r]: 1 where a count passes that pass's
//     range too (the host redoes the source in its own wide pass), 2 where the
//     order stalled (a zero-weight cycle: the host reports it); a flagged source
//     adds nothing.
// A vertex's sigma, masks and sum share one 32-byte record (bc_node): b and c
// touch one sector a vertex for them; Kahn's in-edge counter lives in its sigma
// field until the vertex pulls its sigma, and the wide pass's exponent in its
// in-edge mask once the vertex's own wide count is pulled. No atomics on the sums: a slot belongs to
// one group and a vertex to one work-item within a level. bc_sum adds the slots
// up (integer adds with carry: any order gives the same sum). Portable OpenCL C
// 1.2 with cl_khr_fp64; no contraction (the host's a * b + c is two roundings).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifndef BC_WG
#define BC_WG 256
#endif
// BC_WIDE=0: no wide pass here (the host's long double is not x86's extended
// format): a source whose float64 counts overflow is flagged for the host.
#ifndef BC_WIDE
#define BC_WIDE 1
#endif

// A vertex's record in a slot (32 bytes; the host sizes the slots by it).
typedef struct {
  double sigma;     // sigma (b), then the coefficient (1 + delta) / sigma (c)
  uint in_mask;     // tight in-edges among the first 32 (bit j: in_off[v] + j)
  uint out_mask;    // tight out-edges among the first 32 (bit j: off[v] + j)
  ulong hi, lo;     // the 64.64 sum: integer part, fraction
} bc_node;

// Layout and scheduling switches (the same sums in the same order whatever they
// are; docs/performance/betweenness.md measures them):
//  BC_PRED: a chunk's ids and neighbours' sigma loaded for its tight edges only
//    (else every slot of the chunk loads, the idle ones the list's first edge);
//  BC_CNT: Kahn's in-edge counter in the record's sigma field (free until the
//    vertex pulls its sigma) instead of its own array: the atomic that releases
//    a vertex brings its record to the cache the next level reads it from;
//  BC_DYN: a group takes its next source from a counter (flags[count], zero at
//    the launch) when it is done with one, instead of every groups-th source:
//    the launch's tail is a source, not the spread of the groups' shares;
#ifndef BC_PRED
#define BC_PRED 1
#endif
#ifndef BC_CNT
#define BC_CNT 1
#endif
#ifndef BC_DYN
#define BC_DYN 1
#endif
// BC_INDEG: the host gave every group an in-degree array of n ints (indeg_all);
// without it the argument is a stub and only the default layouts (BC_CNT=1,
// WIDE_EXP_IN_MASK=1, which need no such array) build.
#ifndef BC_INDEG
#define BC_INDEG 0
#endif

// The group's next source: every groups-th from its id, or (BC_DYN) the next one
// nobody has taken (flags[count] counts them; every work-item of the group calls
// it, *l_r the taken one).
int bc_next(const int r, const int count, __global int* flags, __local int* l_r) {
  if (!BC_DYN) return r < 0 ? (int)get_group_id(0) : r + (int)get_num_groups(0);
  if (get_local_id(0) == 0) *l_r = atomic_inc(&flags[count]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int next = *l_r;
  barrier(CLK_LOCAL_MEM_FENCE);
  return next;
}

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

// A vertex's tight edges in its list's order, EDGES at a time (the loads of a
// chunk issued together): from its mask (bit j: position begin + j) where the
// list has at most MASK_EDGES edges, else each edge tested again against the row.
typedef struct {
  int k, end, begin;
  uint m;         // the mask's bits left (lists of at most MASK_EDGES edges)
  value_t dv;     // d(v) (longer lists)
} tight_edges;

tight_edges tight_from(const int begin, const int end, const uint mask, __global const value_t* restrict d,
                       const int v) {
  tight_edges it;
  it.begin = begin;
  it.end = end;
  const bool masked = end - begin <= MASK_EDGES;
  it.m = masked ? mask : 0u;
  it.k = masked ? end : begin;
  it.dv = masked ? 0 : d[v];
  return it;
}

// The next chunk of v's list: x[j] a vertex (the neighbour, or v itself past the
// list), t[j] whether its edge is tight; false once the list is done. in: v's
// in-edges (ids in_src, weights through in_edge; tight where d(x) + w == d(v)),
// else its out-edges (ids col, weights w; d(v) + w == d(x)).
bool tight_chunk(tight_edges* it, __global const int* restrict ids, __global const int* restrict in_edge,
                 __global const value_t* restrict w, __global const value_t* restrict d, const value_t inf,
                 const int v, const int in, int* x, int* t) {
  if (it->m) {
    uint m = it->m;
#pragma unroll
    for (int j = 0; j < EDGES; ++j) {
      t[j] = m != 0;
      const int k = it->begin + (t[j] ? LOW_BIT(m) : 0);
      x[j] = BC_PRED ? (t[j] ? ids[k] : v) : ids[k];
      m &= m - 1;
    }
    it->m = m;
    return true;
  }
  if (it->k >= it->end) return false;
  value_t wk[EDGES], dx[EDGES];
#pragma unroll
  for (int j = 0; j < EDGES; ++j) {
    const int k = it->k + j;
    x[j] = k < it->end ? ids[k] : v;
    wk[j] = k < it->end ? w[in ? in_edge[k] : k] : 0;
  }
#pragma unroll
  for (int j = 0; j < EDGES; ++j) dx[j] = d[x[j]];
#pragma unroll
  for (int j = 0; j < EDGES; ++j)
    t[j] = x[j] != v && (in ? TIGHT(dx[j], wk[j], it->dv) : TIGHT(it->dv, wk[j], dx[j]));
  it->k += EDGES;
  return true;
}

// Counts past float64 (betweenness.hpp "Sigma beyond float64"): the host's long
// double pass, x86's 80-bit extended arithmetic, in software: a value m 2^(e - 63)
// with m in [2^63, 2^64) (64 significant bits), or m == 0 (zero); add, multiply
// and divide round to nearest, ties to even, as the x87 unit does. The exponent
// is not bounded here; the kernel keeps counts below 2^(WIDE_MAX_EXP + 1), where
// every value the pass forms (counts, coefficients >= 1 / count, shares and
// dependencies) is a normal extended number: the x87 results bit for bit. A
// source past that is flagged for the host (its long double or scaled pass).
typedef struct {
  ulong m;
  int e;
} wide_t;

#define WIDE_MAX_EXP 16000

wide_t wide_one(void) {
  wide_t r;
  r.m = 1ul << 63;
  r.e = 0;
  return r;
}

// m (top bit set) with the bits below it: `low` (its top bit worth half an ulp)
// and `sticky` (any bit below those), rounded to nearest even.
wide_t wide_round(ulong m, const ulong low, const int sticky, int e) {
  const ulong mid = 1ul << 63;
  if (low > mid || (low == mid && (sticky || (m & 1)))) {
    m += 1;
    if (m == 0) {
      m = mid;
      e += 1;
    }
  }
  wide_t r;
  r.m = m;
  r.e = e;
  return r;
}

wide_t wide_add(wide_t a, wide_t b) {
  if (b.m == 0) return a;
  if (a.m == 0) return b;
  if (a.e < b.e) {
    const wide_t c = a;
    a = b;
    b = c;
  }
  const int sh = a.e - b.e;
  ulong bm = 0, low = 0;
  int sticky = 0;
  if (sh == 0) {
    bm = b.m;
  } else if (sh < 64) {
    bm = b.m >> sh;
    low = b.m << (64 - sh);
  } else if (sh == 64) {
    low = b.m;
  } else if (sh < 128) {
    low = b.m >> (sh - 64);
    sticky = (b.m << (128 - sh)) != 0;
  } else {
    sticky = 1;
  }
  ulong m = a.m + bm;
  int e = a.e;
  if (m < a.m) {  // carried out: one more bit above
    sticky |= (int)(low & 1);
    low = (low >> 1) | (m << 63);
    m = (m >> 1) | (1ul << 63);
    e += 1;
  }
  return wide_round(m, low, sticky, e);
}

wide_t wide_mul(const wide_t a, const wide_t b) {
  if (a.m == 0 || b.m == 0) {
    wide_t z;
    z.m = 0;
    z.e = 0;
    return z;
  }
  ulong hi = mul_hi(a.m, b.m), lo = a.m * b.m;
  int e = a.e + b.e;
  if (hi >> 63) {
    e += 1;
  } else {
    hi = (hi << 1) | (lo >> 63);
    lo <<= 1;
  }
  return wide_round(hi, lo, 0, e);
}

// a / b, b != 0: 64 quotient bits by restoring division, a guard bit and the
// remainder as the sticky bit.
wide_t wide_div(const wide_t a, const wide_t b) {
  if (a.m == 0) return a;
  ulong rem = a.m;
  int top = 0;  // the remainder's 65th bit
  int e = a.e - b.e;
  if (rem < b.m) {  // a quotient below 1: twice the dividend
    top = 1;
    rem <<= 1;
    e -= 1;
  }
  ulong q = 0;
  for (int i = 0; i < 64; ++i) {
    const int bit = top || rem >= b.m;
    if (bit) rem -= b.m;
    q = (q << 1) | (ulong)bit;
    top = (int)(rem >> 63);
    rem <<= 1;
  }
  const int guard = top || rem >= b.m;
  if (guard) rem -= b.m;
  return wide_round(q, guard ? 1ul << 63 : 0, rem != 0, e);
}

// To float64, rounded to nearest even (x87's conversion); values below float64's
// normal range give 0: a dependency there is below the fixed point's 2^-64
// whatever its rounding.
double wide_double(const wide_t a) {
  if (a.m == 0 || a.e < -1022) return 0.0;
  ulong mant = a.m >> 11;
  const ulong r = a.m & 0x7ff;
  int e = a.e;
  if (r > 0x400 || (r == 0x400 && (mant & 1))) {
    mant += 1;
    if (mant >> 53) {
      mant >>= 1;
      e += 1;
    }
  }
  if (e > 1023) return INFINITY;
  return as_double(((ulong)(e + 1023) << 52) | (mant & 0xfffffffffffffUL));
}

// A vertex's wide count or coefficient: its significand in the record's sigma
// (as bits), its exponent in the record's in-edge mask (read for the last time
// when the vertex pulls its own wide count): one sector a neighbour (H100, unit
// grid 1000 x 1000, 792 sources: bc_sources 0.63 -> 0.43 s; docs/performance/
// betweenness.md); -DWIDE_EXP_IN_MASK=0: in the in-degree array (experiments).
#ifndef WIDE_EXP_IN_MASK
#define WIDE_EXP_IN_MASK 1
#endif
#if (!BC_CNT || !WIDE_EXP_IN_MASK) && !BC_INDEG
#error "BC_CNT=0 and WIDE_EXP_IN_MASK=0 keep values in the in-degree array: set OCL_SP_BC_INDEG=1"
#endif
wide_t wide_at(__global const bc_node* node, __global const int* indeg, const int v) {
  wide_t r;
  r.m = *(__global const ulong*)&node[v].sigma;
  r.e = WIDE_EXP_IN_MASK ? (int)node[v].in_mask : indeg[v];
  return r;
}

void wide_put(__global bc_node* node, __global int* indeg, const int v, const wide_t x) {
  *(__global ulong*)&node[v].sigma = x.m;
  if (WIDE_EXP_IN_MASK)
    node[v].in_mask = (uint)x.e;
  else
    indeg[v] = x.e;
}

// The wide values of v's tight neighbours (tight_chunk's `in`: over its
// in-edges, else its out-edges) added up from 0 in the list's order, each
// multiplied by `by` first where `times`: a count pulled (the predecessors'
// counts) or a dependency (sigma(v) times each successor's coefficient).
wide_t wide_sum(tight_edges it, __global const int* restrict ids, __global const int* restrict in_edge,
                __global const value_t* restrict w, __global const value_t* restrict d, const value_t inf,
                const int v, const int in, __global const bc_node* node, __global const int* indeg,
                const int times, const wide_t by) {
  wide_t sum;
  sum.m = 0;
  sum.e = 0;
  int x[EDGES], t[EDGES];
  while (tight_chunk(&it, ids, in_edge, w, d, inf, v, in, x, t)) {
    wide_t y[EDGES];
#pragma unroll
    for (int j = 0; j < EDGES; ++j) y[j] = wide_at(node, indeg, x[j]);
#pragma unroll
    for (int j = 0; j < EDGES; ++j)
      if (t[j]) sum = wide_add(sum, times ? wide_mul(by, y[j]) : y[j]);
  }
  return sum;
}

// Kahn's in-edge counter of v: its own array, or the record's sigma field (BC_CNT).
#if BC_CNT
#define CNT(v) ((__global int*)(node + (v)))
#else
#define CNT(v) (indeg + (v))
#endif

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
  __global int* indeg = indeg_all + (BC_INDEG ? g * un : 0);
  __global bc_node* node = node_all + g * un;
  __global int* order = order_all + g * un;
  __global int* level = level_all + g * (un + 1);
  __local int l_reached, l_over, l_wide_over, l_tail, l_lo, l_hi, l_r;
  for (int r = bc_next(-1, count, flags, &l_r); r < count; r = bc_next(r, count, flags, &l_r)) {
    const int s = src[r];
    __global const value_t* d = rows + (size_t)r * un;
    if (lid == 0) {
      l_reached = 0;
      l_over = 0;
      l_wide_over = 0;
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
      *CNT(v) = c;
      node[v].in_mask = im;
      node[v].out_mask = om;
    }
    if (reached) atomic_add(&l_reached, reached);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (*CNT(s) != 0) {  // s on a zero-weight cycle
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
    int x[EDGES], t[EDGES];
    for (;;) {
      const int lo = l_lo, hi = l_hi;
      if (lo == hi) break;
      for (int i = lo + lid; i < hi; i += BC_WG) {
        const int u = order[i];
        const uint im = node[u].in_mask, om = node[u].out_mask;
        const int ib = in_off[u], ie = in_off[u + 1], ob = off[u], oe = off[u + 1];
        __global bc_node* nu = node + u;
        double sum = 1.0;
        if (u != s) {
          sum = 0;
          for (tight_edges it = tight_from(ib, ie, im, d, u);
               tight_chunk(&it, in_src, in_edge, w, d, inf, u, 1, x, t);) {
            double sp[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) sp[j] = BC_PRED ? (t[j] ? node[x[j]].sigma : 0.0) : node[x[j]].sigma;
            for (int j = 0; j < EDGES; ++j)  // (no unroll pragma: amdgcn's clang refuses it here)
              if (t[j]) sum += sp[j];
          }
        }
        nu->sigma = sum;
        over |= !(sum <= DBL_MAX);
        for (tight_edges it = tight_from(ob, oe, om, d, u);
             tight_chunk(&it, col, in_edge, w, d, inf, u, 0, x, t);) {
          // (no unroll pragma: clang cannot unroll it with the atomics)
          for (int j = 0; j < EDGES; ++j) {
            if (!t[j]) continue;
            const int xj = x[j];
            if (atomic_dec(CNT(xj)) == 1) {
              const int pos = atomic_inc(&l_tail);
              order[pos] = xj;
            }
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      ++levels;
      if (lid == 0) {
        level[levels] = hi;  // global memory, read by every work-item in the later passes
        l_lo = hi;
        l_hi = l_tail;
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (over) l_over = 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const int tail = l_tail;
    if (tail != l_reached) {  // the order stalled: a zero-weight cycle
      if (lid == 0) flags[r] = 2;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      continue;
    }
    const int wide = l_over;
    if (wide) {
      // b'. float64 overflowed: the counts again in the wide arithmetic, level by
      // level over the same order, pulled in the same order
      int wide_over = !BC_WIDE;
      for (int l = 0; BC_WIDE && l < levels; ++l) {
        const int a = level[l], b = level[l + 1];
        for (int i = a + lid; i < b; i += BC_WG) {
          const int u = order[i];
          const wide_t sum = u == s ? wide_one()
                                    : wide_sum(tight_from(in_off[u], in_off[u + 1], node[u].in_mask, d, u), in_src,
                                               in_edge, w, d, inf, u, 1, node, indeg, 0, wide_one());
          wide_over |= sum.e > WIDE_MAX_EXP;
          wide_put(node, indeg, u, sum);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
      }
      if (wide_over) l_wide_over = 1;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (l_wide_over) {  // past the wide range here: the host's pass
        if (lid == 0) flags[r] = 1;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        continue;
      }
    }
    if (lid == 0) flags[r] = 0;
    // c. dependencies, levels back from the last (float64, or wide: the host's
    // long double pass, each dependency rounded to float64 for the sum)
    for (int l = levels - 1; l >= 0; --l) {
      const int a = level[l], b = level[l + 1];
      for (int i = a + lid; i < b; i += BC_WG) {
        double part;
        int v;
        if (!wide) {
          v = order[i];
          const uint om = node[v].out_mask;
          const double sv = node[v].sigma;
          double delta = 0;
          for (tight_edges it = tight_from(off[v], off[v + 1], om, d, v);
               tight_chunk(&it, col, in_edge, w, d, inf, v, 0, x, t);) {
            double cx[EDGES];
#pragma unroll
            for (int j = 0; j < EDGES; ++j) cx[j] = BC_PRED ? (t[j] ? node[x[j]].sigma : 0.0) : node[x[j]].sigma;
            for (int j = 0; j < EDGES; ++j)  // (no unroll pragma: amdgcn's clang refuses it here)
              if (t[j]) delta += sv * cx[j];
          }
          node[v].sigma = (1 + delta) / sv;
          part = endpoints ? delta + 1 : delta;
        } else {
          v = order[i];
          const uint om = node[v].out_mask;
          const wide_t sv = wide_at(node, indeg, v);
          const wide_t delta =
              wide_sum(tight_from(off[v], off[v + 1], om, d, v), col, in_edge, w, d, inf, v, 0, node, indeg, 1, sv);
          wide_put(node, indeg, v, wide_div(wide_add(wide_one(), delta), sv));
          part = wide_double(endpoints ? wide_add(delta, wide_one()) : delta);
        }
        if (v != s) fixed_add(&node[v].hi, part);
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
