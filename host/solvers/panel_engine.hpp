// The panel engine (DESIGN.md "Scale"): two-level blocked Floyd-Warshall whose
// outer level moves P x P panels and whose inner level is the existing kernels,
// through two primitives per device: close a panel (in-core blocked FW) and
// C = min(C, A (x) B). Everything else is placement: where the panels live
// (resident in device buffers, or in host memory streamed through the device) and
// which device owns which panel rows. plan_panels() decides it from n, the value
// size and the devices' memory before any graph exists; run_fw_panels() executes it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cl/cl.hpp"
#include "cl/device.hpp"
#include "graph/matrix.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp::detail {

// One device's primitives. Both enqueue on the core's compute queue (in order)
// and return the event of their last launch.
class PanelDevice {
 public:
  virtual ~PanelDevice() = default;
  virtual OpenClCore& core() = 0;
  // Closes the P x P panel in buf: blocked FW over its `real` leading vertices
  // (the rest is padding, isolated vertices).
  virtual cl::Event close_panel(cl::Buffer& buf, int64_t p, int64_t real) = 0;
  // c = min(c, a (x) b) for P x P panels; rows: the real rows of c. cols > 0: the
  // real columns of c, and only the output tiles over rows x cols are computed
  // (FW's padding, isolated vertices, never changes); 0: every tile.
  virtual cl::Event gemm_acc(cl::Buffer& c, cl::Buffer& a, cl::Buffer& b, int64_t p,
                             int64_t rows, int64_t cols = 0) = 0;
  // The same over panels [first, first + count) of c and b, each holding P x P
  // panels one after another (P^2 values apart): panel k of c = min(c_k, a (x) b_k),
  // every column, in one launch.
  virtual cl::Event gemm_acc_panels(cl::Buffer& c, cl::Buffer& a, cl::Buffer& b, int64_t p, int64_t rows,
                                    int64_t first, int64_t count) = 0;
  // Panel edges must be multiples of this (the kernels' tile edges).
  virtual int panel_multiple() const = 0;
  // The GEMMs to come multiply panels of edge p: a device may pick their shape
  // for it (before the first gemm_acc of a solve; the results are the same).
  virtual void prepare_gemm(int64_t p) { (void)p; }
};

enum class Placement { single_buffer, resident, out_of_core };
const char* to_string(Placement p);

// What one device offers: memory (capped by --device-memory), one allocation's
// limit, and whether its buffers are host memory (CPU devices: PoCL).
struct DeviceBudget {
  std::string name;
  uint64_t memory = 0, max_alloc = 0;
  bool host_backed = false;
};

// The budgets of chosen devices, memory capped at `cap` bytes each (0: no cap).
std::vector<DeviceBudget> device_budgets(const std::vector<DeviceEntry>& devices, uint64_t cap);

struct PanelPlan {
  Placement placement = Placement::single_buffer;
  int64_t n = 0, p = 0, q = 1;  // panel edge and panels per dimension (q = 1: one panel)
  int devices = 1;
  int slots = 0;                        // out of core: streaming slots per device
  // Most panel rows each device can own (resident: what its memory holds; out of
  // core: any); the engine shares rows in proportion to device speed within these.
  std::vector<int64_t> max_rows;
  uint64_t device_bytes = 0;            // the most any one device needs
  uint64_t host_bytes = 0;              // pinned staging (and device buffers of CPU devices)
  std::string describe() const;         // "resident panels, P = 12544 (8 x 8)"
};

// Streaming slots per device when out of core (triple buffering: one panel
// uploading, one in the kernel, one downloading).
constexpr int kStreamSlots = 3;
// Pinned host staging buffers per device, of at most kStageBytes each: panels
// move between the matrix and the device in chunks of whole rows.
constexpr int kStagingBuffers = 4;
constexpr size_t kStageBytes = size_t{256} << 20;

// A process grid of rows x cols ranks (the MPI driver, host/mpi/): panel (i, j)
// belongs to rank (i mod rows, j mod cols), which keeps its panels resident on its
// one device and receives the round's row panels (ceil(q / cols)), column panels
// (ceil(q / rows)) and pivot. rows = 0: no grid (the devices of one process).
struct PanelGrid {
  int rows = 0, cols = 0;
};

// Device buffers one rank of the grid holds, in panels: its ceil(q/rows) x
// ceil(q/cols) panels, two sets (by round parity: one uploaded while the other is
// read) of the received row and column panels, the received pivot (where the grid
// has several rows / columns) and one copy.
int64_t grid_resident_panels(int64_t q, const PanelGrid& grid);

// The placement for n vertices: the single buffer when one device is asked for,
// no --panel forces panels and the padded matrix (edge round_up(n, single_multiple))
// fits one allocation and the memory; else resident panels where they fit, else out
// of core; RuntimeError naming the numbers and what to try when nothing fits.
// panel: --panel (0 = choose); multiple: panel edges are multiples of it;
// host_spare: host bytes free beyond the matrix itself (for the pinned staging).
// grid (rows > 0): the plan of one rank of that process grid, devices = the one
// budget every rank meets (the weakest): resident panels only (no single buffer,
// no out of core), 8 panel rows and columns per rank where panels stay at least
// kGridPanelEdge, at least 4 where n allows.
constexpr int64_t kGridPanelEdge = 2560;
PanelPlan plan_panels(int64_t n, size_t value_size, const std::vector<DeviceBudget>& devices,
                      int64_t panel, int multiple, int64_t single_multiple, int single_buffers,
                      uint64_t host_spare, const PanelGrid& grid = {});

// Rows [a0, a1) of panel (pi, pj) (edge p) of the n x n matrix d into dst, a
// (a1 - a0) x p block: the real part copied, the padding isolated vertices (0 on
// the global diagonal, INF elsewhere).
template <typename T>
void pack_panel(T* dst, const DistMatrix<T>& d, int64_t p, int64_t pi, int64_t pj, int64_t a0,
                int64_t a1);
// The real part of such a block back into d. compare: report whether any value
// changed (squaring's fixed point); without it the result is false.
template <typename T>
bool unpack_panel(const T* src, DistMatrix<T>& d, int64_t p, int64_t pi, int64_t pj, int64_t a0,
                  int64_t a1, bool compare = false);

// The panel stager of a device for panels of edge p: kStagingBuffers pinned
// chunks of whole panel rows, stage_bytes(kStageBytes) at most (one row at least,
// the panel at most); kept by the core across solves.
Stager& panel_stager(OpenClCore& core, int64_t p, size_t value_size);
// Panel (pi, pj) of d, packed (pack_panel), into the P x P buffer dst through the
// stager on queue q after `wait`; returns the event of its last chunk.
template <typename T>
cl::Event upload_panel(Stager& st, OpenClCore::QueueId q, cl::Buffer& dst, const DistMatrix<T>& d,
                       int64_t p, int64_t pi, int64_t pj, const std::vector<cl::Event>& wait);
// The P x P buffer src back into panel (pi, pj) of d (unpack_panel) on queue q
// after `wait`; the values arrive when the stager settles the chunks. changed: when
// given, set to true if any value changed (never reset).
template <typename T>
cl::Event download_panel(Stager& st, OpenClCore::QueueId q, cl::Buffer& src, DistMatrix<T>& d,
                         int64_t p, int64_t pi, int64_t pj, const std::vector<cl::Event>& wait,
                         bool* changed = nullptr);

// Relative speeds of the devices (panel_share.cpp): OCL_SP_DEVICE_WEIGHTS
// ("1,3"), else equal for devices of one kind (same name up to a sub-device
// suffix, same compute units), else a probe ("probe" forces it): one (min,+) GEMM
// of S x S panels per device, S = min(p, 1024), timed by its profiling event
// after a warm-up launch.
template <typename T>
std::vector<double> panel_device_weights(const std::vector<PanelDevice*>& devices, int64_t p);
// The owner of each of q panel rows: in proportion to the weights, interleaved
// (smooth weighted round robin: equal weights give row i to device i mod D), never
// more rows than max_rows[k] to device k (the plan's; missing entries: no cap).
std::vector<int> share_panel_rows(const std::vector<double>& weights, const std::vector<int64_t>& max_rows,
                                  int64_t q);

// Runs blocked FW over the panel plan on the given devices (one host thread
// each), replacing d by the distances. NegativeCycleError as the other solvers;
// CancelledError when a stop was requested. Fills the placement fields of st and
// adds the devices' T_h / T_k. before_store, when given, runs once before the
// first panel is downloaded into d (until then d holds the input, only read).
template <typename T>
void run_fw_panels(const PanelPlan& plan, const std::vector<PanelDevice*>& devices,
                   DistMatrix<T>& d, bool progress, RunStats& st,
                   const std::function<void()>& before_store = {});

}  // namespace ocl_sp::detail
