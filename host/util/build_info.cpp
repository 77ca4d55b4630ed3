// build_info_text() (build_info.hpp). The revision comes from generated/
// git_revision.h, rewritten by cmake/git_revision.cmake on every build when it
// changes; OCL_SP_BUILD_TYPE and OCL_SP_WITH_PYTHON are set for this file alone
// (CMakeLists.txt), so a new revision recompiles only it.
#include "util/build_info.hpp"

#include "git_revision.h"

#ifndef OCL_SP_VERSION
#define OCL_SP_VERSION "unknown"
#endif
#ifndef OCL_SP_BUILD_TYPE
#define OCL_SP_BUILD_TYPE "unknown"
#endif

namespace ocl_sp {

std::string build_info_text() {
  const int cl = CL_TARGET_OPENCL_VERSION;
  std::string s = std::string("ocl_sp ") + OCL_SP_VERSION + "\n";
  s += std::string("revision: ") + OCL_SP_GIT_REVISION + "\n";
  s += std::string("build type: ") + OCL_SP_BUILD_TYPE + "\n";
  s += "OpenCL target: " + std::to_string(cl / 100) + "." + std::to_string(cl / 10 % 10) +
       " (CL_TARGET_OPENCL_VERSION=" + std::to_string(cl) + ")\n";
  s += "features:";
#ifdef _OPENMP
  s += " openmp=" + std::to_string(_OPENMP);
#else
  s += " openmp=no";
#endif
#ifdef OCL_SP_HAVE_MPI
  s += " mpi=yes";
#else
  s += " mpi=no";
#endif
#ifdef OCL_SP_WITH_PYTHON
  s += " python=yes";
#else
  s += " python=no";
#endif
  return s;
}

}  // namespace ocl_sp
