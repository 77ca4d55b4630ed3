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
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mpi/mpi_backend.hpp"
#include "mpi/mpi_layout.hpp"
#include "mpi/mpi_trace.hpp"
#include "util/cancel.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

struct RoundTimes {
  double compute = 0, wait = 0, solve = 0;
  std::vector<double> round_compute, round_wait;  // per round
  // Per round r, seconds from the moment this rank began r (during round r - 1,
  // the look-ahead) until r's pivot was on its host (closed and read back, or
  // received; 0 where it takes no part in step 2), until its part of r's steps 1-2
  // was posted (pivot, step 2 and every block it sends, if any; 0 where it takes no
  // part in step 2), and
  // until every block of r's panels it receives had arrived (0 where it receives none).
  std::vector<double> round_pivot, round_posted, round_arrived;
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
    const int64_t q = lay_.q, run = gemm_run();
    const int ahead = gemm_ahead(run);
    t.round_compute.assign(static_cast<size_t>(q), 0.0);
    t.round_wait.assign(static_cast<size_t>(q), 0.0);
    t.round_pivot.assign(static_cast<size_t>(q), 0.0);
    t.round_posted.assign(static_cast<size_t>(q), 0.0);
    t.round_arrived.assign(static_cast<size_t>(q), 0.0);
    times_ = &t;
    {
      Stopwatch c;
      trace_("load_start", -1);
      be_.load();
      trace_("load_enqueued", -1);
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
        // The owner of round r + 1's pivot updates the pivot block first and closes
        // it at once: the other ranks' step 2 waits only for the pivot, its own
        // step 2 (after the rest of its look-ahead) for no one.
        next_r = lay_.has_row(next) ? lay_.lrow(next) : -1;
        next_c = lay_.has_col(next) ? lay_.lcol(next) : -1;
        const bool owns_next = next_r >= 0 && next_c >= 0;
        if (owns_next) {
          waited += gemm(r, next_r, next_c);
          begin(next);
        }
        waited += look_ahead(r, next_r, next_c, skip_r, skip_c);
        trace_("look_ahead_enqueued", r, be_.backlog());
        if (owns_next)
          owner_step2(next);
        else
          begin(next);
      }
      // The rest of round r, runs of `run` local panels of a row (one launch on a
      // device: a launch of one panel of 2560 fills its last wave poorly), few
      // queued ahead (`ahead`), so the next round's step 2 (enqueued once its pivot
      // arrives) waits behind a run or two, not panel rows. The last round has no
      // next step 2: all at once, so that the store reads each row back while the
      // rows after it run.
      const auto cranges = ranges_without(nc, skip_c, next_c);
      const int bound = next < q ? ahead : std::numeric_limits<int>::max();
      for (int64_t li = 0; li < nr; ++li) {
        if (li == skip_r || li == next_r) continue;
        for (const auto& [a, b] : cranges)
          for (int64_t lj = a; lj < b; lj += run) {
            waited += gemm(r, li, lj, std::min(run, b - lj));
            progress();
            while (be_.backlog() > bound) {
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
      trace_("round_end", r, be_.backlog());
      const double total = w.seconds();
      t.round_wait[ri] = waited;
      t.round_compute[ri] = total - waited;
      t.wait += waited;
      t.compute += total - waited;
    }
    times_ = nullptr;
    Stopwatch c1;
    for (int k = 0; k < 2; ++k) {
      wait_all(reqs_[k]);
      wait_all(st_[k].piv_sends);
    }
    trace_("store_start", -1);
    be_.store();
    trace_("stored", -1);
    trace_.write(lay_.prow * lay_.pc + lay_.pcol);
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
    std::vector<MPI_Request> piv_sends;  // the owner's pivot broadcasts
    std::vector<std::vector<MPI_Request>> row_reqs, col_reqs;  // the panels' receives, in block order
    // Layout::block_order of the row / column panel, and each local block's place in it
    std::vector<int64_t> row_order, col_order, row_pos, col_pos;
    Stopwatch since;                     // from begin(r)
    bool posted = false, arrived = false;  // their seconds taken (RoundTimes)
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
      if (st.r >= 0 && (!st.piv_reqs.empty() || !st.piv_sends.empty() ||
                        st.row_in < static_cast<int64_t>(st.row_reqs.size()) ||
                        st.col_in < static_cast<int64_t>(st.col_reqs.size())))
        return true;
    return false;
  }
  // The broadcast buffers of round parity k: the backend's (pinned, so the uploads
  // and read-backs run at DMA speed) for panels that travel (row panels where the
  // grid has several process rows, column panels where it has several process
  // columns), else our own, left untouched until written (a 1 x 1 grid on a device
  // never writes them: zeroing its set of 450 MB took 226 ms of round 0 at n = 20 000).
  void take_set(int k) {
    const auto take = [&](size_t values, int i, bool travels) {
      if (travels)
        if (T* b = be_.host_buffer(values)) return b;
      own_[i].reset(new T[std::max<size_t>(values, 1)]);
      return own_[i].get();
    };
    piv_[k] = take(static_cast<size_t>(lay_.p * lay_.p), 3 * k, lay_.pr * lay_.pc > 1);
    row_[k] = take(static_cast<size_t>(lay_.p * lay_.mc()), 3 * k + 1, lay_.pr > 1);
    col_[k] = take(static_cast<size_t>(lay_.mr() * lay_.p), 3 * k + 2, lay_.pc > 1);
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
    wait_all(st.piv_sends);  // round r - 2's, before its buffer is written again
    st = Stage();
    st.r = r;
    const auto place = [](const std::vector<int64_t>& order) {
      std::vector<int64_t> pos(order.size());
      for (size_t k = 0; k < order.size(); ++k) pos[static_cast<size_t>(order[k])] = static_cast<int64_t>(k);
      return pos;
    };
    st.row_order = lay_.block_order(r, true);
    st.col_order = lay_.block_order(r, false);
    st.row_pos = place(st.row_order);
    st.col_pos = place(st.col_order);
    if (!piv_[s]) take_set(s);
    // Set s was round r - 2's: its sends done and its device copies read before
    // the pivot, step 2 or the receives write into it again.
    wait_all(reqs_[s]);
    if (r >= 2) be_.release(r - 2);
    st.in_row = lay_.has_row(r);
    st.in_col = lay_.has_col(r);
    trace_("begin", r, be_.backlog());
    const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
    // Blocks to send: row panels go down the process column, column panels along
    // the process row, each only where it has other ranks.
    st.row_sent = st.in_row && lay_.pr > 1 ? 0 : nc;
    st.col_sent = st.in_col && lay_.pc > 1 ? 0 : nr;
    const int root_row = static_cast<int>(r % lay_.pr), root_col = static_cast<int>(r % lay_.pc);
    if (st.in_row && st.in_col) {
      // The owner: the pivot now, step 2 once its panels of row and column r are
      // updated (owner_step2(); at once for round 0).
      be_.close_pivot(r, piv_[s]);
      trace_("pivot_enqueued", r);
      st.have_pivot = true;
      if (r == 0) owner_step2(r);
    } else {
      // The pivot along the pivot's process row (rank in it: column) / column.
      if (st.in_row) ibcast(piv_[s], pp(), root_col, c_.row, false, st.piv_reqs);
      if (st.in_col) ibcast(piv_[s], pp(), root_row, c_.col, false, st.piv_reqs);
    }
    if (!st.in_row)
      for (const int64_t k : st.row_order) {
        st.row_reqs.emplace_back();
        ibcast(row_[s] + k * pp(), pp(), root_row, c_.col, false, st.row_reqs.back());
      }
    if (!st.in_col)
      for (const int64_t k : st.col_order) {
        st.col_reqs.emplace_back();
        ibcast(col_[s] + k * pp(), pp(), root_col, c_.row, false, st.col_reqs.back());
      }
    progress();
  }
  int64_t pp() const { return lay_.p * lay_.p; }
  // The pivot owner's step 2 of round r (its pivot closed in begin(r)).
  void owner_step2(int64_t r) {
    const int s = static_cast<int>(r % 2);
    be_.phase2(r, piv_[s], row_[s], col_[s]);
    trace_("step2_enqueued", r);
    st_[s].phase2 = true;
  }

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
      const int64_t k = st.row_order[static_cast<size_t>(st.row_in)];
      be_.receive_block(r, true, k, row_[s] + k * pp());
      trace_("row_block_arrived", r, k);
      ++st.row_in;
    }
    while (st.col_in < static_cast<int64_t>(st.col_reqs.size()) && test(st.col_reqs[static_cast<size_t>(st.col_in)])) {
      const int64_t k = st.col_order[static_cast<size_t>(st.col_in)];
      be_.receive_block(r, false, k, col_[s] + k * pp());
      trace_("col_block_arrived", r, k);
      ++st.col_in;
    }
    if (!st.arrived && st.row_in == static_cast<int64_t>(st.row_reqs.size()) &&
        st.col_in == static_cast<int64_t>(st.col_reqs.size())) {
      st.arrived = true;
      if (!st.row_reqs.empty() || !st.col_reqs.empty()) mark(times_->round_arrived, st);
    }
    const bool owner = st.in_row && st.in_col;
    if (owner && !st.pivot_posted && be_.pivot_ready()) {
      ibcast(piv_[s], pp(), lay_.pcol, c_.row, true, st.piv_sends);
      ibcast(piv_[s], pp(), lay_.prow, c_.col, true, st.piv_sends);
      st.pivot_posted = true;
      mark(times_->round_pivot, st);
      trace_("pivot_posted", r);
    }
    if (!owner && !st.have_pivot && (st.in_row || st.in_col) && test(st.piv_reqs)) {
      st.have_pivot = true;
      mark(times_->round_pivot, st);
      trace_("pivot_arrived", r);
      be_.set_pivot(r, piv_[s]);
      be_.phase2(r, piv_[s], row_[s], col_[s]);
      trace_("step2_enqueued", r);
      st.phase2 = true;
    }
    // The owner's blocks only once its pivot reached the pivot's process row and
    // column: posted beside it, they shared the transport with it, and step 2 there
    // (which the next round's chain waits for) started only when most of them had
    // arrived (4 x H200, n = 40 000: the pivot 14-44 ms after it was posted).
    if (st.phase2 && (!owner || (st.pivot_posted && test(st.piv_sends)))) {
      const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
      while (st.row_sent < nc && be_.block_ready(true, st.row_order[static_cast<size_t>(st.row_sent)])) {
        const int64_t k = st.row_order[static_cast<size_t>(st.row_sent)];
        ibcast(row_[s] + k * pp(), pp(), lay_.prow, c_.col, true, reqs_[s]);
        trace_("row_block_posted", r, k);
        ++st.row_sent;
      }
      while (st.col_sent < nr && be_.block_ready(false, st.col_order[static_cast<size_t>(st.col_sent)])) {
        const int64_t k = st.col_order[static_cast<size_t>(st.col_sent)];
        ibcast(col_[s] + k * pp(), pp(), lay_.pcol, c_.row, true, reqs_[s]);
        trace_("col_block_posted", r, k);
        ++st.col_sent;
      }
      if (!st.posted && st.row_sent == nc && st.col_sent == nr) {
        st.posted = true;
        mark(times_->round_posted, st);
      }
    }
  }
  // Round st.r's entry of a RoundTimes figure: the seconds since its begin().
  static void mark(std::vector<double>& per_round, const Stage& st) {
    per_round[static_cast<size_t>(st.r)] = st.since.seconds();
  }
  // Waits (driving the rounds) until round r's column block li and row block lj
  // are on their way to the device, where this rank receives them (li = nr, lj = nc:
  // every block); returns the seconds waited.
  double await(int64_t r, int64_t li, int64_t lj) {
    const Stage& st = st_[r % 2];
    // Block k (past the last: every block) among those arrived, `in` in block order.
    const auto got = [](int64_t in, const std::vector<int64_t>& pos, int64_t k) {
      const auto all = static_cast<int64_t>(pos.size());
      return k >= all ? in == all : in > pos[static_cast<size_t>(k)];
    };
    const auto arrived = [&] {
      return (st.in_row || got(st.row_in, st.row_pos, lj)) && (st.in_col || got(st.col_in, st.col_pos, li));
    };
    if (arrived()) return 0;
    Stopwatch w;
    while (!arrived()) {
      progress();
      if (!arrived()) nap();
    }
    return w.seconds();
  }
  // Round r on row and column r + 1 (local next_r / next_c, -1 where not this
  // rank's; skip_r / skip_c: row and column r, done in step 2) but the pivot block
  // (next_r, next_c) (its owner did it first), in the order their
  // blocks arrive: row r + 1's GEMMs in the row panel's block order, column
  // r + 1's in the column panel's, taken in turn (both panels stream at once);
  // returns the seconds waited for blocks.
  double look_ahead(int64_t r, int64_t next_r, int64_t next_c, int64_t skip_r, int64_t skip_c) {
    const Stage& st = st_[r % 2];
    std::vector<std::pair<int64_t, int64_t>> in_row, in_col;
    if (next_r >= 0)
      for (const int64_t lj : st.row_order)
        if (lj != skip_c && lj != next_c) in_row.emplace_back(next_r, lj);
    if (next_c >= 0)
      for (const int64_t li : st.col_order)
        if (li != skip_r && li != next_r) in_col.emplace_back(li, next_c);
    double waited = 0;
    for (size_t k = 0; k < std::max(in_row.size(), in_col.size()); ++k) {
      if (k < in_row.size()) waited += gemm(r, in_row[k].first, in_row[k].second);
      if (k < in_col.size()) waited += gemm(r, in_col[k].first, in_col[k].second);
    }
    return waited;
  }
  // Round r's GEMMs on the local panels (li, lj) .. (li, lj + count - 1) once the
  // blocks they read arrived; returns the seconds waited for them.
  double gemm(int64_t r, int64_t li, int64_t lj, int64_t count = 1) {
    double waited = 0;
    for (int64_t k = lj; k < lj + count; ++k) waited += await(r, li, k);
    be_.update(r, li, lj, count);
    trace_("gemm_enqueued", r, li * 1000 + lj);  // the run's first panel, as li * 1000 + lj
    return waited;
  }
  // Local panels of a row updated together (one GEMM launch on a device): 4, or
  // OCL_SP_MPI_GEMM_PANELS (comparisons; 1: a launch a panel).
  static int64_t gemm_run() {
    if (const char* e = std::getenv("OCL_SP_MPI_GEMM_PANELS"))
      if (const long long v = std::atoll(e); v > 0) return v;
    return 4;
  }
  // update() launches left queued when the next is enqueued: 1 for a panel a
  // launch, 0 for runs (then at most one run is ahead of the next round's step 2);
  // OCL_SP_MPI_GEMM_AHEAD (comparisons).
  static int gemm_ahead(int64_t run) {
    if (const char* e = std::getenv("OCL_SP_MPI_GEMM_AHEAD"))
      if (const int v = std::atoi(e); v >= 0 && *e) return v;
    return run > 1 ? 0 : 1;
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
  std::unique_ptr<T[]> own_[6];       // the buffers when the backend has none to lend
  std::vector<MPI_Request> reqs_[2];  // round r's sends (pivot, panels), by parity
  Stage st_[2];                        // round r's receives and steps, by parity
  RoundTimes* times_ = nullptr;  // run()'s, while it runs
  RoundTrace trace_;
  double bytes_ = 0;
};


}  // namespace ocl_sp::mpi
