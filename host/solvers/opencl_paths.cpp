// Shared plumbing of the OpenCL path kernels (see opencl_paths.hpp).
#include "solvers/opencl_paths.hpp"

#include "graph/paths.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

double PathKernels::build(OpenClCore& core, const std::string& file, const Tunables& t,
                          const std::vector<Launch>& kernels, const std::string& init_kernel,
                          const std::function<void(const std::string&, cl::Kernel&)>& probe_args) {
  const Stopwatch sw;
  const std::string what = "path kernels (kernels/" + file + " " + ocl_sp::to_string(t) + ")";
  const BuiltProgram bp = core.build_separate(file, t);
  std::map<std::string, cl::Kernel> ks;
  for (const auto& l : kernels)
    ks[l.name] = core.kernel(
        l.name, what, l.local, [&](cl::Kernel& k) { probe_args(l.name, k); }, &bp.program);
  if (!init_kernel.empty())
    with_cl_errors("cannot create kernel " + init_kernel,
                   [&] { init_ = cl::Kernel(bp.program, init_kernel.c_str()); });
  program_ = bp.program;
  kernels_ = std::move(ks);
  cache_ = bp.cache;
  file_ = file;
  t_ = t;
  built_ = true;
  return sw.seconds();
}

void PathKernels::init(OpenClCore& core, int64_t ld, cl::Buffer& d, cl::Buffer& hop,
                       cl::Buffer& via) {
  init_.setArg(0, static_cast<cl_int>(ld));
  init_.setArg(1, d);
  init_.setArg(2, hop);
  init_.setArg(3, via);
  // Fixed 8 x 8 groups over ld rounded up (the kernel checks bounds), as the
  // padding helper does: one compiled variant whatever ld is.
  const size_t g = static_cast<size_t>(round_up(ld, 8));
  core.launch(init_, cl::NDRange(g, g), cl::NDRange(8, 8));
}

void PathKernels::download(OpenClCore& core, int64_t n, int64_t ld, cl::Buffer& hop,
                           cl::Buffer& via, PathMatrix& p) {
  size_path_matrix(p, n);
  core.download(p.hops.data(), n, ld, hop, sizeof(int32_t));
  core.download(p.via.data(), n, ld, via, sizeof(int32_t));
}

void PathKernels::fill_stats(RunStats& st, int64_t ld, int buffers, double setup_seconds) const {
  st.paths = true;
  st.paths_bytes = static_cast<double>(ld) * static_cast<double>(ld) * 4.0 * buffers;
  st.paths_setup = setup_seconds;
  st.paths_kernels = file_ + " " + ocl_sp::to_string(t_);
  st.paths_cache = cache_;
}

}  // namespace ocl_sp::detail
