// Out of core on one device with look-ahead: the panel
// engine's rounds for panels that live in host memory, scheduled so the device
// never waits for a round boundary. Round r:
//  1. the pivot D[r][r] and row panels D[r][j] are already on the device (round
//     r - 1 left them there, below; round 0 uploads them): close the pivot,
//     update the row panels, send them back to host memory on the download queue;
//  2. every other panel row i, the next round's pivot row r + 1 last: its column
//     panel D[i][r] and then each D[i][j] stream through a small pool of device
//     buffers (upload queue -> compute queue -> download queue, chained by
//     events), each download issued only after the next panel's GEMM is queued,
//     so the host never blocks on a download ahead of the next upload;
//  3. row r + 1, once updated, is not sent back: its panels are copied on the
//     device into the pivot and row buffers of round r + 1 (its column panel is
//     updated in place in the row buffer round r does not use).
// No round drains the queues: host memory is read for an upload only after the
// last download of that panel reached it (Stager tickets), device buffers are
// rewritten only after their last reader and download (events).
#pragma once
#include <cstdint>
#include <functional>

#include "graph/matrix.hpp"
#include "solvers/panel_engine.hpp"
#include "util/progress.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

// Streaming buffers of the out-of-core look-ahead beside the pivot, the copy and
// the q row buffers: a column panel plus kStreamSlots panels in flight.
constexpr int kOocPool = kStreamSlots + 1;

// Blocked FW over the q x q panels (edge p) of d out of core on one device.
// progress: rounds, panels done and the device idle time so far. wall: the
// engine's stopwatch (running). setup: set to the seconds before the first copy
// (buffers, pinned staging). before_store (may be empty): run_fw_panels' hook,
// called once before the first download can reach d.
template <typename T>
void run_ooc_lookahead(PanelDevice& dev, DistMatrix<T>& d, int64_t p, int64_t q,
                       Progress& progress, const Stopwatch& wall, double& setup,
                       const std::function<void()>& before_store);

}  // namespace ocl_sp::detail
