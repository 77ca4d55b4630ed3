// The broadcast rounds of the distributed blocked Floyd-Warshall (see mpi_fw.hpp):
// round r's pivot closed by its owner and broadcast along its process row and
// column, the row / column panels updated and broadcast down the process columns /
// along the process rows (MPI_Ibcast on the grid's communicators), every rank's
// GEMM-accumulates, and the look-ahead that overlaps round r + 1's steps 1-2 with
// round r's GEMMs. The backend (mpi_backend.hpp) does the arithmetic.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "mpi/mpi_backend.hpp"
#include "mpi/mpi_layout.hpp"
#include "util/cancel.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

struct RoundTimes {
  double compute = 0, wait = 0, solve = 0;
  std::vector<double> round_compute, round_wait;  // per round
};

// The process grid's communicators: this rank's process row (ranks (prow, *),
// rank in it = pcol) and process column (ranks (*, pcol), rank in it = prow).
struct GridComms {
  MPI_Comm row = MPI_COMM_NULL, col = MPI_COMM_NULL;
  explicit GridComms(const Layout& lay) {
    MPI_Comm_split(MPI_COMM_WORLD, lay.prow, lay.pcol, &row);
    MPI_Comm_split(MPI_COMM_WORLD, lay.pcol, lay.prow, &col);
  }
  ~GridComms() {
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
  }
  GridComms(const GridComms&) = delete;
  GridComms& operator=(const GridComms&) = delete;
};

template <typename T>
class DistributedFw {
 public:
  DistributedFw(const Layout& lay, RankBackend<T>& be, const GridComms& comms)
      : lay_(lay), be_(be), c_(comms) {
    take_set(0);  // set 1 when round 1 starts: its buffers may still be pinning
  }

  RoundTimes run() {
    RoundTimes t;
    Stopwatch all;
    const int64_t q = lay_.q;
    t.round_compute.assign(static_cast<size_t>(q), 0.0);
    t.round_wait.assign(static_cast<size_t>(q), 0.0);
    {
      Stopwatch c;
      be_.load();
      begin(0);
      const double waited = finish_stage();
      t.compute += c.seconds() - waited;
      t.wait += waited;
    }
    for (int64_t r = 0; r < q; ++r) {
      throw_if_cancelled();
      const size_t ri = static_cast<size_t>(r);
      Stopwatch w;
      // Round r's received panels: their broadcasts done and their uploads started
      // (progress() starts each as soon as it arrives, during round r - 1).
      wait_all(st_.row_reqs);
      wait_all(st_.col_reqs);
      double waited = w.seconds();
      progress();
      be_.set_panels(r, row_[r % 2], col_[r % 2]);
      const int64_t next = r + 1;
      const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
      const int64_t skip_r = lay_.has_row(r) ? lay_.lrow(r) : -1, skip_c = lay_.has_col(r) ? lay_.lcol(r) : -1;
      int64_t next_r = -1, next_c = -1;
      if (next < q) {
        // Look-ahead: round r on row and column r + 1 first, then round r + 1 starts.
        next_r = lay_.has_row(next) ? lay_.lrow(next) : -1;
        next_c = lay_.has_col(next) ? lay_.lcol(next) : -1;
        if (next_r >= 0)
          for (const auto& [a, b] : ranges_without(nc, skip_c, -1)) be_.update(r, next_r, a, b);
        if (next_c >= 0)
          for (int64_t li = 0; li < nr; ++li)
            if (li != skip_r && li != next_r) be_.update(r, li, next_c, next_c + 1);
        begin(next);
      }
      // The rest of round r, one local panel at a time: at most two panels' GEMMs
      // queued ahead, so the next round's step 2 (enqueued once its pivot
      // arrives) waits behind two panel GEMMs, not two panel rows.
      const auto cranges = ranges_without(nc, skip_c, next_c);
      for (int64_t li = 0; li < nr; ++li) {
        if (li == skip_r || li == next_r) continue;
        for (const auto& [a, b] : cranges)
          for (int64_t lj = a; lj < b; ++lj) {
            be_.update(r, li, lj, lj + 1);
            progress();
            while (be_.backlog() > 1) {
              progress();
              nap();
            }
          }
      }
      // No drain: round r + 1's GEMMs queue behind round r's (the backlog bound
      // above keeps step 2 of round r + 2 near the front), the received panels'
      // uploads run on the copy queue beside them.
      if (next < q) waited += finish_stage();
      const double total = w.seconds();
      t.round_wait[ri] = waited;
      t.round_compute[ri] = total - waited;
      t.wait += waited;
      t.compute += total - waited;
    }
    Stopwatch c1;
    wait_all(reqs_[0]);
    wait_all(reqs_[1]);
    be_.store();
    t.compute += c1.seconds();
    t.solve = all.seconds();
    return t;
  }

  double bytes_sent() const { return bytes_; }

 private:
  static void nap() { std::this_thread::sleep_for(std::chrono::microseconds(50)); }
  // The broadcast buffers of round parity k: the backend's (pinned, so the uploads
  // and read-backs run at DMA speed) or our own.
  void take_set(int k) {
    const auto take = [&](size_t values, int i) {
      if (T* b = be_.host_buffer(values)) return b;
      own_[i].resize(values);
      return own_[i].data();
    };
    piv_[k] = take(static_cast<size_t>(lay_.p * lay_.p), 3 * k);
    row_[k] = take(static_cast<size_t>(lay_.p * lay_.mc()), 3 * k + 1);
    col_[k] = take(static_cast<size_t>(lay_.mr() * lay_.p), 3 * k + 2);
  }
  static int size_of(MPI_Comm c) {
    int s = 1;
    MPI_Comm_size(c, &s);
    return s;
  }
  static void wait_all(std::vector<MPI_Request>& r) {
    if (!r.empty()) MPI_Waitall(static_cast<int>(r.size()), r.data(), MPI_STATUSES_IGNORE);
    r.clear();
  }
  // Values per broadcast: 16 MiB, or OCL_SP_MPI_BCAST_BYTES (comparisons, tests;
  // the same on every rank, as the broadcasts' counts must match).
  static int64_t bcast_chunk() {
    int64_t bytes = int64_t{16} << 20;
    if (const char* e = std::getenv("OCL_SP_MPI_BCAST_BYTES"))
      if (const long long v = std::atoll(e); v > 0) bytes = v;
    return std::clamp<int64_t>(bytes / static_cast<int64_t>(sizeof(T)), 1, kMaxChunk);
  }
  static bool test(std::vector<MPI_Request>& r) {
    if (r.empty()) return true;
    int flag = 0;
    MPI_Testall(static_cast<int>(r.size()), r.data(), &flag, MPI_STATUSES_IGNORE);
    if (flag) r.clear();
    return flag != 0;
  }
  // count values of buf from root to the communicator, in broadcasts of
  // bcast_chunk() values each (all posted at once). One broadcast of a whole set of
  // panels crawled through shared memory without single-copy (Open MPI 4.1 vader,
  // polled every 50 us as the rounds do): 400 MB in 0.57-0.61 s (0.7 GB/s), in
  // 4-64 MB pieces 0.10-0.14 s (bench/mpi_ibcast.cpp).
  void ibcast(T* buf, int64_t count, int root, MPI_Comm comm, bool sender, std::vector<MPI_Request>& out) {
    const int size = size_of(comm);
    if (size < 2) return;
    const int64_t chunk = bcast_chunk();
    for (int64_t off = 0; off < count; off += chunk) {
      MPI_Request rq;
      MPI_Ibcast(buf + off, static_cast<int>(std::min(chunk, count - off)), mpi_type<T>(), root, comm, &rq);
      out.push_back(rq);
    }
    if (sender) bytes_ += static_cast<double>(count) * sizeof(T) * (size - 1);
  }

  // Round r's steps 1 and 2 on this rank, as far as they go now: the pivot owner
  // closes (r, r) and runs its step 2; every rank posts the receives it takes part
  // in (per communicator in the one order every rank uses: pivot, then panels).
  void begin(int64_t r) {
    st_ = Stage();
    st_.r = r;
    const int s = static_cast<int>(r % 2);
    if (!piv_[s]) take_set(s);
    // Set s was round r - 2's: its sends done and its device copies read before
    // the pivot, step 2 or the receives write into it again.
    wait_all(reqs_[s]);
    if (r >= 2) be_.release(r - 2);
    st_.in_row = lay_.has_row(r);
    st_.in_col = lay_.has_col(r);
    const int root_row = static_cast<int>(r % lay_.pr), root_col = static_cast<int>(r % lay_.pc);
    if (st_.in_row && st_.in_col) {
      be_.close_pivot(r, piv_[s]);
      be_.phase2(r, piv_[s], row_[s], col_[s]);
      st_.have_pivot = true;
      st_.phase2 = true;
    } else {
      // The pivot along the pivot's process row (rank in it: column) / column.
      if (st_.in_row) ibcast(piv_[s], lay_.p * lay_.p, root_col, c_.row, false, st_.piv_reqs);
      if (st_.in_col) ibcast(piv_[s], lay_.p * lay_.p, root_row, c_.col, false, st_.piv_reqs);
    }
    if (!st_.in_row) ibcast(row_[s], lay_.p * lay_.mc(), root_row, c_.col, false, st_.row_reqs);
    if (!st_.in_col) ibcast(col_[s], lay_.mr() * lay_.p, root_col, c_.row, false, st_.col_reqs);
    progress();
  }

  // Moves the started round on: posts the owner's pivot once it is on the host,
  // runs step 2 once the pivot arrived, posts its panels once they are on the host,
  // starts the upload of each received set of panels as soon as it arrived.
  void progress() {
    test(reqs_[0]);
    test(reqs_[1]);
    if (st_.r < 0) return;
    const int64_t r = st_.r;
    const int s = static_cast<int>(r % 2);
    if (!st_.in_row && !st_.row_in && test(st_.row_reqs)) {
      st_.row_in = true;
      be_.receive_panels(r, true, row_[s]);
    }
    if (!st_.in_col && !st_.col_in && test(st_.col_reqs)) {
      st_.col_in = true;
      be_.receive_panels(r, false, col_[s]);
    }
    const bool owner = st_.in_row && st_.in_col;
    if (owner && !st_.pivot_posted && be_.pivot_ready()) {
      ibcast(piv_[s], lay_.p * lay_.p, lay_.pcol, c_.row, true, reqs_[s]);
      ibcast(piv_[s], lay_.p * lay_.p, lay_.prow, c_.col, true, reqs_[s]);
      st_.pivot_posted = true;
    }
    if (!owner && !st_.have_pivot && (st_.in_row || st_.in_col) && test(st_.piv_reqs)) {
      st_.have_pivot = true;
      be_.set_pivot(r, piv_[s]);
      be_.phase2(r, piv_[s], row_[s], col_[s]);
      st_.phase2 = true;
    }
    if (st_.phase2 && !st_.panels_posted && (!owner || st_.pivot_posted) && be_.phase2_ready()) {
      if (st_.in_row) ibcast(row_[s], lay_.p * lay_.mc(), lay_.prow, c_.col, true, reqs_[s]);
      if (st_.in_col) ibcast(col_[s], lay_.mr() * lay_.p, lay_.pcol, c_.row, true, reqs_[s]);
      st_.panels_posted = true;
    }
  }
  bool stage_done() const { return (!st_.in_row && !st_.in_col) || st_.panels_posted; }
  // Drives the started round until this rank's part of its steps 1-2 is posted;
  // returns the seconds spent waiting for the pivot (the device idle).
  double finish_stage() {
    Stopwatch w;
    while (!stage_done()) {
      progress();
      if (!stage_done()) nap();
    }
    return w.seconds();
  }

  struct Stage {
    int64_t r = -1;
    bool in_row = false, in_col = false, have_pivot = false, pivot_posted = false, phase2 = false,
         panels_posted = false, row_in = false, col_in = false;  // *_in: received, upload started
    std::vector<MPI_Request> piv_reqs, row_reqs, col_reqs;  // the pivot's and panels' receives
  };

  const Layout& lay_;
  RankBackend<T>& be_;
  const GridComms& c_;
  T* piv_[2] = {};
  T* row_[2] = {};
  T* col_[2] = {};
  std::vector<T> own_[6];             // the buffers when the backend has none to lend
  std::vector<MPI_Request> reqs_[2];  // round r's sends (pivot, panels), by parity
  Stage st_;
  double bytes_ = 0;
};


}  // namespace ocl_sp::mpi
