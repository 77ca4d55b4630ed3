// The (min,+) floor microbenchmark in CUDA (bench/floor/README.md): the same
// register-tiled loop as kernels/minplus_tiled.cl's relax_chunk (8 x 8
// accumulators per thread, 16 x 16 threads, operands from shared memory staged
// once, KC k values per chunk), so its SASS and rate can be set beside the code
// NVIDIA's OpenCL compiler makes of the same loop.
// Build: nvcc -O3 -arch=sm_90 -o floor_cuda floor.cu
// Run:   floor_cuda [int32|float32|dpx] [groups] [iters] [reps]
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int BLOCK = 128, TM = 8, TN = 8, KC = 32, APAD = 4;
constexpr int NTX = BLOCK / TN, NTY = BLOCK / TM, NT = NTX * NTY;

template <typename T>
struct Vec4;
template <>
struct Vec4<int> {
  using type = int4;
};
template <>
struct Vec4<float> {
  using type = float4;
};

template <typename T, bool Dpx>
__device__ __forceinline__ void relax(T& c, T a, T b) {
  c = min(c, a + b);
}
#if __CUDA_ARCH__ >= 900
template <>
__device__ __forceinline__ void relax<int, true>(int& c, int a, int b) {
  c = __viaddmin_s32(a, b, c);
}
#endif

template <typename T, bool Dpx, int Unroll>
__global__ void __launch_bounds__(NT) floor_relax(const T* in, T* out, int iters) {
  using V = typename Vec4<T>::type;
  __shared__ __align__(16) T As[KC][BLOCK + APAD];
  __shared__ __align__(16) T Bs[KC][BLOCK];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * NTX + tx;
  for (int e = tid; e < KC * BLOCK; e += NT) {
    As[e / BLOCK][e % BLOCK] = in[e];
    Bs[e / BLOCK][e % BLOCK] = in[KC * BLOCK + e];
  }
  __syncthreads();
  T c[TM][TN];
  const T init = in[2 * KC * BLOCK + tid];
#pragma unroll
  for (int m = 0; m < TM; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) c[m][n] = init;
  for (int it = 0; it < iters; ++it) {
#pragma unroll Unroll
    for (int kk = 0; kk < KC; ++kk) {
      T a[TM], b[TN];
#pragma unroll
      for (int m = 0; m < TM; m += 4) {
        const V v = *reinterpret_cast<const V*>(&As[kk][ty * TM + m]);
        a[m] = v.x, a[m + 1] = v.y, a[m + 2] = v.z, a[m + 3] = v.w;
      }
#pragma unroll
      for (int n = 0; n < TN; n += 4) {
        const V v = *reinterpret_cast<const V*>(&Bs[kk][(n / 4) * 4 * NTX + tx * 4]);
        b[n] = v.x, b[n + 1] = v.y, b[n + 2] = v.z, b[n + 3] = v.w;
      }
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) relax<T, Dpx>(c[m][n], a[m], b[n]);
    }
  }
  T m = c[0][0];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) m = min(m, c[i][j]);
  out[blockIdx.x * NT + tid] = m;
}

template <typename T, bool Dpx, int Unroll>
static double run(int groups, int iters, int reps) {
  std::vector<T> h(2 * KC * BLOCK + NT);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<T>((i * 2654435761u) % 1000);
  T *in, *out;
  cudaMalloc(&in, h.size() * sizeof(T));
  cudaMalloc(&out, size_t(groups) * NT * sizeof(T));
  cudaMemcpy(in, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  floor_relax<T, Dpx, Unroll><<<groups, dim3(NTX, NTY)>>>(in, out, 1);  // warm-up
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0);
    floor_relax<T, Dpx, Unroll><<<groups, dim3(NTX, NTY)>>>(in, out, iters);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(ms * 1e-3);
  }
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
    std::fprintf(stderr, "error: %s\n", cudaGetErrorString(err));
    std::exit(1);
  }
  std::sort(t.begin(), t.end());
  cudaFree(in);
  cudaFree(out);
  return double(groups) * NT * TM * TN * KC * double(iters) / t[t.size() / 2] / 1e12;
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "int32";
  const int groups = argc > 2 ? std::atoi(argv[2]) : 132 * 2 * 16;
  const int iters = argc > 3 ? std::atoi(argv[3]) : 200;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 5;
  double r = 0;
  if (!std::strcmp(what, "int32")) r = run<int, false, 4>(groups, iters, reps);
  else if (!std::strcmp(what, "int32-full")) r = run<int, false, KC>(groups, iters, reps);
  else if (!std::strcmp(what, "dpx")) r = run<int, true, 4>(groups, iters, reps);
  else if (!std::strcmp(what, "float32")) r = run<float, false, 4>(groups, iters, reps);
  else {
    std::fprintf(stderr, "error: unknown variant '%s' (int32, int32-full, dpx, float32)\n", what);
    return 2;
  }
  std::printf("cuda %-10s groups %d iters %d: %.2f T relax/s (median of %d)\n", what, groups, iters,
              r, reps);
  return 0;
}
