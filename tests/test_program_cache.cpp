// Tests of the program-cache entry format (host/cl/program.cpp): the pure
// parser parse_cache_entry that build_program uses on "<dir>/<hash>.oclbin"
// (also fuzzed: tests/fuzz/fuzz_program_cache.cpp) and its writer
// format_cache_entry. No OpenCL device involved.
#include <doctest/doctest.h>

#include <string>

#include "cl/program.hpp"

using namespace ocl_sp;

namespace {

const std::string kKey =
    "ocl_sp 0.1.0\nplatform: P\ndevice: D\ndriver: 1\noptions: -DX\nsource:\nk\n";
const std::string kBinary = std::string("\177ELF\0\1\n binary \n", 17);

// parse_cache_entry's reason, or "ok:<binary>".
std::string parse(const std::string& file, const std::string& key = kKey) {
  std::string binary = "untouched", why;
  if (parse_cache_entry(file, key, binary, why)) return "ok:" + binary;
  CHECK(binary == "untouched");
  return why;
}

}  // namespace

TEST_SUITE("program_cache") {
  TEST_CASE("format and parse are inverse; the layout is the documented one") {
    const std::string file = format_cache_entry(kKey, kBinary);
    CHECK(file.rfind("OCL_SP_PROGRAM_CACHE 1\n" + std::to_string(kKey.size()) + "\n" + kKey +
                         std::to_string(kBinary.size()) + " ",
                     0) == 0);
    CHECK(parse(file) == "ok:" + kBinary);
    // Any key and binary bytes, newlines and NULs included.
    const std::string odd_key("a\nb\0c 17\n", 9), odd_bin("\n\n 3 \0", 6);
    CHECK(parse(format_cache_entry(odd_key, odd_bin), odd_key) == "ok:" + odd_bin);
  }

  TEST_CASE("every malformed entry is a miss with its reason") {
    const std::string good = format_cache_entry(kKey, kBinary);
    CHECK(parse("") == "bad header");
    CHECK(parse("OCL_SP_PROGRAM_CACHE 2\n" + good.substr(23)) == "bad header");
    CHECK(parse(good, kKey + " ") == "key differs (stale entry)");
    CHECK(parse(good, "x" + kKey.substr(1)) == "key differs (stale entry)");
    CHECK(parse(good.substr(0, good.size() - 1)) == "truncated or oversized binary");
    CHECK(parse(good + "x") == "truncated or oversized binary");
    std::string flipped = good;
    flipped.back() ^= 1;
    CHECK(parse(flipped) == "checksum mismatch");
    CHECK(parse(format_cache_entry(kKey, "")) == "truncated or oversized binary");
    const std::string head = "OCL_SP_PROGRAM_CACHE 1\n";
    CHECK(parse(head) == "bad key length");
    CHECK(parse(head + "12x\n") == "bad key length");
    CHECK(parse(head + "\n") == "bad key length");
    CHECK(parse(head + "999\nshort") == "bad key length");
    CHECK(parse(head + std::to_string(kKey.size()) + "\n" + kKey) == "bad binary length");
    CHECK(parse(head + std::to_string(kKey.size()) + "\n" + kKey + "5 abc") == "truncated");
    // A length of 20 digits could wrap around uint64_t into a small one:
    // 2^64 + 68 = 18446744073709551684 read as 68, the key's length.
    REQUIRE(kKey.size() == 68);
    CHECK(parse(head + "18446744073709551684\n" + good.substr(head.size() + 3)) ==
          "bad key length");
    CHECK(parse(head + "00068\n" + good.substr(head.size() + 3)) == "ok:" + kBinary);
  }
}

TEST_SUITE("ptx register caps") {
  // Two entries whose names share a prefix, one with a .maxnreg already.
  const std::string kPtx =
      ".visible .entry k_bufs(\n\t.param .u32 k_bufs_param_0\n)\n.reqntid 1024, 1, 1\n{\n\tret;\n}\n"
      ".visible .entry k(\n\t.param .u32 k_param_0\n)\n.maxnreg 64\n.reqntid 1024, 1, 1\n{\n\tret;\n}\n";

  TEST_CASE("the source's lines name the entries and their caps") {
    const auto caps = ptx_register_caps(
        "kernel void a() {}\n// ocl_sp:nvidia-maxnreg k 32\n"
        "// ocl_sp:nvidia-maxnreg k_bufs 40\n// ocl_sp:nvidia-maxnreg bad 4\n"
        "// ocl_sp:nvidia-maxnreg bad\n// ocl_sp:nvidia-maxnreg last 48");
    REQUIRE(caps.size() == 3);
    CHECK(caps[0].entry == "k");
    CHECK(caps[0].registers == 32);
    CHECK(caps[1].entry == "k_bufs");
    CHECK(caps[1].registers == 40);
    CHECK(caps[2].entry == "last");  // the last line without a newline
    CHECK(caps[2].registers == 48);
    CHECK(ptx_register_caps("kernel void a() {}\n").empty());
  }

  TEST_CASE("each named entry gets .maxnreg before its body, an old one replaced") {
    std::string ptx = kPtx;
    CHECK(cap_ptx_registers(ptx, {{"k", 32}, {"k_bufs", 40}, {"absent", 32}}) == 2);
    CHECK(ptx ==
          ".visible .entry k_bufs(\n\t.param .u32 k_bufs_param_0\n)\n.reqntid 1024, 1, 1\n.maxnreg 40\n{\n\tret;\n}\n"
          ".visible .entry k(\n\t.param .u32 k_param_0\n)\n.maxnreg 32\n.reqntid 1024, 1, 1\n{\n\tret;\n}\n");
    std::string none = kPtx;
    CHECK(cap_ptx_registers(none, {{"k_buf", 32}}) == 0);  // a prefix is not the entry
    CHECK(none == kPtx);
    std::string binary = "\177ELF no entries";
    CHECK(cap_ptx_registers(binary, {{"k", 32}}) == 0);
    CHECK(binary == "\177ELF no entries");
  }
}
