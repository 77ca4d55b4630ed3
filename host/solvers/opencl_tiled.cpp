// The register-tiled kernel family's tunables (kernels/minplus_tiled.cl, TILED=1
// and 2): the rules a value must meet, the defaults per device and the shape the
// host sizes launches and __local memory by.
#include <algorithm>

#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

std::vector<TunableRule> tiled_rules() {
  return {{"TILED", {0, 1}, "kernel family: 0 = the paper's / seeds' kernels, 1 = register-tiled"},
          {"TM", {4, 8}, "rows each work-item updates (TILED=1)"},
          {"TN", {4, 8}, "columns each work-item updates (TILED=1)"},
          {"KC", {8, 16, 32, 64}, "k values staged in __local memory per step (TILED=1)"},
          {"STAGES",
           {1, 2, 3, 4},
           "staging buffers: 1 = one, 2-4 = a ring filled by asynchronous copies (TILED=1)"}};
}

bool nv_cp_async(const DeviceEntry& dev) {
  return dev.vendor_key() == "nvidia" && dev.nv_compute_major >= 8;
}

int default_stages(const DeviceEntry& dev) { return nv_cp_async(dev) ? 2 : 1; }

unsigned long long staged_panel_bytes(int block, int kc, int stages, size_t value_size) {
  const unsigned long long b = static_cast<unsigned long long>(block);
  const unsigned long long k = static_cast<unsigned long long>(kc);
  return (stages > 1 ? static_cast<unsigned long long>(stages) * k * 2 * b : k * (2 * b + 4)) *
         value_size;
}

int resolve_family(const Tunables& chosen, int default_tiled,
                   const std::vector<std::string>& tiled_only,
                   const std::vector<std::string>& classic_only) {
  std::string tiled_key, classic_key;
  for (const auto& k : tiled_only)
    if (chosen.count(k)) tiled_key = k;
  for (const auto& k : classic_only)
    if (chosen.count(k)) classic_key = k;
  int family = default_tiled;
  if (chosen.count("TILED"))
    family = chosen.at("TILED");
  else if (!tiled_key.empty() || !classic_key.empty())
    family = tiled_key.empty() ? 0 : 1;
  if (family && !classic_key.empty())
    throw UsageError(classic_key + " belongs to the paper's/seeds' kernels (TILED=0); " +
                     (tiled_key.empty() ? std::string("TILED=1") : tiled_key) +
                     " selects the register-tiled ones");
  if (!family && !tiled_key.empty())
    throw UsageError(tiled_key + " belongs to the register-tiled kernels (TILED=1), not TILED=0");
  return family;
}

void complete_tiled(Tunables& t) {
  if (t.count("TILED") && t.at("TILED")) {
    for (const char* k : {"TM", "TN"})
      if (!t.count(k)) t[k] = 4;
    if (!t.count("KC")) t["KC"] = 16;
  } else {
    for (const char* k : {"TM", "TN", "KC", "STAGES"}) t.erase(k);
  }
}

void fit_stages(Tunables& t, const Tunables& chosen, unsigned long long local_mem,
                size_t value_size) {
  if (!t.count("STAGES") || chosen.count("STAGES") || !t.count("KC")) return;
  if (t.at("STAGES") > 1 && tiled_shape(t, value_size).local_bytes > local_mem) t.erase("STAGES");
}

TiledShape tiled_shape(const Tunables& t, size_t value_size) {
  TiledShape s;
  const int b = t.at("BLOCK"), tm = t.at("TM"), tn = t.at("TN"), kc = t.at("KC");
  s.what = "TILED=1 BLOCK=" + std::to_string(b) + " TM=" + std::to_string(tm) +
           " TN=" + std::to_string(tn) + " KC=" + std::to_string(kc);
  const int stages = t.count("STAGES") ? t.at("STAGES") : 1;
  if (stages > 1) s.what += " STAGES=" + std::to_string(stages);
  if (b < 32 || b % kc)
    throw UsageError(s.what + ": the register-tiled kernels need BLOCK >= 32, a multiple of KC");
  const size_t bs = static_cast<size_t>(b);
  s.local[0] = bs / static_cast<size_t>(tn);
  s.local[1] = bs / static_cast<size_t>(tm);
  s.local_bytes = staged_panel_bytes(b, kc, stages, value_size);
  return s;
}

}  // namespace ocl_sp::detail
