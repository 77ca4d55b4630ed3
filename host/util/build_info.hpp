// What `ocl_sp --version` prints: version, git revision, build type, the OpenCL
// version the headers target and the features built in (OpenMP, MPI, Python).
#pragma once
#include <string>

namespace ocl_sp {
std::string build_info_text();
}
