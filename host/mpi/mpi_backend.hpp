// The primitives of one rank's panels (see mpi_fw.hpp): the RankBackend interface
// the broadcast rounds (mpi_rounds.hpp) drive, and its two implementations:
// OpenMP on the host (mpi_backend_cpu.cpp) and the rank's OpenCL device with the
// panel engine's primitives, panels resident (mpi_backend_cl.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cl/device.hpp"
#include "mpi/mpi_layout.hpp"
#include "solvers/panel_engine.hpp"

namespace ocl_sp::mpi {

template <typename T>
class RankBackend {
 public:
  virtual ~RankBackend() = default;
  virtual std::string describe() const = 0;
  // The local matrix (host, padded) is the input: take it.
  virtual void load() = 0;
  // Owner of (r, r): close it; `out` (P x P) holds it once pivot_ready().
  virtual void close_pivot(int64_t r, T* out) = 0;
  virtual bool pivot_ready() = 0;
  // Ranks in the pivot's process row or column (not the owner): the received pivot.
  virtual void set_pivot(int64_t r, const T* piv) = 0;
  // Step 2 of round r with the pivot `piv` (host): this rank's row panels of row r
  // (it is in process row r mod pr) into row_out, its column panels of column r
  // into col_out. Both are block-major: block k (P x P, row-major) at k P^2, row
  // panel k the local column k, column panel k the local row k. Block k holds its
  // result once block_ready(row, k); blocks become ready in order.
  virtual void phase2(int64_t r, const T* piv, T* row_out, T* col_out) = 0;
  virtual bool block_ready(bool row, int64_t k) {
    (void)row, (void)k;
    return true;
  }
  // Host memory of `values` values for the rounds' broadcasts (pivot, row and
  // column panels of each round parity), valid as long as the backend: pinned for
  // DMA where the backend moves panels to a device, else nullptr (the caller's
  // own memory).
  virtual T* host_buffer(size_t values) {
    (void)values;
    return nullptr;
  }
  // Block k of round r's received row panels (row) or column panels is in host
  // memory at `data` (P x P): start moving it to the device (the set of round
  // parity r mod 2) now. Called once per round, kind and block, in block order.
  virtual void receive_block(int64_t r, bool row, int64_t k, const T* data) {
    (void)r, (void)row, (void)k, (void)data;
  }
  // Round r's row and column panels (block-major, as phase2 writes them) in host
  // memory: received, or (this rank's own) written by phase2. Round r's update()
  // calls follow; update(r, li, lj, count) comes only after the column block li
  // and the row blocks [lj, lj + count) it reads were received (receive_block),
  // not the rest.
  virtual void set_panels(int64_t r, const T* row, const T* col) = 0;
  // Round r's host buffers (pivot, received panels) may be overwritten once this
  // returns: what the device still read from them is done.
  virtual void release(int64_t r) { (void)r; }
  // Step 3 of round r on the local panels (li, lj) .. (li, lj + count - 1): one
  // launch where the backend can.
  virtual void update(int64_t r, int64_t li, int64_t lj, int64_t count) = 0;
  // update() calls enqueued and not yet run (asynchronous backends: the caller
  // keeps this small so the next round's step 2 never waits behind a whole round).
  virtual int backlog() { return 0; }
  // Everything enqueued has run.
  virtual bool idle() = 0;
  // The local matrix holds the final values.
  virtual void store() = 0;
  virtual double kernel_seconds() { return 0; }
  // Device seconds of the received panels' uploads, of the pivot / step-2
  // read-backs; host seconds spent pinning the broadcast buffers (beside the
  // set-up) and waiting for that after the set-up; the bytes pinned for them.
  struct Moves {
    double upload = 0, readback = 0, pin = 0, pin_wait = 0, pinned = 0;  // pinned: bytes
  };
  virtual Moves moves() { return {}; }
};

// OpenMP on the host: the panels are the local matrix itself.
template <typename T>
std::unique_ptr<RankBackend<T>> make_cpu_backend(const Layout& lay, std::vector<T>& local);
// The rank's OpenCL device (dev: the panel engine's primitives on it): every
// panel in its own device buffer for the whole solve, the local matrix loaded
// and stored through pinned staging.
template <typename T>
std::unique_ptr<RankBackend<T>> make_cl_backend(const Layout& lay, std::vector<T>& local,
                                                std::unique_ptr<detail::PanelDevice> dev);

// The rank's OpenCL device: a list spec ("1:0,1:1") or a single word naming
// several devices ("gpu", "nvidia") gives this rank the (node-local rank mod
// count)-th match, so ranks of a node spread over its GPUs.
DeviceEntry rank_device(const std::string& spec, int local_rank);
// The multi-source engine's devices of this rank, as a device spec ("P:D,P:D"):
// the devices rank_device chooses from, dealt among the node's local_size ranks
// (device i to local rank i mod local_size); fewer devices than ranks: one each,
// as rank_device.
std::string rank_devices(const std::string& spec, int local_rank, int local_size);

}  // namespace ocl_sp::mpi
