// Which device owns which panel rows (panel_engine.hpp): the devices' relative
// speeds and the smooth weighted round robin that shares rows by them.
#include <cstdlib>
#include <string>

#include "solvers/panel_engine.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

template <typename T>
std::vector<double> panel_device_weights(const std::vector<PanelDevice*>& devs, int64_t p) {
  const size_t d = devs.size();
  std::vector<double> w(d, 1.0);
  if (d == 1) return w;
  const char* e = std::getenv("OCL_SP_DEVICE_WEIGHTS");
  const bool probe = e && std::string(e) == "probe";  // tests: probe devices of one kind too
  if (e && *e && !probe) {
    const std::string list = e;
    size_t k = 0, pos = 0;
    while (k < d && pos <= list.size()) {
      const size_t comma = list.find(',', pos);
      const double v = std::atof(list.substr(pos, comma - pos).c_str());
      if (v > 0) w[k] = v;
      ++k;
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return w;
  }
  const auto kind = [](const DeviceEntry& x) {
    return x.name.substr(0, x.name.find(" [part ")) + "/" + std::to_string(x.compute_units);
  };
  bool same = true;
  for (PanelDevice* dev : devs) same &= kind(dev->core().device()) == kind(devs[0]->core().device());
  if (same && !probe) return w;
  const int64_t s = std::min<int64_t>(p, 1024);
  for (size_t k = 0; k < d; ++k) {
    OpenClCore& core = devs[k]->core();
    with_cl_errors("cannot probe '" + core.device().name + "'", [&] {
      const size_t b = static_cast<size_t>(s * s) * sizeof(T);
      cl::Buffer a(core.context(), CL_MEM_READ_WRITE, b), c(core.context(), CL_MEM_READ_WRITE, b);
      const std::vector<T> inf(static_cast<size_t>(s * s), ValueTraits<T>::inf);
      core.queue(OpenClCore::kCompute).enqueueWriteBuffer(a, CL_TRUE, 0, b, inf.data());
      core.queue(OpenClCore::kCompute).enqueueWriteBuffer(c, CL_TRUE, 0, b, inf.data());
      devs[k]->gemm_acc(c, a, a, s, s);
      cl::Event ev = devs[k]->gemm_acc(c, a, a, s, s);
      ev.wait();
      const double t = static_cast<double>(ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                           ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9;
      w[k] = t > 0 ? 1.0 / t : 1.0;
      core.begin_solve();  // the probe is not part of the solve's accounting
    });
  }
  return w;
}

std::vector<int> share_panel_rows(const std::vector<double>& weights, const std::vector<int64_t>& max_rows,
                                  int64_t q) {
  const size_t d = weights.size();
  double total = 0;
  for (double x : weights) total += x;
  std::vector<double> credit(d, 0.0);
  std::vector<int64_t> held(d, 0);
  std::vector<int> owner(static_cast<size_t>(q), 0);
  for (int64_t i = 0; i < q; ++i) {
    size_t best = d;
    for (size_t k = 0; k < d; ++k) {
      credit[k] += weights[k];
      const int64_t cap = k < max_rows.size() ? max_rows[k] : q;
      if (held[k] >= cap) continue;
      if (best == d || credit[k] > credit[best]) best = k;
    }
    if (best == d) best = static_cast<size_t>(i) % d;  // cannot happen with a valid plan
    credit[best] -= total;
    owner[static_cast<size_t>(i)] = static_cast<int>(best);
    ++held[best];
  }
  return owner;
}

template std::vector<double> panel_device_weights<int32_t>(const std::vector<PanelDevice*>&, int64_t);
template std::vector<double> panel_device_weights<int64_t>(const std::vector<PanelDevice*>&, int64_t);
template std::vector<double> panel_device_weights<float>(const std::vector<PanelDevice*>&, int64_t);
template std::vector<double> panel_device_weights<double>(const std::vector<PanelDevice*>&, int64_t);

}  // namespace ocl_sp::detail
