// Shared pieces of the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp). A harness
// feeds the bytes to one reader and lets only the reader's documented outcomes
// through: a result that satisfies the reader's contract, or the UsageError (or,
// where documented, a warning) a malformed file gets. Anything else — another
// exception, a broken invariant, a sanitizer report, a hang, a huge allocation —
// is a finding: fuzz_fail() aborts so that libFuzzer saves the input.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ocl_sp_fuzz {

[[noreturn]] inline void fuzz_fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(cond)                                                                         \
  do {                                                                                           \
    if (!(cond))                                                                                 \
      ::ocl_sp_fuzz::fuzz_fail(std::string("check failed: ") + #cond + " at " + __FILE__ + ":" + \
                               std::to_string(__LINE__));                                        \
  } while (0)

inline std::string bytes(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace ocl_sp_fuzz
