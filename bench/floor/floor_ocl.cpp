// The (min,+) floor microbenchmark on an OpenCL device (bench/floor/README.md):
// builds common.cl + minplus_tiled.cl + bench/floor/floor.cl with the given
// defines and compiler options, runs floor_relax (the production relax_chunk over
// operands in __local memory, no global traffic) and prints the median rate.
// --binary FILE writes the program binary (PTX on NVIDIA) for ptxas/cuobjdump.
#include <CL/opencl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int usage() {
  std::cerr << "usage: ocl_sp_floor [--platform SUBSTR] [--type int32|float32|int64|float64]\n"
               "                    [--tile T] [--block B] [--kc K] [--defines STR]\n"
               "                    [--options STR] [--groups G] [--iters I] [--reps R]\n"
               "                    [--root REPO] [--binary FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) try {
  std::string platform_want, type = "int32", defines, options, root = ".", binary;
  int groups = 132 * 2 * 16, iters = 200, reps = 5;
  int tile = 8, block = 128, kc = 32;  // TM = TN = tile
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    if (a == "--platform") platform_want = v;
    else if (a == "--type") type = v;
    else if (a == "--defines") defines = v;
    else if (a == "--options") options = v;
    else if (a == "--groups") groups = std::atoi(v.c_str());
    else if (a == "--iters") iters = std::atoi(v.c_str());
    else if (a == "--reps") reps = std::atoi(v.c_str());
    else if (a == "--root") root = v;
    else if (a == "--binary") binary = v;
    else if (a == "--tile") tile = std::atoi(v.c_str());
    else if (a == "--block") block = std::atoi(v.c_str());
    else if (a == "--kc") kc = std::atoi(v.c_str());
    else return usage();
  }
  if (type != "int32" && type != "float32" && type != "int64" && type != "float64") return usage();
  if (tile != 4 && tile != 8) return usage();
  if (block != 32 && block != 64 && block != 128) return usage();
  if (kc != 8 && kc != 16 && kc != 32) return usage();
  const bool wide = type == "int64" || type == "float64";
  const size_t vs = wide ? 8 : 4;
  if (groups < 1 || iters < 1 || reps < 1) return usage();

  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  cl::Device dev;
  bool found = false;
  for (auto& p : platforms) {
    if (p.getInfo<CL_PLATFORM_NAME>().find(platform_want) == std::string::npos) continue;
    std::vector<cl::Device> ds;
    p.getDevices(CL_DEVICE_TYPE_ALL, &ds);
    if (!ds.empty()) {
      dev = ds[0];
      found = true;
      break;
    }
  }
  if (!found) {
    std::cerr << "error: no OpenCL device on a platform matching '" << platform_want << "'\n";
    return 1;
  }
  const std::string src = read_file(root + "/kernels/common.cl") +
                          read_file(root + "/kernels/minplus_tiled.cl") +
                          read_file(root + "/bench/floor/floor.cl");
  std::string value_define = "-DVALUE_INT32";
  if (type == "float32") value_define = "-DVALUE_FLOAT32";
  if (type == "int64") value_define = "-DVALUE_INT64";
  if (type == "float64") value_define = "-DVALUE_FLOAT64";
  const std::string opts = value_define + " -DBLOCK=" + std::to_string(block) +
                           " -DTM=" + std::to_string(tile) + " -DTN=" + std::to_string(tile) +
                           " -DKC=" + std::to_string(kc) + " -DTILED_PANEL -cl-std=CL1.2 " +
                           defines + " " + options;
  cl::Context ctx(dev);
  cl::Program prog(ctx, src);
  try {
    prog.build(std::vector<cl::Device>{dev}, opts.c_str());
  } catch (const cl::Error&) {
    std::cerr << "error: build failed (" << opts << "):\n"
              << prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev) << "\n";
    return 1;
  }
  if (!binary.empty()) {
    const auto bins = prog.getInfo<CL_PROGRAM_BINARIES>();
    std::ofstream(binary, std::ios::binary).write(reinterpret_cast<const char*>(bins[0].data()),
                                                  static_cast<std::streamsize>(bins[0].size()));
  }
  const int kBlock = block, kT = tile, kKc = kc, kNtx = kBlock / kT, kNt = kNtx * kNtx;
  const size_t in_count = static_cast<size_t>(2 * kKc * kBlock + kNt);
  std::vector<char> h(in_count * vs);
  for (size_t i = 0; i < in_count; ++i) {
    const int v = static_cast<int>((i * 2654435761u) % 1000);
    char* at = h.data() + i * vs;
    if (type == "int32") {
      const int32_t x = v;
      std::memcpy(at, &x, 4);
    } else if (type == "float32") {
      const float x = static_cast<float>(v);
      std::memcpy(at, &x, 4);
    } else if (type == "int64") {
      const int64_t x = v;
      std::memcpy(at, &x, 8);
    } else {
      const double x = v;
      std::memcpy(at, &x, 8);
    }
  }
  cl::CommandQueue q(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
  cl::Buffer in(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_count * vs, h.data());
  cl::Buffer out(ctx, CL_MEM_WRITE_ONLY, size_t(groups) * kNt * vs);
  cl::Kernel k(prog, "floor_relax");
  k.setArg(0, in);
  k.setArg(1, out);
  const cl::NDRange global(size_t(groups) * kNtx, kNtx), local(kNtx, kNtx);
  k.setArg(2, 1);
  q.enqueueNDRangeKernel(k, cl::NullRange, global, local);  // warm-up
  q.finish();
  k.setArg(2, iters);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cl::Event e;
    q.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &e);
    e.wait();
    t.push_back((e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                 e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9);
  }
  std::sort(t.begin(), t.end());
  const double rate = double(groups) * kNt * kT * kT * kKc * iters / t[t.size() / 2] / 1e12;
  std::printf("opencl %-7s tile %dx%d block %d kc %d %-30s groups %d iters %d: %.2f T relax/s "
              "(median of %d, %.3f ms)\n",
              type.c_str(), kT, kT, kBlock, kKc, (defines + " " + options).c_str(), groups, iters,
              rate, reps,
              t[t.size() / 2] * 1e3);
  return 0;
} catch (const cl::Error& e) {
  std::cerr << "error: OpenCL " << e.what() << " (" << e.err() << ")\n";
  return 1;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
