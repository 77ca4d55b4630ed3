// The (min,+) floor microbenchmark's OpenCL kernel (bench/floor/README.md): the
// production inner loop relax_chunk of kernels/minplus_tiled.cl (the host program
// prepends common.cl and minplus_tiled.cl) run `iters` times over operands staged
// once in __local memory: no global traffic in the loop, so it measures the code
// the compiler makes of the add+min loop alone. Each work-item writes the min of
// its accumulators (keeps them live).
__kernel __attribute__((reqd_work_group_size(NTX, NTY, 1))) void floor_relax(
    __global const value_t* in, __global value_t* out, const int iters) {
  __local value_t As[KC][BLOCK + APAD];
  __local value_t Bs[KC][BLOCK];
  const int tid = get_local_id(1) * NTX + get_local_id(0);
  for (int e = tid; e < KC * BLOCK; e += NT) {
    As[e / BLOCK][e % BLOCK] = in[e];
    Bs[e / BLOCK][e % BLOCK] = in[KC * BLOCK + e];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  value_t c[TM][TN];
  fill_acc(c, in[2 * KC * BLOCK + tid]);
  for (int it = 0; it < iters; ++it) relax_chunk(c, As, Bs);
  value_t m = c[0][0];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) m = min(m, c[i][j]);
  out[get_group_id(0) * NT + tid] = m;
}
