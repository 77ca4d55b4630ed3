// Device discovery and selection (host/cl/device.cpp): spec words, vendor aliases,
// P:D indices, name substrings, the OCL_SP_DEVICE default, the GPU-then-CPU order
// and the messages for an absent device or no platform — all on hand-made device
// lists, so no hardware is needed; then the real PoCL device.
#include <doctest/doctest.h>

#include "cl/cl_error.hpp"
#include "cl/device.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using ocl_sp_test::EnvGuard;

namespace {

DeviceEntry entry(int p, int d, std::string platform, std::string pvendor, std::string vendor,
                  std::string name, std::string type) {
  DeviceEntry e;
  e.platform_index = p;
  e.device_index = d;
  e.platform_name = std::move(platform);
  e.platform_vendor = std::move(pvendor);
  e.vendor = std::move(vendor);
  e.name = std::move(name);
  e.type = std::move(type);
  return e;
}

// A machine with every kind of implementation; PoCL (on an AMD CPU) comes first.
std::vector<DeviceEntry> zoo() {
  return {
      entry(0, 0, "Portable Computing Language", "The pocl project", "AuthenticAMD",
            "pthread-skylake-avx512-AMD EPYC", "cpu"),
      entry(1, 0, "AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.",
            "Advanced Micro Devices, Inc.", "gfx1030", "gpu"),
      entry(1, 1, "AMD Accelerated Parallel Processing", "Advanced Micro Devices, Inc.",
            "AuthenticAMD", "AMD Ryzen 9 5950X 16-Core Processor", "cpu"),
      entry(2, 0, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA Corporation",
            "NVIDIA GeForce GTX 1070", "gpu"),
      entry(3, 0, "Intel(R) OpenCL Graphics", "Intel(R) Corporation", "Intel(R) Corporation",
            "Intel(R) UHD Graphics 630", "gpu"),
  };
}

std::string select_id(const std::vector<DeviceEntry>& devs, const std::string& spec) {
  return select_from(devs, spec).id();
}

}  // namespace

TEST_SUITE("opencl_device") {
  TEST_CASE("vendor_key: the implementation decides, PoCL before the CPU maker") {
    const auto z = zoo();
    CHECK(z[0].vendor_key() == "pocl");
    CHECK(z[1].vendor_key() == "amd");
    CHECK(z[2].vendor_key() == "amd");
    CHECK(z[3].vendor_key() == "nvidia");
    CHECK(z[4].vendor_key() == "intel");
    CHECK(entry(0, 0, "Acme CL", "Acme", "Acme", "x", "accelerator").vendor_key() == "other");
  }

  TEST_CASE("spec words: vendors and their aliases, types, indices, name substrings") {
    const EnvGuard no_env("OCL_SP_DEVICE", std::nullopt);
    const auto z = zoo();
    struct Case {
      const char* spec;
      std::vector<bool> match;  // per zoo() entry
    };
    const std::vector<Case> cases = {
        {"amd", {false, true, true, false, false}},
        {"AMD", {false, true, true, false, false}},
        {"Advanced Micro Devices", {false, true, true, false, false}},
        {"AuthenticAMD", {false, true, true, false, false}},
        {"nvidia", {false, false, false, true, false}},
        {"NVIDIA", {false, false, false, true, false}},
        {"intel", {false, false, false, false, true}},
        {"pocl", {true, false, false, false, false}},
        {"Portable Computing Language", {true, false, false, false, false}},
        {"gpu", {false, true, false, true, true}},
        {"GPU", {false, true, false, true, true}},
        {"cpu", {true, false, true, false, false}},
        {"1:1", {false, false, true, false, false}},
        {"0:0", {true, false, false, false, false}},
        {"gtx 1070", {false, false, false, true, false}},
        {"GFX10", {false, true, false, false, false}},
        {"epyc", {true, false, false, false, false}},
        {"amd+cpu", {false, false, true, false, false}},
        {"gpu+ intel", {false, false, false, false, true}},
        {"radeon", {false, false, false, false, false}},
        {"9:9", {false, false, false, false, false}},
    };
    for (const auto& c : cases)
      for (size_t i = 0; i < z.size(); ++i) {
        INFO("spec '" << c.spec << "' vs " << z[i].id() << " " << z[i].name);
        CHECK(device_matches(z[i], c.spec) == c.match[i]);
      }
  }

  TEST_CASE("device lists: items in order, ':all', duplicates refused") {
    const EnvGuard no_env("OCL_SP_DEVICE", std::nullopt);
    const auto z = zoo();
    const auto ids = [&](const std::string& spec) {
      std::string s;
      for (const auto& d : select_all_from(z, spec)) s += (s.empty() ? "" : " ") + d.id();
      return s;
    };
    CHECK(ids("2:0,1:0") == "2:0 1:0");
    CHECK(ids("nvidia, amd") == "2:0 1:0");       // each item: its first match
    CHECK(ids("gpu:all") == "1:0 2:0 3:0");
    CHECK(ids("cpu:all") == "0:0 1:1");
    CHECK(ids("all") == "0:0 1:0 1:1 2:0 3:0");
    CHECK(ids("amd+cpu") == "1:1");               // '+' combines words of one item
    CHECK(ids("") == "1:0");                      // no list: the default device
    CHECK_THROWS_AS(select_all_from(z, "1:0,1:0"), UsageError);   // the same device twice
    CHECK_THROWS_AS(select_all_from(z, "gpu:all,nvidia"), UsageError);
    CHECK_THROWS_AS(select_all_from(z, "1:0,"), UsageError);      // empty item
    CHECK_THROWS_AS(select_all_from(z, "1:0,radeon"), RuntimeError);
    CHECK_THROWS_AS(select_from(z, "1:0,2:0"), UsageError);       // one-device solvers
    CHECK(select_from(z, "nvidia:all").id() == "2:0");            // a list of one is fine
  }

  TEST_CASE("default order: OCL_SP_DEVICE, then the first GPU, then the first CPU") {
    const auto z = zoo();
    {
      const EnvGuard env("OCL_SP_DEVICE", std::nullopt);
      CHECK(select_id(z, "") == "1:0");  // first GPU, although PoCL is listed first
      CHECK(select_id(z, "nvidia") == "2:0");
      CHECK(select_id({z[0], z[2]}, "") == "0:0");  // no GPU: first CPU
      CHECK(select_id({z[2], z[0]}, "") == "1:1");
      auto acc = entry(5, 0, "Acme CL", "Acme", "Acme", "npu", "accelerator");
      CHECK(select_id({acc}, "") == "5:0");  // neither: the first device
    }
    {
      const EnvGuard env("OCL_SP_DEVICE", std::string("intel"));
      CHECK(select_id(z, "") == "3:0");      // the environment is the default spec
      CHECK(select_id(z, "pocl") == "0:0");  // an explicit spec wins
    }
    {
      const EnvGuard env("OCL_SP_DEVICE", std::string(""));
      CHECK(select_id(z, "") == "1:0");  // empty variable = unset
    }
  }

  TEST_CASE("an absent device is an error that lists the devices present") {
    const auto z = zoo();
    {
      const EnvGuard env("OCL_SP_DEVICE", std::nullopt);
      try {
        select_from(z, "radeon");
        FAIL("no exception");
      } catch (const RuntimeError& e) {
        const std::string m = e.what();
        CHECK(m.find("'radeon'") != std::string::npos);
        CHECK(m.find("NVIDIA GeForce GTX 1070") != std::string::npos);
        CHECK(m.find("pthread-skylake-avx512-AMD EPYC") != std::string::npos);
        CHECK(m.find("2:0") != std::string::npos);
      }
    }
    {
      const EnvGuard env("OCL_SP_DEVICE", std::string("7:3"));
      try {
        select_from(z, "");
        FAIL("no exception");
      } catch (const RuntimeError& e) {
        CHECK(std::string(e.what()).find("OCL_SP_DEVICE") != std::string::npos);
      }
    }
  }

  TEST_CASE("no platform: the error carries the install hint") {
    const EnvGuard env("OCL_SP_DEVICE", std::nullopt);
    CHECK_THROWS_AS(select_from({}, ""), RuntimeError);
    try {
      select_from({}, "gpu");
    } catch (const RuntimeError& e) {
      const std::string m = e.what();
      CHECK(m.find("pocl-opencl-icd") != std::string::npos);
      CHECK(m.find("/etc/OpenCL/vendors/nvidia.icd") != std::string::npos);
      CHECK(m.find("libnvidia-opencl.so.1") != std::string::npos);
    }
    CHECK(no_platform_hint().find("pocl-opencl-icd") != std::string::npos);
  }

  TEST_CASE("cl_error_name never gives a bare number") {
    CHECK(cl_error_name(0) == "CL_SUCCESS (0)");
    CHECK(cl_error_name(-5) == "CL_OUT_OF_RESOURCES (-5)");
    CHECK(cl_error_name(-11) == "CL_BUILD_PROGRAM_FAILURE (-11)");
    CHECK(cl_error_name(-54) == "CL_INVALID_WORK_GROUP_SIZE (-54)");
    CHECK(cl_error_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR (-1001)");
    for (int code = -72; code <= 0; ++code) {
      if (code < -19 && code > -30) continue;  // unassigned range
      INFO(code);
      CHECK(cl_error_name(code).rfind("CL_", 0) == 0);
    }
    CHECK(cl_error_name(-12345).find("unknown OpenCL error") != std::string::npos);
  }

  TEST_CASE("the real machine: PoCL is listed and selectable") {
    const EnvGuard env("OCL_SP_DEVICE", std::nullopt);
    const auto devs = list_devices();
    REQUIRE_MESSAGE(!devs.empty(), "no OpenCL device: install pocl-opencl-icd");
    for (const auto& d : devs) {
      INFO(d.id() << " " << d.name);
      CHECK(!d.name.empty());
      CHECK(d.max_work_group > 0);
      CHECK(d.global_mem > 0);
      CHECK(device_matches(d, d.id()));
    }
    const DeviceEntry p = select_device("pocl");
    CHECK(p.vendor_key() == "pocl");
    CHECK(p.type == "cpu");
    CHECK(select_device("POCL").id() == p.id());
    CHECK(select_device(p.id()).id() == p.id());
    CHECK_THROWS_AS(select_device("no-such-device-anywhere"), RuntimeError);
  }
}
