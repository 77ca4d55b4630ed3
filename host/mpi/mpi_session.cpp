// The MPI session and its error protocol (see mpi_session.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_session.hpp"

#include <omp.h>
#include <sched.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <new>
#include <vector>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "mpi/mpi_env.hpp"
#include "util/host_threads.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/print_error.hpp"

namespace ocl_sp::mpi {

int exit_code_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const NegativeCycleError&) {
    return kExitNegativeCycle;
  } catch (const UsageError&) {
    return kExitUsage;
  } catch (const CancelledError&) {
    return 128 + (cancel_flag().load() ? cancel_flag().load() : 2);
  } catch (...) {
    return kExitRuntime;
  }
}

std::string message_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const cl::Error& x) {
    return std::string("OpenCL call ") + x.what() + " failed: " + cl_error_name(x.err());
  } catch (const std::bad_alloc&) {
    return "out of host memory";
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "unknown error";
  }
}

namespace {

// Ranks of one host share its cores: OpenMP's default pool is every CPU of the
// rank's affinity mask, so 4 ranks that mpirun binds to the same socket (its
// default past 2 ranks) would run 4 x 64 threads on 64 cores in every host loop
// (generation, copies, stats). Each rank takes its share of the CPUs its mask
// holds (shared_host_threads), unless OMP_NUM_THREADS says otherwise.
int share_host_threads() {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int me = 0, ranks = 1;
  MPI_Comm_rank(node, &me);
  MPI_Comm_size(node, &ranks);
  std::vector<uint8_t> mask(CPU_SETSIZE, 0);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c) mask[static_cast<size_t>(c)] = CPU_ISSET(c, &set) ? 1 : 0;
  std::vector<uint8_t> all(mask.size() * static_cast<size_t>(ranks));
  MPI_Allgather(mask.data(), CPU_SETSIZE, MPI_UINT8_T, all.data(), CPU_SETSIZE, MPI_UINT8_T, node);
  MPI_Comm_free(&node);
  std::vector<std::vector<uint8_t>> masks;
  for (int r = 0; r < ranks; ++r)
    masks.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(r) * CPU_SETSIZE,
                       all.begin() + static_cast<std::ptrdiff_t>(r + 1) * CPU_SETSIZE);
  const int threads = shared_host_threads(masks, me);
  const char* env = std::getenv("OMP_NUM_THREADS");
  if (!(env && *env) && threads < omp_get_max_threads()) {
    omp_set_num_threads(threads);
    set_host_pool(threads);  // the sized loops of every other thread too
  }
  return omp_get_max_threads();
}

}  // namespace

Session::Session() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  host_threads = share_host_threads();
}

Session::~Session() { MPI_Finalize(); }

int agree(Outcome& out, const Session& s) {
  int code = out.code, worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!worst) return 0;
  int mine = out.code ? s.rank : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == s.rank && out.error) {
    print_error((s.rank ? "rank " + std::to_string(s.rank) + ": " : std::string()) + message_of(out.error));
  }
  s.reporter = first;  // the others exit 0 (Session::exit_code)
  return worst;
}

// Inside the rounds: a peer may wait in a broadcast for this rank, so a failure
// ends the job at once.
[[noreturn]] void abort_job(const Session& s, std::exception_ptr e) {
  print_error("rank " + std::to_string(s.rank) + ": " + message_of(e) + " (aborting all ranks)");
  MPI_Abort(MPI_COMM_WORLD, exit_code_of(e));
  std::abort();
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
