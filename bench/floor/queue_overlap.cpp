// Do two in-order command queues of one context run kernels at the same time on
// this OpenCL device? (docs/performance/dense.md "Overlapping phase 2": the question decides
// whether fw's phase 2 can run beside the previous round's phase 3.)
// A kernel of G work-groups spins for a fixed number of dependent steps; it is
// timed alone, then twice on one queue, then once on each of two queues, launched
// back to back. If the two-queue time is near the single time, the device ran
// them together; near twice, it serialised them.
// Build: CMake target ocl_sp_queue_overlap (or g++ -O2 -std=c++17 queue_overlap.cpp -lOpenCL)
// Usage: ocl_sp_queue_overlap [PLATFORM_SUBSTR] [GROUPS] [STEPS]
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* kSource = R"(
__kernel void spin(__global int* out, const int steps) {
  int x = get_global_id(0);
  for (int i = 0; i < steps; ++i) x = x * 1664525 + 1013904223;
  out[get_global_id(0)] = x;
}
)";

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "error: %s failed (%d)\n", what, err);
    std::exit(1);
  }
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string want = argc > 1 ? argv[1] : "NVIDIA";
  const size_t groups = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 66;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 2000000;
  cl_uint np = 0;
  check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
  std::vector<cl_platform_id> ps(np);
  check(clGetPlatformIDs(np, ps.data(), nullptr), "clGetPlatformIDs");
  cl_platform_id plat = nullptr;
  for (auto p : ps) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find(want) != std::string::npos) plat = p;
  }
  if (!plat) {
    std::fprintf(stderr, "error: no platform matching '%s'\n", want.c_str());
    return 1;
  }
  cl_device_id dev;
  check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr), "clGetDeviceIDs");
  char dname[256] = {};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, nullptr);
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q[2];
  for (auto& x : q) {
    x = clCreateCommandQueue(ctx, dev, 0, &err);
    check(err, "clCreateCommandQueue");
  }
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  check(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "clBuildProgram");
  const size_t local = 256, global = groups * local;
  cl_mem out[2];
  cl_kernel k[2];
  for (int i = 0; i < 2; ++i) {
    out[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * sizeof(cl_int), nullptr, &err);
    check(err, "clCreateBuffer");
    k[i] = clCreateKernel(prog, "spin", &err);
    check(err, "clCreateKernel");
    clSetKernelArg(k[i], 0, sizeof(cl_mem), &out[i]);
    clSetKernelArg(k[i], 1, sizeof(int), &steps);
  }
  auto run = [&](int launches, bool two_queues) {
    const double t0 = now();
    for (int i = 0; i < launches; ++i) {
      cl_command_queue qq = two_queues ? q[i % 2] : q[0];
      check(clEnqueueNDRangeKernel(qq, k[i % 2], 1, nullptr, &global, &local, 0, nullptr, nullptr),
            "clEnqueueNDRangeKernel");
      clFlush(qq);
    }
    clFinish(q[0]);
    clFinish(q[1]);
    return now() - t0;
  };
  run(2, true);  // warm-up
  double one = 1e9, serial = 1e9, two = 1e9;
  for (int r = 0; r < 5; ++r) {
    one = std::min(one, run(1, false));
    serial = std::min(serial, run(2, false));
    two = std::min(two, run(2, true));
  }
  std::printf("%s: %zu groups x 256, best of 5: one kernel %.2f ms, two on one queue %.2f ms, "
              "two on two queues %.2f ms -> %s\n",
              dname, groups, one * 1e3, serial * 1e3, two * 1e3,
              two < 1.4 * one ? "concurrent" : "serialised");
  return 0;
}
