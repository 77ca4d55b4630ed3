// The MPI session and its error protocol (see mpi_session.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_session.hpp"

#include <climits>
#include <cstdlib>
#include <iostream>
#include <new>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"

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

Session::Session() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
}

Session::~Session() { MPI_Finalize(); }

int agree(Outcome& out, const Session& s) {
  int code = out.code, worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!worst) return 0;
  int mine = out.code ? s.rank : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == s.rank && out.error) {
    std::cerr << "error: " << (s.rank ? "rank " + std::to_string(s.rank) + ": " : std::string())
              << message_of(out.error) << std::endl;
  }
  return worst;
}

// Inside the rounds: a peer may wait in a broadcast for this rank, so a failure
// ends the job at once.
[[noreturn]] void abort_job(const Session& s, std::exception_ptr e) {
  std::cerr << "error: rank " << s.rank << ": " << message_of(e) << " (aborting all ranks)"
            << std::endl;
  MPI_Abort(MPI_COMM_WORLD, exit_code_of(e));
  std::abort();
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
