// The broadcast rounds of the distributed blocked Floyd-Warshall (see mpi_fw.hpp):
// round r's pivot closed by its owner and broadcast along its process row and
// column, the row / column panels updated and broadcast down the process columns /
// along the process rows (MPI_Ibcast on the grid's communicators, a P x P block
// at a time, each posted when step 2 has it on the host), every rank's
// GEMM-accumulates (each once the two blocks it reads arrived), and the look-ahead
// that overlaps round r + 1's steps 1-2 with round r's GEMMs. The backend
// (mpi_backend.hpp) does the arithmetic.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
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
  // Per round r, seconds from the moment this rank began r (during round r - 1,
  // the look-ahead) until its part of r's steps 1-2 was posted (pivot, step 2 and
  // every block it sends; 0 where it sends none), and until every block of r's
  // panels it receives had arrived (0 where it receives none).
  std::vector<double> round_posted, round_arrived;
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
    posted_.assign(static_cast<size_t>(q), 0.0);
    arrived_.assign(static_cast<size_t>(q), 0.0);
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
      // Round r's received panels go to the device block by block as they arrive
      // (progress()); each GEMM below waits only for the blocks it reads (await()).
      double waited = 0;
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
          for (const auto& [a, b] : ranges_without(nc, skip_c, -1))
            for (int64_t lj = a; lj < b; ++lj) {
              waited += await(r, next_r, lj);
              be_.update(r, next_r, lj, lj + 1);
            }
        if (next_c >= 0)
          for (int64_t li = 0; li < nr; ++li)
            if (li != skip_r && li != next_r) {
              waited += await(r, li, next_c);
              be_.update(r, li, next_c, next_c + 1);
            }
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
            waited += await(r, li, lj);
            be_.update(r, li, lj, lj + 1);
            progress();
            while (be_.backlog() > 1) {
              progress();
              nap();
            }
          }
      }
      // Blocks no GEMM of this rank reads (its own column's) still arrive.
      waited += await(r, nr, nc);
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
    t.round_posted = posted_;
    t.round_arrived = arrived_;
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
  struct Stage {
    int64_t r = -1;
    bool in_row = false, in_col = false, have_pivot = false, pivot_posted = false, phase2 = false;
    int64_t row_in = 0, col_in = 0;      // blocks received, their uploads started
    int64_t row_sent = 0, col_sent = 0;  // blocks of this rank's panels posted
    std::vector<MPI_Request> piv_reqs;   // the pivot's receives
    std::vector<std::vector<MPI_Request>> row_reqs, col_reqs;  // the panels' receives, by block
    Stopwatch since;                     // from begin(r)
    bool posted = false, arrived = false;  // their seconds taken (posted_, arrived_)
  };

  // Between polls: while a broadcast of this rank is in flight, only a yield. Open
  // MPI's shared-memory transport (without single copy) moves a message's fragments
  // only when polled, so a rank that slept 50 us between polls received a panel
  // block at a fraction of the rate MPI_Waitall reaches (4 x H200, n = 40 000: rank
  // waits 1.0 -> 2.1 s when the panels' blocks were awaited that way). Otherwise
  // (the device busy, nothing in flight) 50 us of sleep. OCL_SP_MPI_POLL=sleep: sleep
  // always (comparisons).
  void nap() const {
    static const bool always_sleep = [] {
      const char* e = std::getenv("OCL_SP_MPI_POLL");
      return e && std::string(e) == "sleep";
    }();
    if (!always_sleep && in_flight()) {
      std::this_thread::yield();
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  bool in_flight() const {
    if (!reqs_[0].empty() || !reqs_[1].empty()) return true;
    for (const Stage& st : st_)
      if (st.r >= 0 && (!st.piv_reqs.empty() || st.row_in < static_cast<int64_t>(st.row_reqs.size()) ||
                        st.col_in < static_cast<int64_t>(st.col_reqs.size())))
        return true;
    return false;
  }
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
  // in (per communicator in the one order every rank uses: pivot, then the panels'
  // blocks in order). A block is its own broadcast so that each goes out as soon as
  // step 2 read it back and is uploaded as soon as it arrived.
  void begin(int64_t r) {
    const int s = static_cast<int>(r % 2);
    Stage& st = st_[s];
    st = Stage();
    st.r = r;
    if (!piv_[s]) take_set(s);
    // Set s was round r - 2's: its sends done and its device copies read before
    // the pivot, step 2 or the receives write into it again.
    wait_all(reqs_[s]);
    if (r >= 2) be_.release(r - 2);
    st.in_row = lay_.has_row(r);
    st.in_col = lay_.has_col(r);
    const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
    // Blocks to send: row panels go down the process column, column panels along
    // the process row, each only where it has other ranks.
    st.row_sent = st.in_row && lay_.pr > 1 ? 0 : nc;
    st.col_sent = st.in_col && lay_.pc > 1 ? 0 : nr;
    const int root_row = static_cast<int>(r % lay_.pr), root_col = static_cast<int>(r % lay_.pc);
    if (st.in_row && st.in_col) {
      be_.close_pivot(r, piv_[s]);
      be_.phase2(r, piv_[s], row_[s], col_[s]);
      st.have_pivot = true;
      st.phase2 = true;
    } else {
      // The pivot along the pivot's process row (rank in it: column) / column.
      if (st.in_row) ibcast(piv_[s], pp(), root_col, c_.row, false, st.piv_reqs);
      if (st.in_col) ibcast(piv_[s], pp(), root_row, c_.col, false, st.piv_reqs);
    }
    if (!st.in_row)
      for (int64_t k = 0; k < nc; ++k) {
        st.row_reqs.emplace_back();
        ibcast(row_[s] + k * pp(), pp(), root_row, c_.col, false, st.row_reqs.back());
      }
    if (!st.in_col)
      for (int64_t k = 0; k < nr; ++k) {
        st.col_reqs.emplace_back();
        ibcast(col_[s] + k * pp(), pp(), root_col, c_.row, false, st.col_reqs.back());
      }
    progress();
  }
  int64_t pp() const { return lay_.p * lay_.p; }

  // Moves the started rounds on (the one whose GEMMs run, then the next): starts
  // the upload of each received block as soon as it arrived, posts the owner's
  // pivot once it is on the host, runs step 2 once the pivot arrived, posts each
  // block of its panels once it is on the host.
  void progress() {
    test(reqs_[0]);
    test(reqs_[1]);
    const int first = st_[0].r <= st_[1].r ? 0 : 1;
    advance(st_[first]);
    advance(st_[1 - first]);
  }
  void advance(Stage& st) {
    if (st.r < 0) return;
    const int64_t r = st.r;
    const int s = static_cast<int>(r % 2);
    while (st.row_in < static_cast<int64_t>(st.row_reqs.size()) && test(st.row_reqs[static_cast<size_t>(st.row_in)])) {
      be_.receive_block(r, true, st.row_in, row_[s] + st.row_in * pp());
      ++st.row_in;
    }
    while (st.col_in < static_cast<int64_t>(st.col_reqs.size()) && test(st.col_reqs[static_cast<size_t>(st.col_in)])) {
      be_.receive_block(r, false, st.col_in, col_[s] + st.col_in * pp());
      ++st.col_in;
    }
    if (!st.arrived && st.row_in == static_cast<int64_t>(st.row_reqs.size()) &&
        st.col_in == static_cast<int64_t>(st.col_reqs.size())) {
      st.arrived = true;
      if (!st.row_reqs.empty() || !st.col_reqs.empty()) arrived_[static_cast<size_t>(r)] = st.since.seconds();
    }
    const bool owner = st.in_row && st.in_col;
    if (owner && !st.pivot_posted && be_.pivot_ready()) {
      ibcast(piv_[s], pp(), lay_.pcol, c_.row, true, reqs_[s]);
      ibcast(piv_[s], pp(), lay_.prow, c_.col, true, reqs_[s]);
      st.pivot_posted = true;
    }
    if (!owner && !st.have_pivot && (st.in_row || st.in_col) && test(st.piv_reqs)) {
      st.have_pivot = true;
      be_.set_pivot(r, piv_[s]);
      be_.phase2(r, piv_[s], row_[s], col_[s]);
      st.phase2 = true;
    }
    if (st.phase2 && (!owner || st.pivot_posted)) {
      const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
      while (st.row_sent < nc && be_.block_ready(true, st.row_sent)) {
        ibcast(row_[s] + st.row_sent * pp(), pp(), lay_.prow, c_.col, true, reqs_[s]);
        ++st.row_sent;
      }
      while (st.col_sent < nr && be_.block_ready(false, st.col_sent)) {
        ibcast(col_[s] + st.col_sent * pp(), pp(), lay_.pcol, c_.row, true, reqs_[s]);
        ++st.col_sent;
      }
      if (!st.posted && st.row_sent == nc && st.col_sent == nr) {
        st.posted = true;
        posted_[static_cast<size_t>(r)] = st.since.seconds();
      }
    }
  }
  // Waits (driving the rounds) until round r's column block li and row block lj
  // are on their way to the device, where this rank receives them (li = nr, lj = nc:
  // every block); returns the seconds waited.
  double await(int64_t r, int64_t li, int64_t lj) {
    const Stage& st = st_[r % 2];
    const auto arrived = [&] {
      return (st.in_row || st.row_in > std::min<int64_t>(lj, static_cast<int64_t>(st.row_reqs.size()) - 1)) &&
             (st.in_col || st.col_in > std::min<int64_t>(li, static_cast<int64_t>(st.col_reqs.size()) - 1));
    };
    if (arrived()) return 0;
    Stopwatch w;
    while (!arrived()) {
      progress();
      if (!arrived()) nap();
    }
    return w.seconds();
  }
  // The round begun last: this rank's part of its steps 1-2 posted (step 2
  // enqueued, every block of its panels sent).
  const Stage& latest() const { return st_[0].r > st_[1].r ? st_[0] : st_[1]; }
  bool stage_done() const {
    const Stage& st = latest();
    if (!st.in_row && !st.in_col) return true;
    const bool owner = st.in_row && st.in_col;
    return st.phase2 && (!owner || st.pivot_posted) && st.row_sent == static_cast<int64_t>(lay_.cols.size()) &&
           st.col_sent == static_cast<int64_t>(lay_.rows.size());
  }
  // Drives the rounds until the one begun last is posted; returns the seconds
  // spent waiting (the device idle).
  double finish_stage() {
    Stopwatch w;
    while (!stage_done()) {
      progress();
      if (!stage_done()) nap();
    }
    return w.seconds();
  }

  const Layout& lay_;
  RankBackend<T>& be_;
  const GridComms& c_;
  T* piv_[2] = {};
  T* row_[2] = {};
  T* col_[2] = {};
  std::vector<T> own_[6];             // the buffers when the backend has none to lend
  std::vector<MPI_Request> reqs_[2];  // round r's sends (pivot, panels), by parity
  Stage st_[2];                        // round r's receives and steps, by parity
  std::vector<double> posted_, arrived_;  // RoundTimes::round_posted / round_arrived
  double bytes_ = 0;
};


}  // namespace ocl_sp::mpi
