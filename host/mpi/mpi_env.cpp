// Launch detection (see mpi_env.hpp): environment only, no MPI call.
#include "mpi/mpi_env.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "util/env.hpp"
#include "util/errors.hpp"

namespace ocl_sp::mpi {

namespace {

// A launcher's rank or size variable: fallback (-1) unless it is a count.
int env_int(const char* name, int fallback) { return ocl_sp::env_int(name, fallback, 0, (1 << 24) - 1); }

}  // namespace

int launched_world_size() {
  for (const char* k : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_WORLD_SIZE"}) {
    const int s = env_int(k, -1);
    if (s >= 1) return s;
  }
  return 1;
}

int launched_world_rank() {
  for (const char* k : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    const int r = env_int(k, -1);
    if (r >= 0) return r;
  }
  return 0;
}

int launched_local_rank() {
  for (const char* k : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK",
                        "SLURM_LOCALID"}) {
    const int r = env_int(k, -1);
    if (r >= 0) return r;
  }
  return 0;
}

int launched_local_size() {
  for (const char* k : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"}) {
    const int s = env_int(k, -1);
    if (s >= 1) return s;
  }
  return 1;
}

bool launched_by_mpi() {
  for (const char* k : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_WORLD_SIZE"})
    if (env_int(k, -1) >= 1) return true;
  return false;
}

std::pair<int, int> default_grid(int ranks) {
  int pr = 1;
  for (int a = 1; a * a <= ranks; ++a)
    if (ranks % a == 0) pr = a;
  return {pr, ranks / pr};
}

std::pair<int, int> parse_grid(const std::string& s) {
  const size_t x = s.find_first_of("xX");
  const auto number = [](const std::string& t) {
    if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::stoi(t);
  };
  const int pr = x == std::string::npos ? 0 : number(s.substr(0, x));
  const int pc = x == std::string::npos ? 0 : number(s.substr(x + 1));
  if (pr < 1 || pc < 1)
    throw UsageError("--grid expects PRxPC, the process rows and columns as positive integers "
                     "(e.g. 2x4 for 8 ranks), got '" + s + "'");
  // Each factor has at most 6 digits, so the product fits int64_t; past INT_MAX
  // ranks it names no job MPI can run (and would overflow the rank count).
  if (static_cast<int64_t>(pr) * pc > std::numeric_limits<int>::max())
    throw UsageError("--grid " + s + " is a grid of " +
                     std::to_string(static_cast<int64_t>(pr) * pc) +
                     " ranks, more than MPI can run");
  return {pr, pc};
}

SourceDeal::SourceDeal(int64_t r, int k) : rows(r), ranks(k > 1 ? k : 1) {
  const int64_t parts = int64_t{64} * ranks;
  chunk = rows > parts ? (rows + parts - 1) / parts : 1;
}

std::vector<size_t> dealt_devices(size_t count, int local_rank, int local_size) {
  const size_t k = static_cast<size_t>(local_size > 1 ? local_size : 1);
  const size_t r = static_cast<size_t>(local_rank > 0 ? local_rank : 0);
  if (count < k) return {r % count};
  std::vector<size_t> out;
  for (size_t i = r % k; i < count; i += k) out.push_back(i);
  return out;
}

int shared_host_threads(const std::vector<std::vector<uint8_t>>& masks, int me) {
  if (me < 0 || static_cast<size_t>(me) >= masks.size()) return 1;
  const auto& mine = masks[static_cast<size_t>(me)];
  double share = 0;
  for (size_t c = 0; c < mine.size(); ++c) {
    if (!mine[c]) continue;
    int owners = 0;
    for (const auto& m : masks) owners += c < m.size() && m[c];
    share += 1.0 / owners;  // owners >= 1: mine holds c
  }
  return std::max(1, static_cast<int>(share + 1e-9));
}

bool built_with_mpi() {
#ifdef OCL_SP_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace ocl_sp::mpi
