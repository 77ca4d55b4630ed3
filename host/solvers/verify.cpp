// Reference comparison (see verify.hpp).
#include "solvers/verify.hpp"

#include <cmath>
#include <sstream>

#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

namespace {
template <typename T>
bool equal_values(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a == b;
  } else {
    if (std::isinf(a) || std::isinf(b)) return a == b;
    const double x = a, y = b;
    return std::fabs(x - y) <=
           ValueTraits<T>::tolerance * std::fmax(1.0, std::fmax(std::fabs(x), std::fabs(y)));
  }
}
}  // namespace

template <typename T>
VerifyResult compare_matrices(const DistMatrix<T>& expected, const DistMatrix<T>& got) {
  VerifyResult r;
  if (expected.n() != got.n()) {
    r.ok = false;
    r.detail = "size differs";
    return r;
  }
  std::ostringstream first;
  const int64_t n = expected.n();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (!equal_values(expected(i, j), got(i, j))) {
        if (r.mismatches < 3)
          first << (r.mismatches ? "; " : "") << "d(" << i << "," << j << ") = " << got(i, j)
                << ", expected " << expected(i, j);
        ++r.mismatches;
      }
  r.ok = r.mismatches == 0;
  if (!r.ok)
    r.detail = std::to_string(r.mismatches) + " mismatches: " + first.str();
  else
    r.detail = std::is_integral_v<T> ? "bit-exact"
               : sizeof(T) == 4          ? "within 1e-5 relative"
                                         : "within 1e-11 relative";
  return r;
}

std::string reference_method(int64_t n, bool prefer_serial) {
  return prefer_serial || n <= 3000 ? "serial fw" : "openmp fw";
}

template <typename T>
std::string solve_reference(DistMatrix<T>& d, bool prefer_serial) {
  const std::string method = reference_method(d.n(), prefer_serial);
  if (method == "serial fw")
    fw_serial(d, nullptr);
  else
    fw_openmp(d, nullptr, 0);
  return method;
}

template <typename T>
VerifyResult verify_result(const DistMatrix<T>& input, const DistMatrix<T>& result,
                           bool prefer_serial) {
  DistMatrix<T> ref = input;
  std::string name = reference_method(input.n(), prefer_serial);
  try {
    solve_reference(ref, prefer_serial);
  } catch (const NegativeCycleError&) {
    VerifyResult r;
    r.ok = false;
    r.reference = name;
    r.detail = "the reference found a negative cycle the solver missed";
    return r;
  }
  VerifyResult r = compare_matrices(ref, result);
  r.reference = name;
  return r;
}

template std::string solve_reference(DistMatrix<int32_t>&, bool);
template std::string solve_reference(DistMatrix<float>&, bool);
template std::string solve_reference(DistMatrix<double>&, bool);
template std::string solve_reference(DistMatrix<int64_t>&, bool);
template VerifyResult verify_result(const DistMatrix<int32_t>&, const DistMatrix<int32_t>&, bool);
template VerifyResult verify_result(const DistMatrix<float>&, const DistMatrix<float>&, bool);
template VerifyResult verify_result(const DistMatrix<double>&, const DistMatrix<double>&, bool);
template VerifyResult verify_result(const DistMatrix<int64_t>&, const DistMatrix<int64_t>&, bool);
template VerifyResult compare_matrices(const DistMatrix<int32_t>&, const DistMatrix<int32_t>&);
template VerifyResult compare_matrices(const DistMatrix<float>&, const DistMatrix<float>&);
template VerifyResult compare_matrices(const DistMatrix<double>&, const DistMatrix<double>&);
template VerifyResult compare_matrices(const DistMatrix<int64_t>&, const DistMatrix<int64_t>&);

}  // namespace ocl_sp
