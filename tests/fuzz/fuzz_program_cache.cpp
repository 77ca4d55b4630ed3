// libFuzzer harness for the program-cache entry reader (parse_cache_entry in
// host/cl/program.cpp, the pure part of loading "<dir>/<hash>.oclbin"): any
// bytes as a cache file for a fixed key must give either the binary (non-empty,
// and an entry written for it reads back the same) or false with a reason, never
// a crash. The bytes as a binary and as a key must round-trip through
// format_cache_entry.
#include <string>

#include "cl/program.hpp"
#include "fuzz_common.hpp"

using namespace ocl_sp;

namespace {
const std::string kKey =
    "ocl_sp 0.1.0\nplatform: Portable Computing Language\ndevice: cpu\ndriver: 3.1\n"
    "options: -DVALUE_INT32\nsource:\n__kernel void k() {}\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes = ocl_sp_fuzz::bytes(data, size);
  std::string binary, why;
  if (parse_cache_entry(bytes, kKey, binary, why)) {
    FUZZ_CHECK(!binary.empty() && binary.size() < bytes.size());
    std::string again;
    FUZZ_CHECK(parse_cache_entry(format_cache_entry(kKey, binary), kKey, again, why));
    FUZZ_CHECK(again == binary);
  } else {
    FUZZ_CHECK(!why.empty());
  }
  // The bytes as the stored binary, and as the key.
  if (!bytes.empty()) {
    std::string out;
    FUZZ_CHECK(parse_cache_entry(format_cache_entry(kKey, bytes), kKey, out, why));
    FUZZ_CHECK(out == bytes);
    FUZZ_CHECK(!parse_cache_entry(format_cache_entry(kKey, bytes), kKey + "x", out, why));
  }
  std::string out;
  const std::string elf = "\177ELF";
  FUZZ_CHECK(parse_cache_entry(format_cache_entry(bytes, elf), bytes, out, why));
  FUZZ_CHECK(out == elf);
  return 0;
}
