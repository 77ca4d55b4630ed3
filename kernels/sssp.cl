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
// maps them, or the row kernels write the output's value (out_inf) where no
// reweighting or tree needs the raw one. Portable OpenCL C 1.2: 32-bit global
// and local atomics; the 64-bit
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

// Scratch per source, 6 x n ints: two near queues, two far piles, and per vertex
// the round that queued it last (its tag; -1: none) and its far flag.
#define SCRATCH_ROWS 6
// A launch's queues span up to four buffers (one buffer holds at most the
// device's largest allocation: at n = 2^24 a source's queues are 400 MB, so one
// buffer of an H100 holds 50): per_buf groups a buffer, group g's SCRATCH_ROWS x
// n ints in buffer g / per_buf (both near-far kernels; sssp_lanes' distances the
// same way).
#define PICK_BUFFER(g, b0, b1, b2, b3) \
  ((g) < per_buf ? (b0) : (g) < 2 * per_buf ? (b1) : (g) < 3 * per_buf ? (b2) : (b3))
#define GROUP_SCRATCH(g) (PICK_BUFFER(g, s0, s1, s2, s3) + (size_t)((g) % per_buf) * SCRATCH_ROWS * n)

// A near-far group's state (both near-far kernels) over its scratch rows sc:
// near queues, far piles, the 2n ints of tags and far flags (each kernel's
// TAG(v) / INFAR(v)); and in __local memory the queue sizes and the far pile's
// minimum (arrays: clang's uninitialised-use warning does not follow barriers for
// scalars).
#define NEAR_FAR_QUEUES(sc)                                     \
  __global int* near_a = (sc);                                  \
  __global int* near_b = (sc) + n;                              \
  __global int* far_a = (sc) + 2 * (size_t)n;                   \
  __global int* far_b = (sc) + 3 * (size_t)n;                   \
  volatile __global int* flags = (sc) + 4 * (size_t)n;
#define NEAR_FAR_LOCALS        \
  __local int counters[4];     \
  __local bits_t l_min_bits[1];
#define NEAR_FAR_STATE(sc) NEAR_FAR_QUEUES(sc) NEAR_FAR_LOCALS
#define l_near counters[0]
#define l_next counters[1]
#define l_far counters[2]
#define l_far2 counters[3]
#define l_min l_min_bits[0]

// The group's queues between steps (both near-far kernels): queues a and b swap
// once the group is past a barrier, the next near queue's size becomes the
// current one and `more` updates the rest (all before a second barrier). After a
// near round the next near queue is the current one; after a phase's far split
// the far piles swap and the split's near entries are the queue.
#define NEXT_QUEUES(a, b, more)                        \
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); \
  {                                                    \
    __global int* t = a;                               \
    a = b;                                             \
    b = t;                                             \
  }                                                    \
  if (lid == 0) {                                      \
    l_near = l_next;                                   \
    l_next = 0;                                        \
    more                                               \
  }                                                    \
  barrier(CLK_LOCAL_MEM_FENCE);
#define NEXT_NEAR_ROUND         \
  NEXT_QUEUES(near_a, near_b, ) \
  ++round;
#define NEXT_FAR_PHASE NEXT_QUEUES(far_a, far_b, l_far = l_far2;)

// One source a group: the tags, then the far flags.
#define TAG(v) flags[v]
#define INFAR(v) flags[(size_t)n + (v)]
// A program of its own where the host asks (NEAR_FAR_LOCAL_ROW: a row of n
// values fits a work-group's __local memory, small graphs on GPUs): the search
// keeps its row in __local memory (l_row, an argument sized by the host) and
// writes it out at the end, so every relaxation's read and atomic_min stays on
// the compute unit; the queues, tags and far flags stay in global memory.
#if defined(NEAR_FAR_LOCAL_ROW)
#define ROW_SPACE __local
#define ROW_MIN(p, v) LOCAL_MIN(p, v)
#define LOCAL_ROW_ARG , __local bits_t* l_row
#define LOCAL_ROW_PASS , l_row
#else
#define ROW_SPACE __global
#define ROW_MIN(p, v) GLOBAL_MIN(p, v)
#define LOCAL_ROW_ARG
#define LOCAL_ROW_PASS
#endif

// Group g's search from sources[g] into its row of dist_all, its queues in sc
// (the two kernels below: one buffer or up to four).
void near_far_search(const int g, const int n, __global const int* off, __global const int* col,
                     __global const value_t* w, __global const int* sources, const value_t delta,
                     const int vw_log, volatile __global bits_t* dist_all, __global int* sc,
                     const bits_t out_inf, __local int* counters, __local bits_t* l_min_bits LOCAL_ROW_ARG) {
  const int lid = get_local_id(0);
  volatile __global bits_t* row = dist_all + (size_t)g * n;
#if defined(NEAR_FAR_LOCAL_ROW)
  volatile __local bits_t* dist = l_row;
#else
  volatile __global bits_t* dist = row;
#endif
  NEAR_FAR_QUEUES(sc)

  for (int i = lid; i < n; i += WG) {
    dist[i] = RAW_INF_BITS;
    TAG(i) = -1;
    INFAR(i) = 0;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
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
          if (nb < dist[v] && nb < ROW_MIN(&dist[v], nb)) {
            if (nd < split) {
              if (atomic_xchg(&TAG(v), round) != round) near_b[atomic_inc(&l_next)] = v;
            } else if (atomic_xchg(&INFAR(v), 1) == 0) {
              far_a[atomic_inc(&l_far)] = v;
            }
          }
        }
      }
      NEXT_NEAR_ROUND
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
        INFAR(v) = 0;  // relaxed in a near round since
      } else if (dv < split) {
        INFAR(v) = 0;
        near_a[atomic_inc(&l_next)] = v;
      } else {
        far_b[atomic_inc(&l_far2)] = v;
      }
    }
    NEXT_FAR_PHASE
  }
  // Unreachable as the output writes it (out_inf: the host's rows need no pass
  // over them), unless the host asked for the raw value (RAW_INF_BITS: figures,
  // trees, reweighted rows).
#if defined(NEAR_FAR_LOCAL_ROW)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < n; i += WG) {
    const bits_t b = dist[i];
    row[i] = b == RAW_INF_BITS ? out_inf : b;
  }
#else
  if (out_inf != RAW_INF_BITS) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int i = lid; i < n; i += WG)
      if (dist[i] == RAW_INF_BITS) dist[i] = out_inf;
  }
#endif
}

// NVIDIA: both near-far kernels in 32 registers, two groups of 1024 (every
// work-item the compute unit holds) where ptxas would take 60 and leave one (the
// host caps the PTX: host/cl/program.hpp; other devices ignore these lines).
// ocl_sp:nvidia-maxnreg sssp_near_far 32
// ocl_sp:nvidia-maxnreg sssp_near_far_bufs 32

// The queues of every group in one buffer, scratch (a launch that fits the
// device's largest allocation: every graph below ~8 x 10^5 vertices on an H100).
// Its own kernel: picking group g's queues among four buffers (below) in the same
// kernel made the searches 9-15 % slower on an H100 (docs/performance/sparse.md).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sssp_near_far(const int n, __global const int* off, __global const int* col,
                   __global const value_t* w, __global const int* sources, const int count,
                   const value_t delta, const int vw_log, volatile __global bits_t* dist_all,
                   __global int* scratch, const bits_t out_inf LOCAL_ROW_ARG) {
  const int g = get_group_id(0);
  if (g >= count) return;  // the whole group returns: no barrier is skipped by half of it
  NEAR_FAR_LOCALS
  near_far_search(g, n, off, col, w, sources, delta, vw_log, dist_all,
                  scratch + (size_t)g * SCRATCH_ROWS * n, out_inf, counters, l_min_bits LOCAL_ROW_PASS);
}

// The row-in-__local-memory program holds sssp_near_far alone (its rows are
// small: the queues always fit one buffer).
#if !defined(NEAR_FAR_LOCAL_ROW)
// The queues in up to four buffers, per_buf groups each (GROUP_SCRATCH).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sssp_near_far_bufs(const int n, __global const int* off, __global const int* col,
                        __global const value_t* w, __global const int* sources, const int count,
                        const value_t delta, const int vw_log, volatile __global bits_t* dist_all,
                        __global int* s0, __global int* s1, __global int* s2, __global int* s3,
                        const int per_buf, const bits_t out_inf) {
  const int g = get_group_id(0);
  if (g >= count) return;
  NEAR_FAR_LOCALS
  near_far_search(g, n, off, col, w, sources, delta, vw_log, dist_all, GROUP_SCRATCH(g), out_inf,
                  counters, l_min_bits);
}
#endif  // !NEAR_FAR_LOCAL_ROW

// The near-far kernels in groups of another size for renumbered searches
// (NEAR_FAR_ONLY: the host's program of sssp_near_far and sssp_near_far_bufs
// alone, WG its size) hold no lanes either.
#if !defined(NEAR_FAR_LOCAL_ROW) && !defined(NEAR_FAR_ONLY)

// ---- Sources as lanes (LANES > 0 on the host: --stats in one pass) ----------
// One work-group runs LANES sources together: their distances sit side by side,
// dist[v LANES + l] (l: the source's lane), so a vertex's LANES values are one
// contiguous line and one work-item relaxes all of them along each out-edge.
// The queues hold vertices, not (vertex, source) pairs: a vertex is queued when
// any lane improved, and its expansion relaxes every lane (a lane that did not
// change finds nothing to improve: its reads cost what the line costs anyway).
// Sources close in the graph (consecutive ids on a grid) share most of the
// frontier, so a batch of LANES sources costs about as many rounds as one.
// Near-far as sssp_near_far with one split for all lanes (each source's front is
// at about the same distance from its own source):
// - an improvement below split queues the vertex for the next near round (once a
//   round: tag); otherwise, unless the vertex is queued near anyway, it goes on
//   the far pile (once: infar);
// - when the near queue runs dry, split moves to (smallest lane value >= split on
//   the far pile) + DELTA; a far entry with a lane value in [old split, split)
//   goes near, one with a finite lane value >= split stays, the others leave: every
//   lane value below the old split was relaxed in a near round since (it was
//   queued near when it fell below split, or moved near with its far entry when
//   split passed it), and an expansion relaxes all the lanes it reads.
#ifndef LANES
#define LANES 8
#endif
#ifndef LANE_WG
#define LANE_WG WG
#endif
#if LANES % 4 != 0 || LANES > 32
#error LANES must be a multiple of 4, at most 32
#endif
#if defined(VALUE_FLOAT64) || defined(VALUE_INT64)
typedef long4 bits4_t;
#else
typedef int4 bits4_t;
#endif
#define LANE_VECS (LANES / 4)
// A launch's distances may span up to four buffers (one buffer holds at most the
// device's largest allocation): per_buf groups each, group g's LANES x n values
// in buffer g / per_buf.
#define LANE_BUFFERS(Q) Q d0, Q d1, Q d2, Q d3, const int per_buf
#define GROUP_DIST(g) (PICK_BUFFER(g, d0, d1, d2, d3) + (size_t)((g) % per_buf) * n * LANES)

// split + delta without leaving the type (integers saturate at the unreachable
// value, floats step past split when delta is below its precision).
value_t next_split(const value_t lo, const value_t delta) {
#if defined(VALUE_IS_FLOAT)
  value_t s = lo + delta;
  if (!(s > lo)) s = nextafter(lo, (value_t)INFINITY);
  return s;
#else
  return lo > (value_t)RAW_INF_BITS - delta ? (value_t)RAW_INF_BITS : lo + delta;
#endif
}

// One lane of a relaxation along edge k of a chunk: the head's lane improves to
// du + we when that is below the value read before. The atomic's result is not
// waited for (a store-like reduction on GPUs, so a work-item's atomics are all in
// flight at once): the head is queued on the value read, which is at least the
// value the atomic met, so every real improvement queues it (a stale read queues
// it once more than needed, never less).
// A lane value at or beyond split also lowers far_lo: the next split's
// candidates, kept as they are written instead of read back from the far pile.
#define RELAX_LANE(K, DU, DV, L)                                                  \
  if ((DU) != RAW_INF_BITS) {                                                     \
    const bits_t nb = AS_BITS(AS_VALUE(DU) + we[K]);                              \
    if (nb < (DV)) {                                                              \
      GLOBAL_MIN(&dist[(size_t)v[K] * LANES + (L)], nb);                         \
      if (nb < split_bits) {                                                      \
        hit[K] |= 1;                                                              \
      } else {                                                                    \
        hit[K] |= 2;                                                              \
        far_lo = min(far_lo, nb);                                                 \
      }                                                                           \
    }                                                                             \
  }
// Edges a chunk: their heads' rows are read before any of their atomics (about
// 32 values in registers).
#ifndef EDGE_CHUNK
#define EDGE_CHUNK (LANES >= 32 ? 1 : 32 / LANES)
#endif

// Lanes: a vertex's tag and far flag side by side, so a queued head's two flags
// are one sector (H100, 316 x 316 grid --stats: sssp_lanes 0.838 -> 0.810 s).
#undef TAG
#undef INFAR
#define TAG(v) flags[2 * (size_t)(v)]
#define INFAR(v) flags[2 * (size_t)(v) + 1]
// LANE_SET > 0: a round's queued heads kept in a __local hash set of 2^LANE_SET
// vertex ids (cleared every round) before each vertex's tag in global memory: a
// head queued this round is found there without a DRAM sector. Linear probing,
// LANE_PROBES slots and no removal in a round: a vertex in the set is found
// within its slots; one whose slots are all taken (and so stay taken this round)
// goes to its tag, so each vertex enters a round's queue once either way (the
// queue holds n entries: duplicates would overflow it).
#ifndef LANE_SET
#define LANE_SET 0
#endif
#define LANE_PROBES 4
#if LANE_SET
// 1: v is new this round, 0: queued this round already, -1: its slots are full.
int lane_set_insert(volatile __local int* set, const int v) {
  uint h = ((uint)v * 2654435761u) >> (32 - LANE_SET);
#pragma unroll
  for (int p = 0; p < LANE_PROBES; ++p) {
    const int old = atomic_cmpxchg(&set[h], -1, v);
    if (old == -1) return 1;
    if (old == v) return 0;
    h = (h + 1) & ((1u << LANE_SET) - 1);
  }
  return -1;
}
#define LANE_SET_CLEAR()                                                           \
  for (int i = lid; i < (1 << LANE_SET); i += LANE_WG) l_set[i] = -1;
#define QUEUE_ONCE(v, r) queue_once(l_set, &TAG(v), (v), (r))
#else
#define QUEUE_ONCE(v, r) (TAG(v) != (r) && atomic_xchg(&TAG(v), (r)) != (r))
#endif
// LANE_FAR_BITS (the default with LANE_SET, which frees the tags): the far flags
// one bit a vertex, 256 vertices a 32-byte sector instead of 4, so a front's
// flags stay in L2; set by atomic_or, cleared by atomic_and.
#ifndef LANE_FAR_BITS
#define LANE_FAR_BITS (LANE_SET > 0)
#endif
#if LANE_FAR_BITS  // tags first (n ints), then the far bits
#undef TAG
#define TAG(v) flags[v]
#define FAR_BIT(v) (1u << ((v) & 31))
#define FAR_WORD(v) ((volatile __global uint*)flags)[(size_t)n + ((v) >> 5)]
#define FAR_TEST_SET(v) ((FAR_WORD(v) & FAR_BIT(v)) == 0 && (atomic_or(&FAR_WORD(v), FAR_BIT(v)) & FAR_BIT(v)) == 0)
#define FAR_CLEAR(v) atomic_and(&FAR_WORD(v), ~FAR_BIT(v))
#else
#define FAR_TEST_SET(v) (INFAR(v) == 0 && atomic_xchg(&INFAR(v), 1) == 0)
#define FAR_CLEAR(v) (INFAR(v) = 0)
#endif
#if LANE_SET
int queue_once(volatile __local int* set, volatile __global int* tag, const int v, const int round) {
  const int r = lane_set_insert(set, v);
  return r >= 0 ? r : *tag != round && atomic_xchg(tag, round) != round;
}
#endif
// Pull rounds (kernels/sssp_pull.cl, built after this file): a near round whose
// queue holds at least pull_min vertices (0: never) runs over the in-edges
// (in_off, in_src, in_w) with the queue as a bitmap of n bits in pull_local, then
// (PULL_WORDS(n) 32-bit words in) a tile: PULL_TV vertices' lane values (8 KiB)
// and their PULL_TV + 1 edge offsets. The host sizes pull_local so (sssp_plan.hpp
// sssp_pull_local_bytes), 4 bytes where no round pulls: the lanes take no
// __local memory for pull rounds they do not run.
#define PULL_TV (8192 / (LANES * (int)sizeof(bits_t)))
#define PULL_WORDS(n) ((((n) + 31) / 32 + 1) & ~1)  // the bitmap, 8-byte aligned after it
void lanes_pull_mark(__local uint* bits, __global const int* queue, const int cnt, const int n, const int lid);
void lanes_pull_round(const int n, const int lid, __global const int* in_off, __global const int* in_src,
                      __global const value_t* in_w, __local const uint* bits, volatile __local bits_t* l_best,
                      __local int* l_off, volatile __global bits_t* dist, const bits_t split_bits, bits_t* far_lo,
                      __global int* near_b, __global int* far_a, volatile __global int* flags,
                      volatile __local int* counters);
// A vertex a pull round improved, onto the queues as a push round's head goes
// (hit: 1 a lane below split, 2 a lane at or beyond it): each vertex is taken by
// one work-item once a pull round, so the near queue needs no tag.
void lanes_pull_queue(const int v, const int hit, const int n, __global int* near_b, __global int* far_a,
                      volatile __global int* flags, volatile __local int* counters) {
  if (hit & 1)
    near_b[atomic_inc(&l_next)] = v;
  else if (FAR_TEST_SET(v))
    far_a[atomic_inc(&l_far)] = v;
}
__kernel __attribute__((reqd_work_group_size(LANE_WG, 1, 1)))
void sssp_lanes(const int n, __global const int* off, __global const int* col,
                __global const value_t* w, __global const int* sources, const int count,
                const value_t delta, LANE_BUFFERS(volatile __global bits_t*), __global int* s0,
                __global int* s1, __global int* s2, __global int* s3, __global const int* in_off,
                __global const int* in_src, __global const value_t* in_w, const int pull_min,
                __local uint* pull_local) {
  const int g = get_group_id(0);
  const int first = g * LANES;
  if (first >= count) return;  // the whole group returns
  const int lid = get_local_id(0);
  volatile __global bits_t* dist = GROUP_DIST(g);
  __global int* sc = GROUP_SCRATCH(g);
  NEAR_FAR_STATE(sc)
#if LANE_SET
  __local int l_set[1 << LANE_SET];
  LANE_SET_CLEAR()
#endif

  for (size_t i = lid; i < (size_t)n * LANES; i += LANE_WG) dist[i] = RAW_INF_BITS;
  for (int i = lid; i < n; i += LANE_WG) {
    TAG(i) = -1;
#if LANE_FAR_BITS
    if (i % 32 == 0) FAR_WORD(i) = 0;
#else
    INFAR(i) = 0;
#endif
  }
  if (lid == 0) {
    l_near = 0;
    l_next = 0;
    l_far = 0;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid < LANES && first + lid < count) {  // lanes past count stay unreachable
    const int s = sources[first + lid];
    dist[(size_t)s * LANES + lid] = 0;
    if (QUEUE_ONCE(s, -2)) near_a[atomic_inc(&l_near)] = s;  // repeated sources once
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#if LANE_SET
  LANE_SET_CLEAR()
  barrier(CLK_LOCAL_MEM_FENCE);
#endif

  value_t split = delta;
  int round = 0;
  bits_t far_lo = RAW_INF_BITS;  // this work-item's smallest far candidate
  if (lid == 0) l_min = RAW_INF_BITS;
#ifdef LANE_COUNTERS  // experiments (docs/performance/sparse.md): rounds, phases, expansions, idle items
  __local int l_count[4];
  if (lid == 0) l_count[0] = l_count[1] = l_count[2] = l_count[3] = 0;
#endif
  for (;;) {
    const bits_t split_bits = AS_BITS(split);
    while (l_near > 0) {
      const int cnt = l_near;
      if (pull_min > 0 && cnt >= pull_min) {  // a pull round (sssp_pull.cl)
        __local bits_t* l_tile = (__local bits_t*)(pull_local + PULL_WORDS(n));
        lanes_pull_mark(pull_local, near_a, cnt, n, lid);
        lanes_pull_round(n, lid, in_off, in_src, in_w, pull_local, l_tile, (__local int*)(l_tile + PULL_TV * LANES),
                         dist, split_bits, &far_lo, near_b, far_a, flags, counters);
      } else
      for (int i = lid; i < cnt; i += LANE_WG) {
        const int u = near_a[i];
#ifdef LANE_COUNTERS
        atomic_inc(&l_count[2]);
#endif
        const __global bits_t* ru = (const __global bits_t*)dist + (size_t)u * LANES;
        bits4_t du[LANE_VECS];
#pragma unroll
        for (int c = 0; c < LANE_VECS; ++c) du[c] = vload4(c, ru);
        const int end = off[u + 1];
        for (int e0 = off[u]; e0 < end; e0 += EDGE_CHUNK) {
          int v[EDGE_CHUNK], hit[EDGE_CHUNK];
          value_t we[EDGE_CHUNK];
          bits4_t dv[EDGE_CHUNK][LANE_VECS];
#pragma unroll
          for (int k = 0; k < EDGE_CHUNK; ++k) {
            const int e = min(e0 + k, end - 1);  // past the end: the last edge again, no hit
            v[k] = col[e];
            we[k] = w[e];
            hit[k] = 0;
          }
#pragma unroll
          for (int k = 0; k < EDGE_CHUNK; ++k)
#pragma unroll
            for (int c = 0; c < LANE_VECS; ++c)
              dv[k][c] = vload4(c, (const __global bits_t*)dist + (size_t)v[k] * LANES);
#pragma unroll
          for (int k = 0; k < EDGE_CHUNK; ++k) {
            if (e0 + k < end) {
#pragma unroll
              for (int c = 0; c < LANE_VECS; ++c) {
                RELAX_LANE(k, du[c].s0, dv[k][c].s0, 4 * c)
                RELAX_LANE(k, du[c].s1, dv[k][c].s1, 4 * c + 1)
                RELAX_LANE(k, du[c].s2, dv[k][c].s2, 4 * c + 2)
                RELAX_LANE(k, du[c].s3, dv[k][c].s3, 4 * c + 3)
              }
            }
          }
          // The chunk's heads to queue, then one slot reservation a queue (the
          // group's counters are one __local word each: fewer atomics on them).
          int to_near = 0, to_far = 0;
#pragma unroll
          for (int k = 0; k < EDGE_CHUNK; ++k) {
            if (hit[k] & 1) {
              if (QUEUE_ONCE(v[k], round)) to_near |= 1 << k;
            } else if (hit[k]) {
              if (FAR_TEST_SET(v[k])) to_far |= 1 << k;
            }
          }
          if (to_near) {
            const int at = atomic_add(&l_next, popcount(to_near));
#pragma unroll
            for (int k = 0; k < EDGE_CHUNK; ++k)
              if (to_near >> k & 1) near_b[at + popcount(to_near & ((1 << k) - 1))] = v[k];
          }
          if (to_far) {
            const int at = atomic_add(&l_far, popcount(to_far));
#pragma unroll
            for (int k = 0; k < EDGE_CHUNK; ++k)
              if (to_far >> k & 1) far_a[at + popcount(to_far & ((1 << k) - 1))] = v[k];
          }
        }
      }
#ifdef LANE_COUNTERS
      if (lid == 0 && cnt < LANE_WG) atomic_add(&l_count[3], LANE_WG - cnt);
#endif
#if LANE_SET
      barrier(CLK_LOCAL_MEM_FENCE);
      LANE_SET_CLEAR()
#endif
      NEXT_NEAR_ROUND
    }
    // The next split from the smallest lane value at or beyond split written since
    // the last far split (near rounds' relaxations) or kept by it (entries that
    // stayed far): at most the far pile's smallest such value (a lane written
    // then and lowered since below split makes it smaller: a phase then moves
    // fewer entries near, never skips one).
    LOCAL_MIN(&l_min, far_lo);
    far_lo = RAW_INF_BITS;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int fc = l_far;
    if (fc == 0) break;
    const bits_t lo = l_min;
    barrier(CLK_LOCAL_MEM_FENCE);
    const bits_t old_bits = split_bits;
    if (lo != RAW_INF_BITS) split = next_split(AS_VALUE(lo), delta);
    const bits_t new_bits = AS_BITS(split);
    if (lid == 0) {
      l_min = RAW_INF_BITS;
      l_next = 0;
      l_far2 = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef LANE_COUNTERS
    if (lid == 0) ++l_count[1];
#endif
    for (int i = lid; i < fc; i += LANE_WG) {
      const int v = far_a[i];
      const __global bits_t* r = (const __global bits_t*)dist + (size_t)v * LANES;
      int now = 0, later = 0;
      bits_t keep_lo = RAW_INF_BITS;
      for (int c = 0; c < LANE_VECS; ++c) {
        const bits4_t dv = vload4(c, r);
        const bits4_t a = (dv >= (bits4_t)(old_bits)) & (dv < (bits4_t)(new_bits));
        const bits4_t b = (dv >= (bits4_t)(new_bits)) & (dv != (bits4_t)(RAW_INF_BITS));
        now |= any(a);
        later |= any(b);
        const bits4_t keep = select((bits4_t)(RAW_INF_BITS), dv, b);
        keep_lo = min(keep_lo, min(min(keep.s0, keep.s1), min(keep.s2, keep.s3)));
      }
      if (!now) far_lo = min(far_lo, keep_lo);  // it stays far: its lanes beyond split are candidates
      if (now) {
        FAR_CLEAR(v);
        near_a[atomic_inc(&l_next)] = v;
      } else if (later) {
        far_b[atomic_inc(&l_far2)] = v;
      } else {
        FAR_CLEAR(v);  // every lane relaxed since
      }
    }
    NEXT_FAR_PHASE
  }
#ifdef LANE_COUNTERS
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    sc[0] = round;
    sc[1] = l_count[1];
    sc[2] = l_count[2];
    sc[3] = l_count[3];
  }
#endif
}
#undef l_near
#undef l_next
#undef l_far
#undef l_far2
#undef l_min
#undef RELAX_LANE
#undef EDGE_CHUNK
#undef TAG
#undef INFAR
#undef FAR_TEST_SET
#undef FAR_CLEAR
#undef QUEUE_ONCE

#endif  // !NEAR_FAR_LOCAL_ROW && !NEAR_FAR_ONLY
