// The path matrix rebuilt from solved distances on the device (
// host/solvers/path_rebuild.hpp): the fast distance kernels run first, then this
// kernel recovers via and hops (docs/usage.md "Paths") from the distances d and the
// input's "tight" edges, those with w(k,j) = d(k,j) (only they can lie on any
// shortest path). Per source i an edge k -> j is on a shortest path iff
//     d(i,k) + w(k,j) = d(i,j),
// so a breadth-first search from i over those edges gives the fewest hops of a
// shortest i -> j path: hops(i,j) = hops(i,k) + 1 for the k of the level before,
// and via(i,j) = k (-1 when k = i: the single edge). path(i,k) has one hop fewer
// and k -> j is one edge, so expansion terminates even with zero-weight cycles.
// Among the k of one level the smallest wins (atomic_min): the result does not
// depend on the order work-items run in, and equals the host's recover_paths.
// Exact sums are needed (int32; float32 holding integers, checked on the host).
//
// One work-group per source at a time (persistent groups over the band's rows),
// level-synchronous: the frontier lies in the group's queue (global scratch, n per
// group); teams of VW work-items take one frontier vertex each and read its edge
// list together (coalesced). Vertices finished at an earlier level are marked in
// a __local bitmap (words > 0; 0 when it does not fit __local memory: the hop row
// tells then), so edges into them cost no global read.

#ifndef WG
#define WG 256  // work-items per group
#endif
#ifndef VW
#define VW 32   // work-items reading one frontier vertex's edges
#endif
#if WG % VW != 0
#error "VW must divide WG"
#endif
#define UNSEEN (-1)
#define NO_VIA 2147483647

// rows sources row0 .. row0 + rows - 1: row r of the distances at
// d[dbase + r * dpitch], of hop and via at r * n; start / dst / w the tight edges
// by source (CSR); queue: n ints per work-group.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void rebuild_paths(const int n, const int rows, const int row0, __global const value_t* d,
                   const ulong dbase, const ulong dpitch, __global const long* start,
                   __global const int* dst, __global const value_t* w, __global int* hop,
                   __global int* via, __global int* queue, __local uint* seen,
                   const int words) {
  __local int tail;
  const int lid = get_local_id(0), lane = lid % VW, team = lid / VW;
  __global int* q = queue + (size_t)get_group_id(0) * n;
  for (int r = get_group_id(0); r < rows; r += get_num_groups(0)) {
    const int i = row0 + r;
    __global const value_t* di = d + dbase + (size_t)r * dpitch;
    __global int* hi = hop + (size_t)r * n;
    __global int* vi = via + (size_t)r * n;
    for (int j = lid; j < n; j += WG) {
      hi[j] = j == i ? 0 : UNSEEN;
      vi[j] = j == i ? -1 : NO_VIA;
    }
    for (int x = lid; x < words; x += WG) seen[x] = x == (i >> 5) ? 1u << (i & 31) : 0u;
    if (lid == 0) {
      q[0] = i;
      tail = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int lo = 0;
    for (int level = 1;; ++level) {
      const int end = tail;
      barrier(CLK_LOCAL_MEM_FENCE);  // every item has read tail before it grows
      if (lo == end) break;          // uniform: no vertex found at the last level
      for (int f = lo + team; f < end; f += WG / VW) {
        const int k = q[f];
        const value_t dk = di[k];
        const int pred = k == i ? -1 : k;
        const long e1 = start[k + 1];
        for (long x = start[k] + lane; x < e1; x += VW) {
          const int j = dst[x];
          if (words > 0 && ((seen[j >> 5] >> (j & 31)) & 1u)) continue;  // an earlier level
          if (dk + w[x] != di[j]) continue;  // not on a shortest i -> j path
          const int old = atomic_cmpxchg(&hi[j], UNSEEN, level);
          if (old == UNSEEN)
            q[atomic_inc(&tail)] = j;
          else if (old != level)
            continue;  // reached at an earlier level (no bitmap)
          atomic_min(&vi[j], pred);
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (words > 0)
        for (int f = end + lid; f < tail; f += WG) {
          const int j = q[f];
          atomic_or(&seen[j >> 5], 1u << (j & 31));
        }
      lo = end;
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    // Unreachable: hop 0, via -1 (as the path kernels leave them).
    for (int j = lid; j < n; j += WG)
      if (hi[j] == UNSEEN) {
        hi[j] = 0;
        vi[j] = -1;
      }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // q and tail are reused
  }
}

// The tight edges found on the device (the single buffer's route): the input w
// kept beside the distances d, both ld x ld; edge k -> j (j != k, w(k,j) finite)
// is tight iff w(k,j) = d(k,j). One work-group per row k. tight_count: row k's
// tight edges into tight[k] and all its edges into edges[k]; the host turns the
// counts into CSR offsets (start).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tight_count(const int n, const ulong ld, __global const value_t* w, __global const value_t* d,
                 __global int* tight, __global int* edges) {
  __local int st[WG], se[WG];
  const int k = get_group_id(0), lid = get_local_id(0);
  __global const value_t* wk = w + (size_t)k * ld;
  __global const value_t* dk = d + (size_t)k * ld;
  int t = 0, e = 0;
  for (int j = lid; j < n; j += WG) {
    const value_t x = wk[j];
    const int edge = j != k && x != INF;
    e += edge;
    t += edge && x == dk[j];
  }
  st[lid] = t;
  se[lid] = e;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = WG / 2; h > 0; h >>= 1) {
    if (lid < h) {
      st[lid] += st[lid + h];
      se[lid] += se[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    tight[k] = st[0];
    edges[k] = se[0];
  }
}

// Row k's tight edges into dst / wt from start[k] on, by ascending j (the host's
// CSR order): WG columns at a time, each item's place from a scan of the flags.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tight_fill(const int n, const ulong ld, __global const value_t* w, __global const value_t* d,
                __global const long* start, __global int* dst, __global value_t* wt) {
  __local int scan[WG];
  const int k = get_group_id(0), lid = get_local_id(0);
  __global const value_t* wk = w + (size_t)k * ld;
  __global const value_t* dk = d + (size_t)k * ld;
  long at = start[k];
  const long end = start[k + 1];
  for (int j0 = 0; j0 < n && at < end; j0 += WG) {
    const int j = j0 + lid;
    value_t x = 0;
    int f = 0;
    if (j < n) {
      x = wk[j];
      f = j != k && x != INF && x == dk[j];
    }
    scan[lid] = f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o = 1; o < WG; o <<= 1) {  // inclusive scan (Hillis-Steele)
      const int v = lid >= o ? scan[lid - o] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      scan[lid] += v;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (f) {
      dst[at + scan[lid] - 1] = j;
      wt[at + scan[lid] - 1] = x;
    }
    at += scan[WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);  // every item has read scan before it is rewritten
  }
}
