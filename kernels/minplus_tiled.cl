// Register-tiled (min,+) kernels, the fast variants: blocked Floyd-Warshall
// (fw_tiled_phase2/3, fw_tiled_outer) and the repeated-squaring product
// (minplus_tiled_product). A work-group owns a BLOCK x BLOCK tile; each work-item
// keeps TM x TN accumulators in registers and reads its operands from __local
// panels staged KC values of k at a time, so the inner loop is TM + TN local
// loads for TM * TN relaxations. Needs common.cl before it.

#ifndef BLOCK
#define BLOCK 64  // tile edge: the FW block edge and the product's output tile
#endif
#ifndef TM
#define TM 4  // rows of the tile each work-item updates
#endif
#ifndef TN
#define TN 4  // columns each work-item updates (a multiple of 4: vector loads)
#endif
#ifndef KC
#define KC 16  // k values staged in __local memory per step (divides BLOCK)
#endif
#ifndef APAD
#define APAD 4  // padding of the transposed column panel: fewer bank conflicts on
                // its staging stores while rows stay 16-byte aligned
#endif

#define NTX (BLOCK / TN)  // work-items along a tile row
#define NTY (BLOCK / TM)  // work-items along a tile column
#define NT (NTX * NTY)   // work-items per work-group

#if (BLOCK % TM) || (BLOCK % TN) || (TN % 4) || (TM % 4) || (BLOCK % KC)
#error "BLOCK must be a multiple of TM, TN and KC; TM and TN multiples of 4"
#endif

// The staged panels of the GEMM loop (panel_product): one buffer of each
// (STAGES = 1), the column panel stored transposed (As[k][row]); or a ring of
// STAGES (2-4) buffers filled by asynchronous 16-byte copies (below), both panels
// stored as they lie in memory (As[row][k], Bs[k][col]): relax_chunk then reads
// A_VEC values of k per row at once (2; 4 measured slower on the H100: more
// registers, docs/performance/dense.md "cp.async ring").
#ifndef STAGES
#define STAGES 1
#endif
#if STAGES > 1
#ifndef A_VEC
#define A_VEC 2
#endif
#if STAGES > 4 || KC % 4 || (A_VEC != 4 && A_VEC != 2)
#error "STAGES > 1 needs STAGES <= 4, KC a multiple of 4 and A_VEC 4 or 2"
#endif
#define A_ONE(name) __local value_t name[BLOCK][KC]
#define AS_PANELS(name) __local value_t name[STAGES][BLOCK][KC]
#define BS_PANELS(name) __local value_t name[STAGES][KC][BLOCK]
#define PANEL_ALIGN __attribute__((aligned(16)))  // 16-byte copies land in them
#else
#define A_ONE(name) __local value_t name[KC][BLOCK + APAD]
#define AS_PANELS(name) __local value_t name[KC][BLOCK + APAD]
#define BS_PANELS(name) __local value_t name[KC][BLOCK]
#define PANEL_ALIGN
#endif
#define STAGED_PANELS AS_PANELS(As) PANEL_ALIGN; BS_PANELS(Bs) PANEL_ALIGN

// One relaxation c = min(c, a + b). NV_PTX_RELAX (int32, NVIDIA only: inline
// PTX) states the add and the min as PTX instructions, for comparing the code
// ptxas makes of them with NVIDIA's OpenCL front end's (bench/floor/README.md).
#if defined(NV_PTX_RELAX) && defined(VALUE_INT32)
#define RELAX(c, a, b)                                                                  \
  asm("{\n\t.reg .s32 t;\n\tadd.s32 t, %1, %2;\n\tmin.s32 %0, %3, t;\n\t}"      \
      : "=r"(c)                                                                        \
      : "r"(a), "r"(b), "r"(c))
#else
#define RELAX(c, a, b) ((c) = min((c), (a) + (b)))
#endif

// The helpers below take the accumulator array by pointer: unless they are
// inlined, compilers move it to (slow) private memory in the stack frame. They
// are static: with external linkage clang (nvptx, amdgcn, PoCL) also emits each
// one as a function of its own, to be compiled at every cold start (nvptx: half
// the PTX). NVIDIA's driver drops them either way (same PTX, H100).
#define HELPER static inline __attribute__((always_inline, unused))

#if defined(VALUE_FLOAT32)
typedef float4 value4_t;
typedef float2 value2_t;
#elif defined(VALUE_FLOAT64)
typedef double4 value4_t;
typedef double2 value2_t;
#elif defined(VALUE_INT64)
typedef long4 value4_t;
typedef long2 value2_t;
#else
typedef int4 value4_t;
typedef int2 value2_t;
#endif

// Accumulators c[TM][TN] of the work-item at local (tx, ty): tile rows
// ty*TM .. ty*TM+TM-1 (contiguous: the work-items of a warp share few rows, so
// their row-operand loads are broadcasts) and columns in groups of 4:
// COLN(n) = (n/4) * 4*NTX + 4*tx + n%4, so the 4-wide vector accesses of
// neighbouring work-items are contiguous (no local-memory bank conflicts,
// coalesced global rows).
#define ROW0 (get_local_id(1) * TM)
#define COLN(n) (((n) / 4) * (4 * NTX) + get_local_id(0) * 4 + ((n) % 4))

HELPER void load_acc(value_t c[TM][TN], __global const value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = vload4(0, t + (size_t)(ROW0 + m) * ld + COLN(n));
      c[m][n] = v.s0;
      c[m][n + 1] = v.s1;
      c[m][n + 2] = v.s2;
      c[m][n + 3] = v.s3;
    }
}

HELPER void fill_acc(value_t c[TM][TN], value_t v) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) c[m][n] = v;
}

// c = min(c, tile): merges the accumulated products with the old values, read
// only after the k loop so the loads do not hold up its start.
HELPER void merge_acc(value_t c[TM][TN], __global const value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = vload4(0, t + (size_t)(ROW0 + m) * ld + COLN(n));
      c[m][n] = min(c[m][n], v.s0);
      c[m][n + 1] = min(c[m][n + 1], v.s1);
      c[m][n + 2] = min(c[m][n + 2], v.s2);
      c[m][n + 3] = min(c[m][n + 3], v.s3);
    }
}

HELPER void store_acc(value_t c[TM][TN], __global value_t* t, int ld) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; n += 4) {
      const value4_t v = (value4_t)(NORM(c[m][n]), NORM(c[m][n + 1]), NORM(c[m][n + 2]),
                                    NORM(c[m][n + 3]));
      vstore4(v, 0, t + (size_t)(ROW0 + m) * ld + COLN(n));
    }
}

// Element e of the staged panels, one mapping for staging and prefetch: column
// panel value (e / KC, k0 + e % KC), stored transposed at As[e % KC][e / KC]
// (consecutive work-items read along a row); row panel value (k0 + e / BLOCK,
// e % BLOCK) at Bs[e / BLOCK][e % BLOCK]. (16-byte quads instead of single values
// measured slower on NVIDIA: docs/performance/dense.md "Staging in 16-byte quads".)
HELPER value_t load_a(__global const value_t* a, int ld, int k0, int e) {
  return a[(size_t)(e / KC) * ld + k0 + e % KC];
}

HELPER void put_a(__local value_t As[KC][BLOCK + APAD], int e, value_t v) { As[e % KC][e / KC] = v; }

HELPER value_t load_b(__global const value_t* b, int ld, int k0, int e) {
  return b[(size_t)(k0 + e / BLOCK) * ld + e % BLOCK];
}

HELPER void put_b(__local value_t Bs[KC][BLOCK], int e, value_t v) { Bs[e / BLOCK][e % BLOCK] = v; }

// Stages As[kk][r] = a[r][k0 + kk] (transposed) for the BLOCK x KC panel at a.
HELPER void stage_cols(__local value_t As[KC][BLOCK + APAD], __global const value_t* a, int ld,
                       int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = tid; e < BLOCK * KC; e += NT) put_a(As, e, load_a(a, ld, k0, e));
}

// Stages Bs[kk][c] = b[k0 + kk][c] for the KC x BLOCK panel at b.
HELPER void stage_rows(__local value_t Bs[KC][BLOCK], __global const value_t* b, int ld, int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = tid; e < BLOCK * KC; e += NT) put_b(Bs, e, load_b(b, ld, k0, e));
}

// b[n] = row[COLN(n)]: this work-item's columns of one staged row of k.
HELPER void load_row(value_t b[TN], __local const value_t* row) {
#pragma unroll
  for (int n = 0; n < TN; n += 4) {
    const value4_t v = vload4(0, row + COLN(n));
    b[n] = v.s0;
    b[n + 1] = v.s1;
    b[n + 2] = v.s2;
    b[n + 3] = v.s3;
  }
}

// c = min(c, a + b) over the KC staged values of k: the hot loop.
HELPER void relax_chunk(value_t c[TM][TN], A_ONE(As), __local value_t Bs[KC][BLOCK]) {
// Unrolled by KK_UNROLL (0 = fully). The FW phases: by 4 everywhere. On NVIDIA
// (FULL_UNROLL) they were unrolled fully until: by 4 the first compile
// of the fw program takes 2.2-2.5 s instead of 7.6-7.9 s on the H100, for
// n = 10 000 T_k 100.2 ms against 99.5 ms (+0.7 %; docs/performance/dense.md). The product
// and the panel GEMM keep the full unroll on NVIDIA (not re-measured); clang
// for amdgcn needs ~100 s for a fully unrolled 8 x 8 x 32 chunk.
#ifndef KK_UNROLL
#if defined(FULL_UNROLL) && !defined(TILED_FW)
#define KK_UNROLL 0
#else
#define KK_UNROLL 4
#endif
#endif
#if STAGES > 1
  // A_VEC values of k per row in one vector load, then A_VEC steps of k, one
  // such group per iteration: unrolled further (KK_UNROLL is not used here), the
  // NVIDIA H100 build takes more registers (product: 125 -> 140-154, one
  // work-group per SM instead of two) and runs 5-10 % slower (docs/performance/dense.md).
#pragma unroll 1
  for (int kv = 0; kv < KC; kv += A_VEC) {
    value_t av[TM][A_VEC];
#pragma unroll
    for (int m = 0; m < TM; ++m) {
#if A_VEC == 4
      const value4_t v = vload4(0, &As[ROW0 + m][kv]);
      av[m][0] = v.s0;
      av[m][1] = v.s1;
      av[m][2] = v.s2;
      av[m][3] = v.s3;
#else
      const value2_t v = vload2(0, &As[ROW0 + m][kv]);
      av[m][0] = v.s0;
      av[m][1] = v.s1;
#endif
    }
#pragma unroll
    for (int j = 0; j < A_VEC; ++j) {
      value_t b[TN];
      load_row(b, Bs[kv + j]);
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) RELAX(c[m][n], av[m][j], b[n]);
    }
  }
#else
#if KK_UNROLL == 1
#pragma unroll 1
#elif KK_UNROLL == 2
#pragma unroll 2
#elif KK_UNROLL == 4
#pragma unroll 4
#elif KK_UNROLL == 8
#pragma unroll 8
#elif KK_UNROLL == 16
#pragma unroll 16
#else
#pragma unroll
#endif
  for (int kk = 0; kk < KC; ++kk) {
    value_t a[TM], b[TN];
#pragma unroll
    for (int m = 0; m < TM; m += 4) {
      const value4_t v = vload4(0, &As[kk][ROW0 + m]);
      a[m] = v.s0;
      a[m + 1] = v.s1;
      a[m + 2] = v.s2;
      a[m + 3] = v.s3;
    }
    load_row(b, Bs[kk]);
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
      for (int n = 0; n < TN; ++n) RELAX(c[m][n], a[m], b[n]);
  }
#endif  // STAGES > 1
}

// Register prefetch of the next chunk: the next chunk's operands are loaded from
// global memory into registers before this chunk's relaxations run, so their
// latency overlaps the arithmetic instead of stalling at the barrier (SPT values
// per panel and work-item; only where the chunk divides among the work-items).
// PF_GEMM: the long-k products use it (the squaring product, the panel engine's
// GEMM, fw's outer-block GEMM): on NVIDIA (FULL_UNROLL) by default -- squaring
// n = 10 000 on the H100 353 -> 308 ms, although ptxas then takes 253 registers
// (one work-group per SM instead of two). PF_PHASES: fw's phases 2 and 3 (k = one
// BLOCK), only when STAGE_PREFETCH is given (phase 3 113 ms against 100 ms with
// KC = 32, 99 ms with KC = 16: no gain). docs/performance/dense.md "Floor" has the figures;
// NO_STAGE_PREFETCH turns the default off.
#if (BLOCK * KC) % NT == 0
#define SPT (BLOCK * KC / NT)

HELPER void fetch_panels(value_t ra[SPT], value_t rb[SPT], __global const value_t* a,
                         __global const value_t* b, int ld, int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
#pragma unroll
  for (int s = 0; s < SPT; ++s) ra[s] = load_a(a, ld, k0, tid + s * NT);
#pragma unroll
  for (int s = 0; s < SPT; ++s) rb[s] = load_b(b, ld, k0, tid + s * NT);
}

HELPER void put_staged(__local value_t As[KC][BLOCK + APAD], __local value_t Bs[KC][BLOCK],
                       const value_t ra[SPT], const value_t rb[SPT]) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
#pragma unroll
  for (int s = 0; s < SPT; ++s) {
    put_a(As, tid + s * NT, ra[s]);
    put_b(Bs, tid + s * NT, rb[s]);
  }
}

#define CAN_PREFETCH 1
#endif

#if defined(STAGE_PREFETCH) || (defined(FULL_UNROLL) && !defined(NO_STAGE_PREFETCH))
#define PF_GEMM 1
#else
#define PF_GEMM 0
#endif
#ifdef STAGE_PREFETCH
#define PF_PHASES 1
#else
#define PF_PHASES 0
#endif

// c = min over k < klen of a(:, k) + b(k, :), with a the BLOCK x klen panel at a
// (row stride ld) and b the klen x BLOCK panel at b; klen a multiple of KC.
// Work-items whose rows all lie at or past `rows` (padding: isolated vertices that
// never change) skip the arithmetic; whole warps of the last tile row go idle.
// prefetch (a compile-time constant at every call: PF_GEMM or PF_PHASES) stages
// through registers a chunk ahead (above). (Two staging buffers with one barrier
// per chunk measured no faster on the H200: docs/performance/dense.md.)
// The first chunk's fetch is in bounds even for klen = 0 (fw_tiled_outer's round-0
// close: it lies inside the matrix), so guarding it by klen > 0 changes nothing but
// NVIDIA's code generation (driver 580, H100): guarded, the squaring product runs
// 5 % faster (n = 10 000 302 against 315 ms) and the panel GEMM 33 % slower (out of
// core n = 40 000 7.12 against 5.35 s; docs/performance/dense.md). The panel GEMM's program
// leaves the guard out.
#ifdef TILED_PANEL
#define PROLOGUE_GUARD 0
#else
#define PROLOGUE_GUARD 1
#endif

#if STAGES > 1
// The staging ring: the copies of chunk i + STAGES - 1 are issued before chunk
// i's relaxations and land while they run, one barrier per chunk and no
// registers held for them (the register prefetch above holds a chunk: 253
// registers on NVIDIA, one work-group per SM). On NVIDIA sm_80+ (NV_CP_ASYNC,
// set by the host after a device check) the copies are PTX cp.async (global to
// shared memory without passing through registers), a group committed per chunk
// and waited for STAGES - 2 chunks behind; everywhere else -- PoCL in the tests --
// they are plain 16-byte copies and the ring runs the same indices and barriers.
// H100: fw n = 10 000 87.1 -> 76.4 ms, squaring 302 -> 280 ms; docs/performance/dense.md
// "cp.async ring".
#ifdef NV_CP_ASYNC
// (__asm__: clang's OpenCL C has no `asm` keyword; NVIDIA's takes both, same code.)
#define CP_ASM __asm__ __volatile__
// A __local pointer's integer value is its offset in the shared window, which is
// what cp.async's shared state space takes.
// Four values: one 16-byte copy, two for the 64-bit types.
HELPER void copy16(__local value_t* dst, __global const value_t* src) {
  CP_ASM("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((uint)(size_t)dst), "l"(src)
         : "memory");
#if defined(VALUE_INT64) || defined(VALUE_FLOAT64)
  CP_ASM("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((uint)(size_t)(dst + 2)),
         "l"(src + 2)
         : "memory");
#endif
}
HELPER void copies_commit(void) { CP_ASM("cp.async.commit_group;\n" ::: "memory"); }
#if STAGES == 2
#define CP_WAIT "cp.async.wait_group 0;\n"
#elif STAGES == 3
#define CP_WAIT "cp.async.wait_group 1;\n"
#else
#define CP_WAIT "cp.async.wait_group 2;\n"
#endif
HELPER void copies_wait(void) { CP_ASM(CP_WAIT ::: "memory"); }
#else
HELPER void copy16(__local value_t* dst, __global const value_t* src) {
  vstore4(vload4(0, src), 0, dst);
}
HELPER void copies_commit(void) {}
HELPER void copies_wait(void) {}
#endif

// Issues the copies of chunk k0 into As (BLOCK rows of KC values of k) and Bs
// (KC rows of BLOCK values), 4 consecutive values per copy (rows of both are
// 16-byte aligned: ld, k0 and KC are multiples of 4). Two strided loops, left to
// the compiler to unroll: on NVIDIA (H100) this form keeps float32 fw's outer GEMM
// at 128 registers, two work-groups per SM (n = 10 000 94.3 ms, against 100.1 ms
// at 130 registers for the same copies in one fully unrolled loop; int32 76.1
// against 76.4 ms, the product 153.1 against 151.6 ms; docs/performance/dense.md).
HELPER void issue_chunk(A_ONE(As), __local value_t Bs[KC][BLOCK], __global const value_t* a,
                        __global const value_t* b, int ld, int k0) {
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = 4 * tid; e < BLOCK * KC; e += 4 * NT)
    copy16(&As[e / KC][e % KC], a + (size_t)(e / KC) * ld + k0 + e % KC);
  for (int e = 4 * tid; e < BLOCK * KC; e += 4 * NT)
    copy16(&Bs[e / BLOCK][e % BLOCK], b + (size_t)(k0 + e / BLOCK) * ld + e % BLOCK);
  copies_commit();  // also with nothing issued: one group per chunk keeps the count
}

// panel_product (below) with the ring; `prefetch` has no meaning here.
HELPER void panel_product(value_t c[TM][TN], AS_PANELS(As), BS_PANELS(Bs),
                          __global const value_t* a, __global const value_t* b, int ld,
                          int klen, int rows, const int prefetch) {
  const bool active = ROW0 < rows;
  const int chunks = klen / KC;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < chunks) issue_chunk(As[s], Bs[s], a, b, ld, s * KC);
    else copies_commit();
  }
  int cur = 0, ahead = STAGES - 1;  // ring slots of chunk i and chunk i + STAGES - 1
  for (int i = 0; i < chunks; ++i) {
    copies_wait();  // this work-item's copies of chunk i have landed
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone's, and slot `ahead` was read by all
    const int next = i + STAGES - 1;
    if (next < chunks) issue_chunk(As[ahead], Bs[ahead], a, b, ld, next * KC);
    else copies_commit();
    if (active) relax_chunk(c, As[cur], Bs[cur]);
    cur = cur == STAGES - 1 ? 0 : cur + 1;
    ahead = ahead == STAGES - 1 ? 0 : ahead + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the buffers are free again when it returns
}

#else
HELPER void panel_product(value_t c[TM][TN], AS_PANELS(As), BS_PANELS(Bs),
                          __global const value_t* a, __global const value_t* b, int ld,
                          int klen, int rows, const int prefetch) {
  const bool active = ROW0 < rows;
#ifdef CAN_PREFETCH
  value_t ra[SPT], rb[SPT];
#if PROLOGUE_GUARD
  if (prefetch && klen > 0) fetch_panels(ra, rb, a, b, ld, 0);
#else
  if (prefetch) fetch_panels(ra, rb, a, b, ld, 0);
#endif
#endif
  for (int k0 = 0; k0 < klen; k0 += KC) {
#ifdef CAN_PREFETCH
    if (prefetch) {
      put_staged(As, Bs, ra, rb);
    } else
#endif
    {
      stage_cols(As, a, ld, k0);
      stage_rows(Bs, b, ld, k0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef CAN_PREFETCH
    if (prefetch && k0 + KC < klen) fetch_panels(ra, rb, a, b, ld, k0 + KC);
#endif
    if (active) relax_chunk(c, As, Bs);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif  // STAGES

HELPER void relax_one(value_t c[TM][TN], const value_t a[TM], const value_t b[TN]) {
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) RELAX(c[m][n], a[m], b[n]);
}

#if NTX % (TM / 4)
#error "phase 1 needs BLOCK / TN to be a multiple of TM / 4"
#endif

// The host builds the FW phases (-DTILED_FW), the product (-DTILED_PRODUCT) and
// the panel engine's GEMM-accumulate (-DTILED_PANEL) as separate programs:
// NVIDIA compiles a cached program's PTX again at every start, so each solver
// pays only for its own kernels. Without any of them, all.
//
// A cold start's build is mostly NVIDIA compiling update_tile (below), once per
// kernel that has it. ONE_FW_KERNEL (the host sets it with the staging ring,
// STAGES > 1, where the register prefetch that sets the phases apart from the
// long-k GEMM does not exist): fw_tiled_phase3 also runs phase 2 (part
// FW_PART_PHASE2) and the outer GEMM (part FW_PART_OUTER), one copy of the code
// instead of three (H100, empty caches: program build 2.30 -> 1.17 s, T_k no
// worse; docs/performance/dense.md "Cold start"). Otherwise, with TILED_FW, FW_ONLY = 2, 3
// or 4 keeps fw_tiled_phase2, fw_tiled_phase3 or fw_tiled_outer alone: the host
// builds the three as programs of their own, side by side on threads (the H100's
// driver runs most of those compiles one after another all the same: 3.13 ->
// 2.90 s).
#if defined(FW_ONLY) && (FW_ONLY < 2 || FW_ONLY > 4 || !defined(TILED_FW))
#error "FW_ONLY (2, 3 or 4) goes with TILED_FW"
#endif
#if defined(ONE_FW_KERNEL) && (STAGES == 1 || defined(FW_ONLY))
#error "ONE_FW_KERNEL needs STAGES > 1 and no FW_ONLY"
#endif
// `part` of the fw kernels (all take ld, kb, d, n, o0, pt, part): 0-2 phase 3
// (fw_tiled_phase3), FW_PART_PHASE2 and FW_PART_OUTER the others' work.
#define FW_PART_PHASE2 3
#define FW_PART_OUTER 4
#if defined(FW_ONLY)
#define FW_KERNEL(i) (FW_ONLY == (i))
#else
#define FW_KERNEL(i) 1
#endif
#if !defined(TILED_PRODUCT) && !defined(TILED_PANEL)
// Floyd-Warshall inside the BLOCK x BLOCK tile held in the work-group's
// registers c (phase 1). Row and column k are broadcast through __local memory
// each step; the buffers alternate between steps, so one barrier per step
// suffices (a buffer is rewritten two steps later, after every work-item has
// passed the barrier between). The k loop is split as
// k = g * 4*NTX + (t0 + t2) * 4 + r so that the register holding row k
// (m = t2 * 4 + r) and column k (COLN index g * 4 + r) is named by compile-time
// indices: picking it with a run-time index made compilers keep the whole
// accumulator array in (slow) stack memory (NVIDIA: a 256-byte frame and phase 1
// at ~6x its arithmetic bound; docs/performance/dense.md). That fully unrolled form is
// what NVIDIA builds (FULL_UNROLL); elsewhere it made clang for amdgcn take ~20 s
// per build, so other devices pick the element with a select chain over a
// k loop that stays a loop.
// CLOSE_SELECT picks the select-chain form on any device (measurements).
#if defined(FULL_UNROLL) && !defined(CLOSE_SELECT)
HELPER void close_tile(value_t c[TM][TN], __local value_t rowbuf[2][BLOCK],
                       __local value_t colbuf[2][BLOCK]) {
  const int lx = get_local_id(0), ly = get_local_id(1);
#pragma unroll
  for (int g = 0; g < TN / 4; ++g)
// CLOSE_T0_LOOP keeps t0 a loop (measurements only: on the H100 it made the
// first compile slower, 3.6 s against 2.2 s, and T_k no better).
#ifdef CLOSE_T0_LOOP
#pragma unroll 1
#endif
    for (int t0 = 0; t0 < NTX; t0 += TM / 4)
#pragma unroll
      for (int t2 = 0; t2 < TM / 4; ++t2)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const int k = g * 4 * NTX + (t0 + t2) * 4 + r, p = r & 1;
          if (ly == k / TM) {
#pragma unroll
            for (int n = 0; n < TN; ++n) rowbuf[p][COLN(n)] = NORM(c[t2 * 4 + r][n]);
          }
          if (lx == t0 + t2) {
#pragma unroll
            for (int m = 0; m < TM; ++m) colbuf[p][ROW0 + m] = NORM(c[m][g * 4 + r]);
          }
          barrier(CLK_LOCAL_MEM_FENCE);
          value_t a[TM], b[TN];
#pragma unroll
          for (int m = 0; m < TM; ++m) a[m] = colbuf[p][ROW0 + m];
#pragma unroll
          for (int n = 0; n < TN; ++n) b[n] = rowbuf[p][COLN(n)];
          relax_one(c, a, b);
        }
}

#else
HELPER void close_tile(value_t c[TM][TN], __local value_t rowbuf[2][BLOCK],
                       __local value_t colbuf[2][BLOCK]) {
  for (int k = 0; k < BLOCK; ++k) {
    const int p = k & 1;
    if (get_local_id(1) == k / TM) {  // row k: element mm of this work-item's rows
      const int mm = k % TM;
#pragma unroll
      for (int n = 0; n < TN; ++n) {
        value_t v = c[0][n];
#pragma unroll
        for (int m = 1; m < TM; ++m) v = m == mm ? c[m][n] : v;
        rowbuf[p][COLN(n)] = NORM(v);
      }
    }
    if (get_local_id(0) == (k % (4 * NTX)) / 4) {  // column k: inverse of COLN
      const int nn = (k / (4 * NTX)) * 4 + k % 4;
#pragma unroll
      for (int m = 0; m < TM; ++m) {
        value_t v = c[m][0];
#pragma unroll
        for (int n = 1; n < TN; ++n) v = n == nn ? c[m][n] : v;
        colbuf[p][ROW0 + m] = NORM(v);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    value_t a[TM], b[TN];
#pragma unroll
    for (int m = 0; m < TM; ++m) a[m] = colbuf[p][ROW0 + m];
#pragma unroll
    for (int n = 0; n < TN; ++n) b[n] = rowbuf[p][COLN(n)];
    relax_one(c, a, b);
  }
}
#endif

// Phase 1 (closing the pivot tile) has no kernel of its own: round 0's is
// fw_tiled_outer (ONE_FW_KERNEL: its part of fw_tiled_phase3) with an empty product, the later ones run inside the phase 3 or
// outer GEMM before them (below). Each statically indexed copy of close_tile is
// large code (NVIDIA's first compile grows with each).
//
// Phase 2: the pivot row tiles (kb, j) and pivot column tiles (i, kb), 2 * D
// work-groups (the pivot itself returns). With the pivot tile P closed by phase 1
// (P(i,i) = 0), the sequential k loop of classic FW collapses into one product:
// row tile T = P (x) T, column tile T = T (x) P (a path through the pivot block
// is a walk inside it, P, followed or preceded by one step of the old tile). A
// tile is staged before it is written and only its own work-group touches it, so
// the product runs in place, with phase 3's parallel GEMM loop.
//
// Phase 2's tile (bi, bj) for this group in round kb; false for the pivot.
HELPER bool phase2_tile(int tiles, int kb, int* bi, int* bj) {
  const int g = get_group_id(0);
  const int is_col = g >= tiles, idx = is_col ? g - tiles : g;
  *bi = is_col ? idx : kb;
  *bj = is_col ? kb : idx;
  return idx != kb;
}

#if !defined(ONE_FW_KERNEL) && FW_KERNEL(2)
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_phase2(
    const int ld, const int kb, __global value_t* d, const int n, const int o0, const int pt,
    const int part) {
  const int tiles = ld / BLOCK;
  int bi, bj;
  if (!phase2_tile(tiles, kb, &bi, &bj)) return;
  const int is_col = bj == kb, idx = is_col ? bi : bj;
  STAGED_PANELS;
  __global const value_t* p = d + (size_t)kb * BLOCK * ld + kb * BLOCK;
  __global value_t* t = is_col ? d + (size_t)idx * BLOCK * ld + kb * BLOCK
                               : d + (size_t)kb * BLOCK * ld + idx * BLOCK;
  value_t c[TM][TN];
  fill_acc(c, INF);
  panel_product(c, As, Bs, is_col ? t : p, is_col ? p : t, ld, BLOCK, BLOCK, PF_PHASES);
  merge_acc(c, t, ld);
  store_acc(c, t, ld);
}
#endif

// Tile (bi, bj) += the (min,+) product of its row's panel of columns ko*BLOCK ..
// +klen and its column's panel of those rows, in place (the tile is no operand,
// except in phase 2, where it is staged before it is written); then closed in
// registers when `close` (the next round's phase 1) and stored. n: the real
// vertices.
HELPER void update_tile(AS_PANELS(As), BS_PANELS(Bs), __local value_t rowbuf[2][BLOCK],
                        __local value_t colbuf[2][BLOCK], __global value_t* d, int ld, int n,
                        int bi, int bj, int ko, int klen, bool close, const int prefetch) {
  __global value_t* t = d + (size_t)bi * BLOCK * ld + bj * BLOCK;
  __global const value_t* a = d + (size_t)bi * BLOCK * ld + ko * BLOCK;  // pivot columns
  __global const value_t* b = d + (size_t)ko * BLOCK * ld + bj * BLOCK;  // pivot rows
  value_t c[TM][TN];
  fill_acc(c, INF);
  panel_product(c, As, Bs, a, b, ld, klen, n - bi * BLOCK, prefetch);
  merge_acc(c, t, ld);
  if (close) close_tile(c, rowbuf, colbuf);  // uniform per group
  store_acc(c, t, ld);
}

// Phase 3 of round kb inside the outer block of tiles o0 .. o0+pt-1 (the two-level
// order below; pt = tiles: one level, every tile): the tiles off the pivot row and
// column whose row or column lies in the outer block, each += pivot-column panel
// (x) pivot-row panel, one work-group per tile in a 1D grid: the pt tile rows of
// the block (pt * tiles groups), then the block's pt columns in the other rows.
// Both parts are rotated so that group 0, dispatched first, updates the next
// round's pivot tile (kb + 1, kb + 1) when it lies in the block and then closes it
// in registers: that is the next round's phase 1, which needs nothing but this
// tile, so it runs while the other groups still work instead of as a one-group
// launch of its own.
//
// Two-level order (pt < tiles): for the rounds of an outer block, phases 2 and 3
// touch only the cross of its tile rows and columns; the tiles outside are
// updated once afterwards, by fw_tiled_outer, with the final cross: the product
// of the block's column panel and row panel, k = pt * BLOCK deep. That is blocked
// FW with block pt * BLOCK, whose phases 1 and 2 run as FW with block BLOCK on
// the cross (closed under what its updates read); the same relaxations as one
// level, but most of them in a long-k GEMM.
//
// part splits a round so that the next round can start early (the host runs the
// parts on two queues): 1 = only the next round's pivot row and column, tiles
// (kb + 1, *) and (*, kb + 1), 2 * tiles groups (kb + 1 must lie in the block),
// closing the next pivot first; 2 = the other tiles of the cross (its grid);
// 0 = all of them. Phase 2 of round kb + 1 needs part 1 only, and writes no tile
// part 2 reads or writes, so it runs beside part 2.
// Phase 3's tile (bi, bj) for this group (the grid above); false when it has none.
HELPER bool phase3_tile(int tiles, int kb, int o0, int pt, int part, int* bi, int* bj) {
  const int next = kb + 1;
  const int g = get_group_id(0), in_rows = pt * tiles, r = next - o0;  // 1 <= r <= pt
  if (part == 1) {
    if (g < tiles) {
      *bi = next;
      *bj = (g + next) % tiles;  // group 0: the next pivot
    } else {
      *bi = g - tiles;
      *bj = next;
      if (*bi == next) return false;
    }
  } else if (g < in_rows) {
    *bi = o0 + (g / tiles + r) % pt;
    *bj = (g % tiles + next) % tiles;
  } else {
    const int h = g - in_rows, i = h / pt;  // i-th tile row outside the block
    *bi = i < o0 ? i : i + pt;
    *bj = o0 + (h % pt + r) % pt;
  }
  return !(*bi == kb || *bj == kb || (part == 2 && (*bi == next || *bj == next)));
}

// The outer GEMM's tile (bi, bj) for this group (fw_tiled_outer, below).
HELPER void outer_tile(int tiles, int o0, int pt, int* bi, int* bj) {
  const int rest = tiles - pt;
  const int ci = (get_group_id(1) + o0) % rest, cj = (get_group_id(0) + o0) % rest;
  *bi = ci < o0 ? ci : ci + pt;
  *bj = cj < o0 ? cj : cj + pt;
}

#if FW_KERNEL(3)
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_phase3(
    const int ld, const int kb, __global value_t* d, const int n, const int o0, const int pt,
    const int part) {
  const int tiles = ld / BLOCK;
  int bi, bj, ko = kb, klen = BLOCK;
  bool close;
  // Whole work-groups leave: no barrier is split.
#ifdef ONE_FW_KERNEL
  if (part == FW_PART_PHASE2) {
    // Phase 2 as update_tile: tile (bi, bj) of the pivot row or column += tile
    // (bi, kb) (x) tile (kb, bj), one of which is the pivot, the other the tile
    // itself (staged before it is written; padded rows skipped as in phase 3).
    if (!phase2_tile(tiles, kb, &bi, &bj)) return;
    close = false;
  } else if (part == FW_PART_OUTER) {
    outer_tile(tiles, o0, pt, &bi, &bj);
    ko = o0;
    klen = pt * BLOCK;
    close = bi == o0 + pt && bj == o0 + pt;
  } else
#endif
  {
    if (!phase3_tile(tiles, kb, o0, pt, part, &bi, &bj)) return;
    close = bi == kb + 1 && bj == kb + 1;
  }
  STAGED_PANELS;
  __local value_t rowbuf[2][BLOCK], colbuf[2][BLOCK];
  update_tile(As, Bs, rowbuf, colbuf, d, ld, n, bi, bj, ko, klen, close, PF_PHASES);
}
#endif

// After the rounds of the outer block o0 .. o0+pt-1 (fw_tiled_phase3): every tile
// outside its cross += the block's column panel (x) its row panel, k = pt * BLOCK
// deep (register prefetch as the other long-k GEMMs), (tiles - pt)^2 groups. The
// grid is rotated so that group (0, 0) updates tile (o0 + pt, o0 + pt), the next
// block's first pivot, and closes it (its phase 1). With o0 = pt = 0 and one
// group: round 0's phase 1 (an empty product, then the close of tile (0, 0)).
#if !defined(ONE_FW_KERNEL) && FW_KERNEL(4)
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void fw_tiled_outer(
    const int ld, const int kb, __global value_t* d, const int n, const int o0, const int pt,
    const int part) {
  int bi, bj;
  outer_tile(ld / BLOCK, o0, pt, &bi, &bj);
  STAGED_PANELS;
  __local value_t rowbuf[2][BLOCK], colbuf[2][BLOCK];
  update_tile(As, Bs, rowbuf, colbuf, d, ld, n, bi, bj, o0, pt * BLOCK,
              bi == o0 + pt && bj == o0 + pt, PF_GEMM);
}
#endif

#endif  // !TILED_PRODUCT && !TILED_PANEL

#if !defined(TILED_FW) && !defined(TILED_PRODUCT)
// The panel engine's GEMM-accumulate (DESIGN.md "Scale"): c = min(c, a (x) b) for
// P x P panels in separate buffers (row stride ld = P, a multiple of BLOCK),
// D x D work-groups, one output tile each. rows: the real rows of c (the rest are
// padding: isolated vertices that never change). c never aliases a or b: a panel
// multiplied by itself goes through a copy on the host side. Batched: b and c hold
// panels one after another (P^2 values each); group z multiplies a by panel
// first + z of b into panel first + z of c (one launch for a row of panels: a
// P x P launch of 400 tiles filled the last of its waves poorly).
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void minplus_tiled_acc(
    const int ld, __global const value_t* a, __global const value_t* b, __global value_t* c,
    const int rows, const int first) {
  const int bj = get_group_id(0), bi = get_group_id(1);
  const size_t panel = (size_t)(first + (int)get_group_id(2)) * ld * ld;
  b += panel;
  c += panel;
  STAGED_PANELS;
  value_t acc[TM][TN];
  fill_acc(acc, INF);
  panel_product(acc, As, Bs, a + (size_t)bi * BLOCK * ld, b + bj * BLOCK, ld, ld,
                rows - bi * BLOCK, PF_GEMM);
  __global value_t* t = c + (size_t)bi * BLOCK * ld + bj * BLOCK;
  merge_acc(acc, t, ld);
  store_acc(acc, t, ld);
}
#endif

#if !defined(TILED_FW) && !defined(TILED_PANEL)
// One repeated-squaring step out = in (x) in over the padded ld x ld matrix.
// The diagonal is 0, so the k = i term is in(i, j) itself: out = min over k
// without a separate merge; changed[slot] is set when any element improves
// (one slot per product).
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void minplus_tiled_product(
    const int ld, __global const value_t* in, __global value_t* out, __global int* changed,
    const int slot) {
  const int bj = get_group_id(0), bi = get_group_id(1);
  STAGED_PANELS;
  __global const value_t* a = in + (size_t)bi * BLOCK * ld;  // row panel of the output tile
  __global const value_t* b = in + bj * BLOCK;               // column panel
  value_t c[TM][TN];
  fill_acc(c, INF);
  panel_product(c, As, Bs, a, b, ld, ld, BLOCK, PF_GEMM);
  // Compare with the input tile (re-read: keeping a copy would double the
  // registers); one plain store of 1 is enough, no atomics needed.
  value_t old[TM][TN];
  load_acc(old, in + (size_t)bi * BLOCK * ld + bj * BLOCK, ld);
  int any = 0;
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) any |= NORM(c[m][n]) != old[m][n];
  if (any) changed[slot] = 1;
  store_acc(c, out + (size_t)bi * BLOCK * ld + bj * BLOCK, ld);
}
#endif  // !TILED_FW && !TILED_PANEL
