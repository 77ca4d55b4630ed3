// MPI broadcast throughput as the distributed fw's rounds drive it
// (host/mpi/mpi_rounds.hpp): one MPI_Bcast, one MPI_Ibcast of the whole buffer,
// and MPI_Ibcast in pieces of CHUNK_MB, each non-blocking way polled with
// MPI_Testall, 50 us of sleep between polls (POLL=sleep, the rounds' old nap) or a
// yield (POLL=yield, the rounds while broadcasts are in flight). Rank 1 prints
// seconds and GB/s; every rank but 0 receives (R - 1 receivers).
// Build and run (two ranks of one host; a container without ptrace: add
// --mca btl_vader_single_copy_mechanism none):
//   mpicxx -O2 -o /tmp/mpi_ibcast bench/mpi_ibcast.cpp
//   mpirun -np 2 /tmp/mpi_ibcast [CHUNK_MB=16] [MB=400] [REPS=2] [POLL=sleep|yield]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long chunk_mb = argc > 1 ? std::atol(argv[1]) : 16, mb = argc > 2 ? std::atol(argv[2]) : 400;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 2;
  const bool yield = argc > 4 && std::string(argv[4]) == "yield";
  const long n = (mb << 20) / 4;  // ints
  std::vector<int> b(static_cast<size_t>(n), rank);
  const char* names[] = {"MPI_Bcast", "MPI_Ibcast whole", "MPI_Ibcast pieces"};
  for (int mode = 0; mode < 3; ++mode)
    for (int rep = 0; rep < reps; ++rep) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      if (mode == 0) {
        MPI_Bcast(b.data(), static_cast<int>(n), MPI_INT, 0, MPI_COMM_WORLD);
      } else {
        const long chunk = mode == 1 ? n : std::max(1L, (chunk_mb << 20) / 4);
        std::vector<MPI_Request> rq;
        for (long off = 0; off < n; off += chunk) {
          MPI_Request r;
          MPI_Ibcast(b.data() + off, static_cast<int>(std::min(chunk, n - off)), MPI_INT, 0, MPI_COMM_WORLD, &r);
          rq.push_back(r);
        }
        int flag = 0;
        while (!flag) {
          MPI_Testall(static_cast<int>(rq.size()), rq.data(), &flag, MPI_STATUSES_IGNORE);
          if (!flag && yield) std::this_thread::yield();
          if (!flag && !yield) std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
      }
      const double t = MPI_Wtime() - t0;
      if (rank == 1)
        std::printf("%s%s (%s polls), %ld MB, rep %d: %.3f s, %.2f GB/s\n", names[mode],
                    mode == 2 ? (" of " + std::to_string(chunk_mb) + " MB").c_str() : "", yield ? "yield" : "sleep",
                    mb, rep, t, static_cast<double>(n) * 4 / t / 1e9);
    }
  MPI_Finalize();
}
