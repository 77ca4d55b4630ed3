// The tunable-parameter space of each OpenCL algorithm, written like a CLTune
// spec: parameters with value lists, and named constraints checked against the
// device's limits before a configuration is built. `ocl_sp sweep` walks it; a
// configuration a constraint rejects is reported as "skipped: <constraint>".
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

struct DeviceEntry;

// The device facts the constraints look at; 0 means unknown (not checked).
struct DeviceLimits {
  uint64_t max_work_group = 0;  // CL_DEVICE_MAX_WORK_GROUP_SIZE, work-items
  uint64_t local_mem = 0;       // CL_DEVICE_LOCAL_MEM_SIZE, bytes
  static DeviceLimits of(const DeviceEntry& d);
};

struct TunableParam {
  std::string name;         // kernel macro (-DNAME=value)
  std::vector<int> values;  // swept in this order
  std::string meaning;      // one line for --help and reports
};

struct Constraint {
  std::string name;  // the rule as printed: "WG*WG <= max work-group size"
  // Empty when satisfied, else the numbers that broke it ("4096 > 1024").
  // value_bytes is sizeof(T) of the solve type.
  std::function<std::string(const Tunables&, const DeviceLimits&, int value_bytes)> violated;
};

struct TuningSpace {
  Algo algo = Algo::fw;
  // Kernel family, as `sweep --families` names it: "paper" (the paper's / seeds'
  // kernels, TILED=0), "tiled" (register-tiled, TILED=1), "cpu" (CPU-shaped,
  // TILED=2, fw only).
  std::string family = "paper";
  std::vector<TunableParam> params;
  std::vector<Constraint> constraints;

  // Every combination of the value lists (cartesian product, first parameter
  // varying slowest); a space without parameters has one empty configuration.
  std::vector<Tunables> configurations() const;
  // The first constraint the configuration breaks, as "NAME (numbers)".
  std::optional<std::string> rejects(const Tunables& t, const DeviceLimits& lim,
                                     int value_bytes) const;
  // Replaces the value list of `name`, or adds the parameter when the space does
  // not have it (further kernel tunables given with `sweep --param`).
  // UsageError for an empty list or a value < 1.
  void set_values(const std::string& name, const std::vector<int>& values);
  const TunableParam* find(const std::string& name) const;
};

// The built-in space of an algorithm:
//   squaring: WG in {4, 8, 16, 32} (work-group WG x WG, two WG x WG tiles of T
//             in local memory: the paper's Table 1);
//   fw:       BLOCK in {8, 16, 32, 64} x WPT in {1, 2, 4, 8} (tile edge, rows per
//             work-item: work-groups of BLOCK x BLOCK/WPT, two tiles in local
//             memory);
//   fw-naive: WG in {4, 8, 16, 32} (work-group WG x WG).
// The value lists mirror what the OpenCL solvers accept; make_solver remains the
// judge (a value it refuses is reported as skipped with its message).
TuningSpace tuning_space(Algo a);

// The register-tiled family (kernels/minplus_tiled.cl) of fw and squaring:
// TILED=1 x BLOCK x TM x TN x KC, work-groups of (BLOCK/TN) x (BLOCK/TM) items,
// two KC-deep panels in local memory. Empty optional for algorithms without it.
std::optional<TuningSpace> tiled_tuning_space(Algo a);

// The CPU-shaped blocked FW (kernels/fw_cpu.cl): TILED=2 x BLOCK in {32, 64,
// 128}, one work-item per tile, the staged operand tiles in local memory (two up
// to BLOCK = 64, one above). Empty optional for algorithms other than fw.
std::optional<TuningSpace> cpu_tuning_space(Algo a);

// Every family `sweep` walks for an algorithm: tuning_space(a), then the tiled
// one, then the CPU-shaped one.
std::vector<TuningSpace> tuning_spaces(Algo a);

// A tunable named on the sweep command line: --wg (WG), --block (BLOCK) or
// --param [ALGO:]NAME (`only` = that algorithm).
struct GivenTunable {
  std::string name;
  std::optional<Algo> only;
  std::string flag;  // "--wg", "--block", "--param NAME", for messages
};

// The spaces `sweep` walks, in order (per algorithm: paper, tiled, cpu), before
// the value lists are applied. Each algorithm contributes its families listed in
// `families`. Unless `families_given` (sweep --families), the tunables given on
// the command line narrow that down to the families they apply to: `sweep --wg
// 4,8,16` sweeps the paper's squaring kernel (and fw-naive's, when --algos asks
// for it), not every fw family; `--block 32` every family with a BLOCK. Names
// that no family knows (a further kernel macro for --param) do not narrow. An
// algorithm left without a family is dropped, unless it was named with --algos
// (`algos_given`): then it is a UsageError naming the flags, as is a sweep left
// with nothing.
std::vector<TuningSpace> select_tuning_spaces(const std::vector<Algo>& algos, bool algos_given,
                                              const std::vector<std::string>& families,
                                              bool families_given,
                                              const std::vector<GivenTunable>& given);

// Parses "4,8,16" (UsageError naming `what` on anything else).
std::vector<int> parse_int_list(const std::string& s, const std::string& what);

}  // namespace ocl_sp
