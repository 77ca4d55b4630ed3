// Built-in tuning spaces and their constraints (see tuning_space.hpp). The
// constraint numbers mirror what the kernels in kernels/ allocate and launch.
#include "tuning/tuning_space.hpp"

#include <algorithm>

#include "cl/device.hpp"
#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

DeviceLimits DeviceLimits::of(const DeviceEntry& d) {
  DeviceLimits l;
  l.max_work_group = d.max_work_group;
  l.local_mem = d.local_mem;
  return l;
}

namespace {

int get(const Tunables& t, const std::string& k) {
  auto it = t.find(k);
  return it == t.end() ? 0 : it->second;
}

// "lhs <= limit" with the numbers when it fails; unknown limits (0) pass.
std::string at_most(uint64_t lhs, uint64_t limit) {
  if (limit == 0 || lhs <= limit) return "";
  return std::to_string(lhs) + " > " + std::to_string(limit);
}

Constraint work_group_square(const std::string& p) {
  return {p + "*" + p + " <= max work-group size",
          [p](const Tunables& t, const DeviceLimits& l, int) {
            const uint64_t e = static_cast<uint64_t>(get(t, p));
            return at_most(e * e, l.max_work_group);
          }};
}

// `tiles` tiles of p x p values in __local memory.
Constraint local_tiles(const std::string& p, int tiles) {
  return {std::to_string(tiles) + "*" + p + "*" + p + "*sizeof(T) <= local memory",
          [p, tiles](const Tunables& t, const DeviceLimits& l, int bytes) {
            const uint64_t e = static_cast<uint64_t>(get(t, p));
            return at_most(e * e * static_cast<uint64_t>(tiles * bytes), l.local_mem);
          }};
}

}  // namespace

std::vector<Tunables> TuningSpace::configurations() const {
  std::vector<Tunables> out{Tunables{}};
  for (const auto& p : params) {
    std::vector<Tunables> next;
    for (const auto& base : out)
      for (int v : p.values) {
        Tunables t = base;
        t[p.name] = v;
        next.push_back(std::move(t));
      }
    out = std::move(next);
  }
  return out;
}

std::optional<std::string> TuningSpace::rejects(const Tunables& t, const DeviceLimits& lim,
                                                int value_bytes) const {
  for (const auto& c : constraints) {
    const std::string why = c.violated(t, lim, value_bytes);
    if (!why.empty()) return c.name + " (" + why + ")";
  }
  return std::nullopt;
}

const TunableParam* TuningSpace::find(const std::string& name) const {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

void TuningSpace::set_values(const std::string& name, const std::vector<int>& values) {
  if (values.empty()) throw UsageError("no values given for tunable " + name);
  for (int v : values)
    if (v < 1) throw UsageError("tunable " + name + " must be >= 1, got " + std::to_string(v));
  for (auto& p : params)
    if (p.name == name) {
      p.values = values;
      return;
    }
  params.push_back({name, values, "given on the command line"});
}

TuningSpace tuning_space(Algo a) {
  TuningSpace s;
  s.algo = a;
  switch (a) {
    case Algo::squaring:
      // The paper's banded NDRange: each work-group is WG x WG work-items and
      // stages one WG x WG checkerboard square of A and of B in local memory.
      s.params.push_back({"WG", {4, 8, 16, 32}, "work-group edge T (T x T work-items)"});
      s.constraints.push_back(work_group_square("WG"));
      s.constraints.push_back(local_tiles("WG", 2));
      break;
    case Algo::fw:
      // Blocked FW (kernels/fw_blocked.cl): work-groups of BLOCK x (BLOCK / WPT)
      // items, each computing WPT rows of a column; phases 2 and 3 stage two
      // BLOCK x BLOCK tiles in local memory.
      s.params.push_back({"BLOCK", {8, 16, 32, 64}, "tile edge of blocked Floyd-Warshall"});
      s.params.push_back({"WPT", {1, 2, 4, 8}, "rows of a tile each work-item computes"});
      s.constraints.push_back(
          {"WPT divides BLOCK", [](const Tunables& t, const DeviceLimits&, int) {
             const int b = get(t, "BLOCK"), w = get(t, "WPT");
             return w > 0 && b % w == 0 ? std::string()
                                        : std::to_string(b) + " % " + std::to_string(w) + " != 0";
           }});
      s.constraints.push_back({"BLOCK*BLOCK/WPT <= max work-group size",
                               [](const Tunables& t, const DeviceLimits& l, int) {
                                 const uint64_t b = static_cast<uint64_t>(get(t, "BLOCK"));
                                 const uint64_t w =
                                     static_cast<uint64_t>(std::max(get(t, "WPT"), 1));
                                 return at_most(b * (b / w), l.max_work_group);
                               }});
      s.constraints.push_back(local_tiles("BLOCK", 2));
      break;
    case Algo::fw_naive:
      // One launch per k; work-groups of WG x WG items, no local memory.
      s.params.push_back({"WG", {4, 8, 16, 32}, "work-group edge of the naive kernel"});
      s.constraints.push_back(work_group_square("WG"));
      break;
    case Algo::sssp:
      // The multi-source engine (kernels/sssp.cl): a work-group of WG items per
      // source, near-far buckets DELTA % of the mean weight wide.
      s.params.push_back({"WG", {64, 256, 512, 1024}, "work-items per source's work-group"});
      s.params.push_back({"DELTA", {0, 50, 200, 800}, "near-far bucket width, % of the mean weight (0: from the degree)"});
      s.params.push_back({"VW", {0, 4, 32}, "work-items per queued vertex (0: from the degree)"});
      s.constraints.push_back({"WG <= max work-group size",
                               [](const Tunables& t, const DeviceLimits& l, int) {
                                 return at_most(static_cast<uint64_t>(get(t, "WG")),
                                                l.max_work_group);
                               }});
      break;
    case Algo::automatic:
      break;
  }
  return s;
}

std::optional<TuningSpace> tiled_tuning_space(Algo a) {
  if (a == Algo::fw_naive || a == Algo::sssp || a == Algo::automatic) return std::nullopt;
  TuningSpace s;
  s.algo = a;
  s.family = "tiled";
  s.params.push_back({"TILED", {1}, "register-tiled kernels (kernels/minplus_tiled.cl)"});
  s.params.push_back({"BLOCK", {64, 128}, "tile edge of a work-group"});
  s.params.push_back({"TM", {4, 8}, "rows each work-item updates"});
  s.params.push_back({"TN", {4, 8}, "columns each work-item updates"});
  s.params.push_back({"KC", {8, 16, 32, 64}, "k values staged in local memory per step"});
  if (a == Algo::fw)  // one level, or NVIDIA's best outer block (docs/performance/dense.md "Two-level fw")
    s.params.push_back({"OUTER", {1, 8}, "tiles per outer block of the two-level order"});
  // One staging buffer, or the ring of two (cp.async on NVIDIA sm_80+).
  s.params.push_back({"STAGES", {1, 2}, "staging buffers of the k panels"});
  s.constraints.push_back({"KC divides BLOCK", [](const Tunables& t, const DeviceLimits&, int) {
                             const int b = get(t, "BLOCK"), k = get(t, "KC");
                             return k > 0 && b % k == 0 ? std::string()
                                                        : std::to_string(b) + " % " +
                                                              std::to_string(k) + " != 0";
                           }});
  s.constraints.push_back(
      {"(BLOCK/TM)*(BLOCK/TN) <= max work-group size",
       [](const Tunables& t, const DeviceLimits& l, int) {
         const uint64_t b = static_cast<uint64_t>(get(t, "BLOCK"));
         const uint64_t tm = static_cast<uint64_t>(std::max(get(t, "TM"), 1));
         const uint64_t tn = static_cast<uint64_t>(std::max(get(t, "TN"), 1));
         return at_most((b / tm) * (b / tn), l.max_work_group);
       }});
  // The staged panels, as the solvers count them (detail::staged_panel_bytes).
  s.constraints.push_back(
      {"(STAGES > 1 ? STAGES*KC*2*BLOCK : KC*(2*BLOCK+4))*sizeof(T) <= local memory",
       [](const Tunables& t, const DeviceLimits& l, int bytes) {
         return at_most(detail::staged_panel_bytes(get(t, "BLOCK"), get(t, "KC"),
                                                   get(t, "STAGES"), static_cast<size_t>(bytes)),
                        l.local_mem);
       }});
  return s;
}

std::optional<TuningSpace> cpu_tuning_space(Algo a) {
  if (a != Algo::fw) return std::nullopt;
  TuningSpace s;
  s.algo = a;
  s.family = "cpu";
  s.params.push_back({"TILED", {2}, "CPU-shaped kernels (kernels/fw_cpu.cl)"});
  s.params.push_back({"BLOCK", {32, 64, 128}, "tile edge, one work-item per tile"});
  s.constraints.push_back(
      {"BLOCK in 32, 64, 128 (TILED=2)", [](const Tunables& t, const DeviceLimits&, int) {
         const int b = get(t, "BLOCK");
         return b == 32 || b == 64 || b == 128 ? std::string() : std::to_string(b);
       }});
  s.constraints.push_back({"(BLOCK<=64 ? 2 : 1)*BLOCK*BLOCK*sizeof(T) <= local memory",
                           [](const Tunables& t, const DeviceLimits& l, int bytes) {
                             const uint64_t b = static_cast<uint64_t>(get(t, "BLOCK"));
                             const uint64_t tiles = b <= 64 ? 2 : 1;
                             return at_most(tiles * b * b * static_cast<uint64_t>(bytes),
                                            l.local_mem);
                           }});
  return s;
}

std::vector<TuningSpace> tuning_spaces(Algo a) {
  std::vector<TuningSpace> out{tuning_space(a)};
  if (auto t = tiled_tuning_space(a)) out.push_back(*t);
  if (auto c = cpu_tuning_space(a)) out.push_back(*c);
  return out;
}

std::vector<TuningSpace> select_tuning_spaces(const std::vector<Algo>& algos, bool algos_given,
                                              const std::vector<std::string>& families,
                                              bool families_given,
                                              const std::vector<GivenTunable>& given) {
  std::vector<TuningSpace> all;  // the families asked for, each algorithm once
  std::vector<Algo> seen;
  for (Algo a : algos) {
    if (std::find(seen.begin(), seen.end(), a) != seen.end()) continue;
    seen.push_back(a);
    for (auto& sp : tuning_spaces(a))
      if (std::find(families.begin(), families.end(), sp.family) != families.end())
        all.push_back(std::move(sp));
  }
  if (all.empty()) throw UsageError("--algos and --families select no kernel family to sweep");
  // The given tunables that some family knows narrow the selection; --wg and
  // --block that none knows are a mistake (a --param may name a further macro).
  std::vector<const GivenTunable*> narrowing;
  for (const auto& g : given) {
    const bool known = std::any_of(all.begin(), all.end(), [&](const TuningSpace& s) {
      return (!g.only || s.algo == *g.only) && s.find(g.name);
    });
    if (!known && g.flag.rfind("--param", 0) != 0) {
      std::string names;
      for (Algo a : seen) names += (names.empty() ? "" : ", ") + std::string(to_string(a));
      throw UsageError("no kernel family of " + names + " takes " + g.flag + " (" + g.name +
                       "); drop it, or add an algorithm that takes it to --algos");
    }
    if (known && !families_given) narrowing.push_back(&g);
  }
  if (narrowing.empty()) return all;
  std::string flags;
  for (const auto* g : narrowing)
    if (flags.find(g->flag) == std::string::npos) flags += (flags.empty() ? "" : ", ") + g->flag;
  std::vector<TuningSpace> out;
  for (Algo a : seen) {
    size_t kept = 0;
    for (auto& sp : all)
      if (sp.algo == a &&
          std::any_of(narrowing.begin(), narrowing.end(), [&](const GivenTunable* g) {
            return (!g->only || *g->only == a) && sp.find(g->name);
          })) {
        out.push_back(sp);
        ++kept;
      }
    if (kept == 0 && algos_given)
      throw UsageError("no kernel family of " + std::string(to_string(a)) + " takes " + flags +
                       "; drop " + to_string(a) +
                       " from --algos, or name the families with --families to sweep them anyway");
  }
  if (out.empty()) throw UsageError("none of the algorithms and families swept takes " + flags);
  return out;
}

std::vector<int> parse_int_list(const std::string& s, const std::string& what) {
  std::vector<int> out;
  for (const auto& part : split(s, ',')) {
    const std::string p = trim(part);
    size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(p, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (p.empty() || used != p.size())
      throw UsageError(what + " expects a comma-separated list of integers, got '" + s + "'");
    out.push_back(v);
  }
  return out;
}

}  // namespace ocl_sp
