// Kernel sources and the program cache (host/cl/program.cpp) on PoCL: a second
// build hits, other options miss, truncated / overwritten / stale / foreign entries
// are rebuilt and overwritten and the program still runs, OCL_SP_NO_CACHE
// disables it, build failures carry device, options and log.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "cl/device.hpp"
#include "cl/program.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using ocl_sp_test::EnvGuard;
using ocl_sp_test::TempDir;

namespace {

struct Pocl {
  DeviceEntry dev = select_device("pocl");
  cl::Context ctx{dev.device};
};

// Runs fill_padding (common.cl) on a 2 x 2 matrix with n = 1: the program works.
bool program_runs(const Pocl& p, const cl::Program& prog) {
  cl::CommandQueue q(p.ctx, p.dev.device);
  cl::Kernel k(prog, "fill_padding");
  std::vector<cl_int> h = {7, 7, 7, 7};
  cl::Buffer b(p.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int) * 4, h.data());
  k.setArg(0, 1);
  k.setArg(1, 2);
  k.setArg(2, b);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(2, 2), cl::NullRange);
  q.enqueueReadBuffer(b, CL_TRUE, 0, sizeof(cl_int) * 4, h.data());
  return h == std::vector<cl_int>{7, 1073741823, 1073741823, 0};
}

std::vector<std::string> cache_files(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().string());
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

const std::vector<std::string> kFiles = {"common.cl"};

}  // namespace

TEST_SUITE("opencl_program") {
  TEST_CASE("kernel sources: embedded, OCL_SP_KERNEL_DIR override, unknown file") {
    const EnvGuard no_dir("OCL_SP_KERNEL_DIR", std::nullopt);
    for (const char* f : {"common.cl", "minplus_square.cl", "fw_blocked.cl", "fw_naive.cl"}) {
      INFO(f);
      CHECK(!kernel_source(f).empty());
    }
    CHECK(kernel_source("common.cl").find("value_t") != std::string::npos);
    CHECK_THROWS_AS(kernel_source("nope.cl"), RuntimeError);

    TempDir dir("ocl_sp_kdir");
    spit(dir.path() + "/common.cl", "// from disk\n");
    const EnvGuard kdir("OCL_SP_KERNEL_DIR", dir.path());
    CHECK(kernel_source("common.cl") == "// from disk\n");
    CHECK_THROWS_AS(kernel_source("fw_naive.cl"), RuntimeError);  // not in that folder
  }

  TEST_CASE("fnv1a64 reference values") {
    CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
    CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
    CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
  }

  TEST_CASE("cache folder rule") {
    const EnvGuard a("OCL_SP_CACHE_DIR", std::string("/x/cache"));
    CHECK(cache_dir() == "/x/cache");
    const EnvGuard b("OCL_SP_CACHE_DIR", std::nullopt);
    const EnvGuard c("XDG_CACHE_HOME", std::string("/x/xdg"));
    CHECK(cache_dir() == "/x/xdg/ocl_sp");
    const EnvGuard d("XDG_CACHE_HOME", std::nullopt);
    const EnvGuard e("HOME", std::string("/x/home"));
    CHECK(cache_dir() == "/x/home/.cache/ocl_sp");
  }

  TEST_CASE("second build hits; other options miss; corrupt entries are rebuilt") {
    ocl_sp_test::use_temp_program_cache();
    TempDir dir("ocl_sp_cache");
    const EnvGuard cd("OCL_SP_CACHE_DIR", dir.path());
    const EnvGuard nc("OCL_SP_NO_CACHE", std::nullopt);
    const EnvGuard kd("OCL_SP_KERNEL_DIR", std::nullopt);
    Pocl p;

    const BuiltProgram first = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32");
    CHECK(first.cache == "miss");
    CHECK_FALSE(first.cache_hit);
    REQUIRE(cache_files(dir.path()).size() == 1);
    const std::string file = first.cache_file;
    CHECK(cache_files(dir.path())[0] == file);
    CHECK(program_runs(p, first.program));
    const std::string good = slurp(file);
    CHECK(good.rfind("OCL_SP_PROGRAM_CACHE 1\n", 0) == 0);
    CHECK(good.find("options: -DVALUE_INT32") != std::string::npos);  // the key text is stored
    CHECK(good.find(p.dev.name) != std::string::npos);

    const BuiltProgram second = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32");
    CHECK(second.cache == "hit");
    CHECK(second.cache_hit);
    CHECK(second.cache_file == file);
    CHECK(program_runs(p, second.program));

    SUBCASE("different options miss and get their own entry") {
      const BuiltProgram other = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32 -DWG=8");
      CHECK(other.cache == "miss");
      CHECK(other.cache_file != file);
      CHECK(cache_files(dir.path()).size() == 2);
      CHECK(build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32 -DWG=8").cache == "hit");
    }

    // Each corruption: the next build misses, works, and rewrites a good entry.
    const std::vector<std::pair<std::string, std::string>> corruptions = {
        {"truncated to half", good.substr(0, good.size() / 2)},
        {"truncated by one byte", good.substr(0, good.size() - 1)},
        {"empty", ""},
        {"header overwritten", "XXXX" + good.substr(4)},
        {"binary bytes flipped",
         [&] {
           std::string s = good;
           for (size_t i = s.size() - 64; i < s.size() - 32; ++i) s[i] = static_cast<char>(~s[i]);
           return s;
         }()},
        {"trailing garbage", good + "garbage"},
        {"stale key (another source under this name)",
         [&] {
           std::string s = good;
           const auto pos = s.find("source:\n");
           s[pos + 10] = s[pos + 10] == 'x' ? 'y' : 'x';
           return s;
         }()},
    };
    for (const auto& [what, bytes] : corruptions) {
      INFO(what);
      spit(file, bytes);
      const BuiltProgram again = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32");
      CHECK(again.cache == "miss");
      CHECK(!again.cache_note.empty());
      CHECK(program_runs(p, again.program));
      // Overwritten with a good entry (not necessarily byte-equal: PoCL binaries
      // also carry the work-group functions compiled since).
      const std::string rewritten = slurp(file);
      CHECK(rewritten != bytes);
      CHECK(rewritten.rfind("OCL_SP_PROGRAM_CACHE 1\n", 0) == 0);
      CHECK(build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32").cache == "hit");
    }
    // No temporary files are left behind.
    for (const auto& f : cache_files(dir.path())) CHECK(f.find(".tmp") == std::string::npos);
  }

  TEST_CASE("OCL_SP_NO_CACHE disables the cache") {
    TempDir dir("ocl_sp_cache");
    const EnvGuard cd("OCL_SP_CACHE_DIR", dir.path());
    const EnvGuard nc("OCL_SP_NO_CACHE", std::string("1"));
    Pocl p;
    const BuiltProgram b = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_FLOAT32");
    CHECK(b.cache == "n/a");
    CHECK(b.cache_file.empty());
    CHECK(cache_files(dir.path()).empty());
    CHECK(program_runs(p, build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32").program));
  }

  TEST_CASE("an unwritable cache folder only costs the cache") {
    const EnvGuard cd("OCL_SP_CACHE_DIR", std::string("/proc/ocl_sp_cannot_be_here"));
    const EnvGuard nc("OCL_SP_NO_CACHE", std::nullopt);
    Pocl p;
    const BuiltProgram b = build_program(p.ctx, p.dev.device, kFiles, "-DVALUE_INT32");
    CHECK(b.cache == "miss");
    CHECK(b.cache_note.find("cache not written") != std::string::npos);
    CHECK(program_runs(p, b.program));
  }

  TEST_CASE("a build failure names the device, the options and the log") {
    ocl_sp_test::use_temp_program_cache();
    TempDir kdir("ocl_sp_kdir");
    spit(kdir.path() + "/common.cl", kernel_source("common.cl"));
    spit(kdir.path() + "/broken.cl",
         "__kernel void broken(__global int* d) {\n  d[0] = undeclared_thing;\n}\n");
    const EnvGuard kd("OCL_SP_KERNEL_DIR", kdir.path());
    Pocl p;
    try {
      build_program(p.ctx, p.dev.device, {"common.cl", "broken.cl"}, "-DVALUE_INT32 -DWG=4");
      FAIL("no exception");
    } catch (const RuntimeError& e) {
      const std::string m = e.what();
      INFO(m);
      CHECK(m.find(p.dev.name) != std::string::npos);
      CHECK(m.find("-DVALUE_INT32 -DWG=4") != std::string::npos);
      CHECK(m.find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
      CHECK(m.find("undeclared_thing") != std::string::npos);  // from the build log
      CHECK(m.find("broken.cl lines") != std::string::npos);
    }
    // The error type is RuntimeError, never a raw cl::Error.
    CHECK_THROWS_AS(build_program(p.ctx, p.dev.device, {"common.cl"}, "-DVALUE_INT32 -bogus-flag"),
                    RuntimeError);
  }
}
