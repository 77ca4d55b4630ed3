// The MPI session of a distributed solve (see mpi_fw.hpp) and its error protocol:
// set-up steps end in a collective agreement on the exit code (agree()), a failure
// inside the rounds ends the job (abort_job()), never a hang.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>

namespace ocl_sp::mpi {

// Largest element count of one MPI call (counts are int; 1 GiB of int32).
constexpr int64_t kMaxChunk = int64_t{1} << 28;

template <typename T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, int64_t>) return MPI_INT64_T;
  return MPI_INT;
}

// The exit code an exception maps to, as main() maps it.
int exit_code_of(std::exception_ptr e);
// Its message as main() prints it (without "error: ").
std::string message_of(std::exception_ptr e);

// The MPI session: MPI_Init on construction, MPI_Finalize on destruction.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank = 0, size = 1;
  // This rank's OpenMP pool: its share of the CPUs the host's ranks may run on
  // (mpi_env.hpp shared_host_threads), or OMP_NUM_THREADS.
  int host_threads = 1;
  // The rank that printed the job's error (agree(); -1: none yet). Only that rank
  // exits with the error's code (exit_code): mpirun ends a job when the first rank
  // exits non-zero and can drop what a rank still running had written (a usage
  // error's line, main.cpp, was missing from mpirun's stderr about once in 20 jobs
  // under ASan); ranks that exit 0 let it finish and be read.
  mutable int reporter = -1;
  int exit_code(int code) const { return code != 0 && reporter >= 0 && reporter != rank ? 0 : code; }
};

// A set-up step's outcome on this rank; agree() makes it everyone's.
struct Outcome {
  int code = 0;
  std::exception_ptr error;
  template <typename F>
  void step(F&& f) {
    if (code) return;
    try {
      f();
    } catch (...) {
      error = std::current_exception();
      code = exit_code_of(error);
    }
  }
};

// Every rank learns the highest exit code any rank has; the lowest failing rank
// prints its message. Returns the agreed code (0: all fine).
int agree(Outcome& out, const Session& s);

// Inside the rounds: a peer may wait in a broadcast for this rank, so a failure
// ends the job at once.
[[noreturn]] void abort_job(const Session& s, std::exception_ptr e);

}  // namespace ocl_sp::mpi
