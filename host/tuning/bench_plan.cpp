// Size filtering and time estimates for `ocl_sp bench` (see bench_plan.hpp).
#include "tuning/bench_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/report.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

const std::vector<int64_t>& paper_sizes() {
  static const std::vector<int64_t> s{10, 50, 200, 300, 1400, 2000, 5000, 8920, 10000};
  return s;
}

int products_bound(int64_t n) {
  int p = 0;
  // smallest p with 2^p >= n - 1
  while (n > 2 && (int64_t{1} << p) < n - 1) ++p;
  return std::max(p, 1);
}

double relaxation_bound(Algo a, int64_t n) {
  return relaxation_count(a, n, a == Algo::squaring ? products_bound(n) : 1);
}

uint64_t device_buffer_bytes(int64_t n, int value_bytes) {
  const uint64_t p = static_cast<uint64_t>((n + 127) / 128 * 128);
  return p * p * static_cast<uint64_t>(value_bytes);
}

uint64_t device_bytes_needed(Algo a, int64_t n, int value_bytes, bool paths) {
  const uint64_t matrices = a == Algo::squaring ? 2 : 1;
  const uint64_t path_matrices = !paths ? 0 : a == Algo::squaring ? 3 : 2;
  return device_buffer_bytes(n, value_bytes) * matrices + device_buffer_bytes(n, 4) * path_matrices;
}

uint64_t host_bytes_needed(int64_t n, int value_bytes, bool paths) {
  const uint64_t nn = static_cast<uint64_t>(n) * static_cast<uint64_t>(n);
  return 4 * nn * value_bytes + (paths ? 3 * nn * 4 : 0);
}

std::optional<std::string> device_misfit(const BenchColumn& c, Algo a, int64_t n, int value_bytes,
                                         bool paths) {
  if (c.backend != Backend::opencl) return std::nullopt;
  const uint64_t buf = device_buffer_bytes(n, value_bytes);
  const uint64_t all = device_bytes_needed(a, n, value_bytes, paths);
  if (c.max_alloc && buf > c.max_alloc)
    return "a " + mib_up(buf) + " matrix buffer exceeds the device's max allocation of " +
           mib_up(c.max_alloc);
  // Leave 10% of global memory to the driver and the program.
  if (c.global_mem && all > c.global_mem / 10 * 9)
    return "needs " + mib_up(all) + " of device memory, the device has " + mib_up(c.global_mem);
  return std::nullopt;
}

std::vector<int64_t> filter_sizes(std::vector<int64_t> sizes, uint64_t host_available,
                                  int value_bytes, std::vector<std::string>* notes, bool paths) {
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::vector<int64_t> kept;
  for (int64_t n : sizes) {
    const uint64_t need = host_bytes_needed(n, value_bytes, paths);
    if (host_available != 0 && need > host_available) {
      if (notes)
        notes->push_back("n = " + std::to_string(n) + " left out: needs " + mib_up(need) +
                         " of host memory, " + mib_up(host_available) + " available");
      continue;
    }
    kept.push_back(n);
  }
  return kept;
}

double default_rate(const BenchColumn& c) {
  switch (c.backend) {
    case Backend::serial:
      return 2e8;
    case Backend::openmp:
      return 1e9;
    case Backend::opencl:
      return c.kind == "cpu" ? 1e9 : 2e10;
  }
  return 2e8;
}

void RateBook::record(const std::string& column, Algo a, int64_t n, double relaxations,
                      double seconds) {
  if (!(seconds > 0) || !(relaxations > 0)) return;
  Point& p = best_[column + "/" + to_string(a)];
  if (n >= p.n) p = Point{n, relaxations / seconds, seconds};
}

int64_t probe_size(const BenchColumn& c, Algo a, int64_t n, double budget) {
  int64_t p = std::max<int64_t>(std::min<int64_t>(n, 64), n / 2);
  while (p > 64 && relaxation_bound(a, p) / default_rate(c) > budget) p /= 2;
  return std::max<int64_t>(p, std::min<int64_t>(n, 64));
}

bool RateBook::has(const std::string& column, Algo a) const {
  return best_.count(column + "/" + to_string(a)) > 0;
}

Estimate RateBook::estimate(const BenchColumn& c, Algo a, int64_t n, int runs) const {
  return estimate(c, c.label, a, n, runs);
}

Estimate RateBook::estimate(const BenchColumn& c, const std::string& column, Algo a, int64_t n,
                            int runs) const {
  Estimate e;
  const double floor_rate = default_rate(c);
  double rate = floor_rate;
  char buf[160];
  auto it = best_.find(column + "/" + to_string(a));
  const bool measured = it != best_.end() && it->second.n <= n;
  if (measured && (it->second.rate > floor_rate || it->second.seconds >= kTrustedSeconds)) {
    rate = it->second.rate;
    std::snprintf(buf, sizeof buf, "measured %srelax/s at n = %lld", format_rate(rate).c_str(),
                  static_cast<long long>(it->second.n));
  } else {
    const std::string who =
        c.backend == Backend::opencl ? "OpenCL " + c.kind : std::string(to_string(c.backend));
    std::snprintf(buf, sizeof buf, "default %srelax/s for %s%s", format_rate(rate).c_str(),
                  who.c_str(), measured ? ", above the rate of the short run so far" : "");
  }
  e.basis = buf;
  e.per_solve = relaxation_bound(a, n) / rate;
  e.total = e.per_solve * std::max(runs, 1);
  return e;
}

}  // namespace ocl_sp
