// Turning OpenCL error codes into readable names ("CL_OUT_OF_RESOURCES (-5)") so no
// message ever shows a bare number.
#pragma once
#include <string>

namespace ocl_sp {
std::string cl_error_name(int code);
}
