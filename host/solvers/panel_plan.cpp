// The panel engine's plan (panel_engine.hpp): placement, panel edge and device
// buffers from n, the value size and the devices' memory, before any graph exists.
#include <algorithm>
#include <sstream>
#include <string>

#include "solvers/panel_engine.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp::detail {

const char* to_string(Placement p) {
  switch (p) {
    case Placement::single_buffer: return "single buffer";
    case Placement::resident: return "resident panels";
    case Placement::out_of_core: return "out of core";
  }
  return "?";
}

namespace {

// Device buffers of the resident placement, in panels: the owned rows, plus with
// several devices two sets (by round parity: one uploaded while the other is
// read) of the pivot and row panels received from others, plus one copy.
int64_t resident_panels(int64_t q, int devices) {
  const int64_t rows = (q + devices - 1) / devices;
  return rows * q + (devices > 1 ? 2 * q : 0) + 1;
}
// Out of core: pivot, copy, q - 1 row panels, two column slots, streaming slots.
int64_t ooc_panels(int64_t q) { return q + 3 + kStreamSlots; }

}  // namespace

int64_t grid_resident_panels(int64_t q, const PanelGrid& g) {
  const int64_t rows = (q + g.rows - 1) / g.rows, cols = (q + g.cols - 1) / g.cols;
  return rows * cols + (g.rows > 1 ? 2 * cols : 0) + (g.cols > 1 ? 2 * rows : 0) +
         (g.rows * g.cols > 1 ? 1 : 0) + 1;
}

std::vector<DeviceBudget> device_budgets(const std::vector<DeviceEntry>& devices, uint64_t cap) {
  std::vector<DeviceBudget> out;
  for (const DeviceEntry& e : devices) {
    DeviceBudget b;
    b.name = e.name;
    b.memory = cap ? std::min<uint64_t>(cap, e.global_mem) : e.global_mem;
    b.max_alloc = std::min<uint64_t>(e.max_alloc, b.memory);
    b.host_backed = e.type == "cpu";  // PoCL: buffers are host memory
    out.push_back(b);
  }
  return out;
}

std::string PanelPlan::describe() const {
  std::ostringstream os;
  os << to_string(placement);
  if (placement != Placement::single_buffer)
    os << ", P = " << p << " (" << q << " x " << q << " panels"
       << (placement == Placement::out_of_core ? ", " + std::to_string(slots) + " streaming slots"
                                               : std::string())
       << (placement == Placement::out_of_core || devices > 1 ? ", pinned staging" : "")
       << ")";
  if (devices > 1) os << " on " << devices << " devices";
  return os.str();
}

PanelPlan plan_panels(int64_t n, size_t vs, const std::vector<DeviceBudget>& devs, int64_t panel,
                      int multiple, int64_t single_multiple, int single_buffers,
                      uint64_t host_spare, const PanelGrid& grid) {
  if (devs.empty()) throw RuntimeError("no device for the panel engine");
  const bool on_grid = grid.rows > 0;
  if (on_grid && (grid.cols < 1 || devs.size() != 1))
    throw RuntimeError("panel plan of a process grid: one device budget per rank");
  PanelPlan plan;
  plan.n = n;
  plan.devices = static_cast<int>(devs.size());
  const int d = plan.devices;
  uint64_t memory = devs[0].memory, max_alloc = devs[0].max_alloc;
  bool host_backed = false;
  for (const auto& x : devs) {
    memory = std::min(memory, x.memory);
    max_alloc = std::min(max_alloc, x.max_alloc);
    host_backed |= x.host_backed;
  }
  const auto bytes = [&](int64_t p) { return static_cast<uint64_t>(p) * p * vs; };
  if (d == 1 && panel == 0 && !on_grid) {
    const int64_t ld = round_up(std::max<int64_t>(n, 1), single_multiple);
    const uint64_t one = bytes(ld);
    if (one <= max_alloc && one * single_buffers <= memory) {
      plan.placement = Placement::single_buffer;
      plan.p = ld;
      plan.device_bytes = one * single_buffers;
      plan.host_bytes = host_backed ? plan.device_bytes : 0;
      return plan;
    }
  }
  const uint64_t matrix = static_cast<uint64_t>(n) * n * vs;
  const auto finish = [&](Placement pl, int64_t q, int64_t p) {
    plan.placement = pl;
    plan.q = q;
    plan.p = p;
    plan.slots = pl == Placement::out_of_core ? kStreamSlots : 0;
    plan.device_bytes =
        bytes(p) * static_cast<uint64_t>(on_grid                    ? grid_resident_panels(q, grid)
                                         : pl == Placement::resident ? resident_panels(q, d)
                                                                     : ooc_panels(q));
    plan.max_rows.clear();
    for (const auto& x : devs) {
      int64_t rows = q;
      if (pl == Placement::resident) {
        const int64_t fit = static_cast<int64_t>(x.memory / bytes(p)) - (d > 1 ? 2 * q : 0) - 1;
        rows = std::max<int64_t>((q + d - 1) / d, std::min<int64_t>(q, fit / q));
      }
      plan.max_rows.push_back(rows);
    }
    if (on_grid) {  // the ranks' host buffers are the driver's to count
      plan.host_bytes = host_backed ? plan.device_bytes : 0;
      if (plan.host_bytes > host_spare)
        throw RuntimeError("n = " + std::to_string(n) + ": " + plan.describe() + " needs " +
                           format_bytes(static_cast<double>(plan.host_bytes)) +
                           " of host memory per rank for the device's panels but only " +
                           format_bytes(static_cast<double>(host_spare)) +
                           " are free; use more ranks or --host-memory SIZE if the limit is wrong");
      return plan;
    }
    const uint64_t staging = std::min<uint64_t>(bytes(p), stage_bytes(kStageBytes)) * kStagingBuffers *
                             static_cast<uint64_t>(d);
    const uint64_t device_host = host_backed ? plan.device_bytes * static_cast<uint64_t>(d) : 0;
    // Every placement moves panels through pinned staging chunks. (A pinned copy
    // of the whole matrix lost to staging: pinning at ~1.4 GB/s on NVIDIA cost
    // more than the copies it saved; docs/performance/scale.md, n = 40 000 at 1/4 of the
    // matrix on the H200: 9.7 s against 6.9 s.)
    plan.host_bytes = staging + device_host;
    if (plan.host_bytes > host_spare)
      throw RuntimeError("n = " + std::to_string(n) + ": " + plan.describe() + " needs " +
                         format_bytes(static_cast<double>(plan.host_bytes)) +
                         " of host memory beside the matrix but only " +
                         format_bytes(static_cast<double>(host_spare)) +
                         " are free; try --host-memory SIZE if the limit is wrong, or "
                         "--type float32 is no smaller: reduce n");
    return plan;
  };
  const auto fits = [&](Placement pl, int64_t q, int64_t p) {
    if (bytes(p) > max_alloc) return false;
    const int64_t panels = on_grid                    ? grid_resident_panels(q, grid)
                           : pl == Placement::resident ? resident_panels(q, d)
                                                       : ooc_panels(q);
    return bytes(p) * static_cast<uint64_t>(panels) <= memory;
  };
  if (on_grid) {
    // Resident only: a rank's panels never stream (add ranks instead). Panels per
    // rank and dimension: 8 where panels stay >= kGridPanelEdge, at least 4. Each
    // round's row and column panels are made by the ranks of the pivot's process
    // row and column only (2 (q/most - 1) GEMMs beside the pivot's owner's q^2/R):
    // with 4 a dimension that is half a round more on one rank, every round. 4 x
    // H100, 2 x 2 ranks, n = 100 000: P = 12 544 (4 a dimension) solved in 28.7 s,
    // P = 6272 (8) in 20.6 s, P = 4096 (12.5) in 23.0 s; n = 40 000: P = 5120 2.94 s,
    // 2560 2.83 s, 2048 3.30 s (docs/performance/mpi.md, "Panels per rank").
    const int64_t most = std::max(grid.rows, grid.cols);
    const int64_t q0 = grid.rows * grid.cols > 1
                           ? std::clamp<int64_t>((n + kGridPanelEdge - 1) / kGridPanelEdge, 4 * most, 8 * most)
                           : 1;
    const int64_t qmax = std::max<int64_t>(q0, (n + multiple - 1) / multiple);
    const auto refuse = [&](int64_t p, const std::string& what) {
      const int64_t q = (n + p - 1) / p;
      return RuntimeError(
          "n = " + std::to_string(n) + " on a " + std::to_string(grid.rows) + " x " +
          std::to_string(grid.cols) + " process grid: " + what + " " +
          std::to_string(grid_resident_panels(q, grid)) + " panels of P = " + std::to_string(p) +
          " (" + format_bytes(static_cast<double>(bytes(p) * grid_resident_panels(q, grid))) +
          ") per rank do not fit " + format_bytes(static_cast<double>(memory)) + " of device memory" +
          (bytes(p) > max_alloc ? " (one panel exceeds the " + format_bytes(static_cast<double>(max_alloc)) +
                                      " a single allocation may take)"
                                : std::string()) +
          "; use more ranks or a smaller --panel");
    };
    if (panel > 0) {
      const int64_t p = round_up(panel, multiple);
      if (!fits(Placement::resident, (n + p - 1) / p, p)) throw refuse(p, "--panel gives");
      return finish(Placement::resident, (n + p - 1) / p, p);
    }
    for (int64_t q = q0; q <= std::max<int64_t>(q0, std::min<int64_t>(qmax, 1024)); ++q) {
      const int64_t p = round_up((n + q - 1) / q, multiple);
      if (fits(Placement::resident, (n + p - 1) / p, p))
        return finish(Placement::resident, (n + p - 1) / p, p);
    }
    throw refuse(round_up((n + qmax - 1) / qmax, multiple), "even the smallest panels give");
  }
  if (panel > 0) {
    const int64_t p = round_up(panel, multiple);
    const int64_t q = (n + p - 1) / p;
    if (fits(Placement::resident, q, p)) return finish(Placement::resident, q, p);
    if (q >= 2 && fits(Placement::out_of_core, q, p)) return finish(Placement::out_of_core, q, p);
    throw RuntimeError("n = " + std::to_string(n) + " with --panel " + std::to_string(p) + ": " +
                       std::to_string(q) + " x " + std::to_string(q) + " panels of " +
                       format_bytes(static_cast<double>(bytes(p))) + " fit neither resident (" +
                       format_bytes(static_cast<double>(bytes(p) * resident_panels(q, d))) +
                       ") nor out of core (" +
                       format_bytes(static_cast<double>(bytes(p) * ooc_panels(q))) + ") in " +
                       format_bytes(static_cast<double>(memory)) + " of device memory" +
                       (bytes(p) > max_alloc ? " (and one panel exceeds the " +
                                                   format_bytes(static_cast<double>(max_alloc)) +
                                                   " a single allocation may take)"
                                             : std::string()) +
                       "; try a smaller --panel");
  }
  // Several devices: at least 4 panel rows per device, so the owner of the pivot
  // row (which also updates the row panels) is not the others' bottleneck.
  const int64_t q0 = d > 1 ? 4 * d : 1;
  const int64_t qmax = std::max<int64_t>(q0, (n + multiple - 1) / multiple);
  for (int64_t q = q0; q <= std::min<int64_t>(qmax, 256); ++q) {
    const int64_t p = round_up((n + q - 1) / q, multiple);
    if (fits(Placement::resident, q, p)) return finish(Placement::resident, (n + p - 1) / p, p);
  }
  for (int64_t q = std::max<int64_t>(2, q0); q <= std::min<int64_t>(qmax, 256); ++q) {
    const int64_t p = round_up((n + q - 1) / q, multiple);
    const int64_t qq = (n + p - 1) / p;
    if (qq >= 2 && fits(Placement::out_of_core, qq, p)) return finish(Placement::out_of_core, qq, p);
  }
  throw RuntimeError("n = " + std::to_string(n) + " (" + format_bytes(static_cast<double>(matrix)) +
                     ") cannot run even out of core: " + format_bytes(static_cast<double>(memory)) +
                     " of device memory leaves no room for the panels it streams; give more "
                     "--device-memory or more devices");
}

}  // namespace ocl_sp::detail
