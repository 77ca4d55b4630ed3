// Launch detection (see mpi_env.hpp): environment only, no MPI call.
#include "mpi/mpi_env.hpp"

#include <cstdlib>

namespace ocl_sp::mpi {

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return end && *end == '\0' && x >= 0 && x < (1 << 24) ? static_cast<int>(x) : fallback;
}

}  // namespace

int launched_world_size() {
  for (const char* k : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_WORLD_SIZE"}) {
    const int s = env_int(k, -1);
    if (s >= 1) return s;
  }
  return 1;
}

int launched_local_rank() {
  for (const char* k : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK",
                        "SLURM_LOCALID"}) {
    const int r = env_int(k, -1);
    if (r >= 0) return r;
  }
  return 0;
}

bool built_with_mpi() {
#ifdef OCL_SP_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace ocl_sp::mpi
