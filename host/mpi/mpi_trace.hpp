// OCL_SP_MPI_TRACE=PREFIX: the distributed fw's rounds write every event of the
// rank (a round begun, a block posted or arrived, a GEMM enqueued, ...; round -1:
// the local matrix's load and store around them) with its
// time to PREFIX.RANK.tsv, to time the chain that feeds a round across ranks. The
// times are the host's monotonic clock (the same for every rank of one host).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ocl_sp::mpi {

class RoundTrace {
 public:
  RoundTrace() {
    if (const char* e = std::getenv("OCL_SP_MPI_TRACE")) prefix_ = e;
  }
  bool on() const { return !prefix_.empty(); }
  // `what` of round r (k: a block, a panel or a count; -1 where none).
  void operator()(const char* what, int64_t r, int64_t k = -1) {
    if (on()) events_.push_back({now(), what, r, k});
  }
  // The rank's events to PREFIX.RANK.tsv (a note on stderr where it cannot).
  void write(int rank) const {
    if (!on()) return;
    const std::string path = prefix_ + "." + std::to_string(rank) + ".tsv";
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "note: cannot write the round trace '%s'\n", path.c_str());
      return;
    }
    std::fprintf(f, "seconds\tround\tevent\tk\n");
    for (const Event& e : events_)
      std::fprintf(f, "%.6f\t%lld\t%s\t%lld\n", e.t, static_cast<long long>(e.r), e.what,
                   static_cast<long long>(e.k));
    std::fclose(f);
  }

 private:
  struct Event {
    double t;
    const char* what;
    int64_t r, k;
  };
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::string prefix_;
  std::vector<Event> events_;
};

}  // namespace ocl_sp::mpi
