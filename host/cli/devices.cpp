// `ocl_sp devices`: every OpenCL platform and device with the facts that matter
// for choosing one and sizing a run, as a table or JSON.
#include <cstdio>
#include <iostream>

#include "cl/device.hpp"
#include "cli/commands.hpp"
#include "report/json.hpp"

namespace ocl_sp {

Command set_devices_command(CLI::App& app) {
  auto* sub = app.add_subcommand("devices", "List OpenCL platforms and devices");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "JSON on stdout");
  Command c;
  c.app = sub;
  c.run = [json]() {
    const auto devs = list_devices();
    if (*json) {
      JsonWriter j(std::cout);
      j.begin_object().field("command", "devices").key("devices").begin_array();
      for (const auto& d : devs) {
        j.begin_object()
            .field("id", d.id())
            .field("platform", d.platform_name)
            .field("vendor", d.vendor)
            .field("vendor_key", d.vendor_key())
            .field("name", d.name)
            .field("type", d.type)
            .field("compute_units", static_cast<long long>(d.compute_units))
            .field("global_mem", static_cast<long long>(d.global_mem))
            .field("local_mem", static_cast<long long>(d.local_mem))
            .field("max_alloc", static_cast<long long>(d.max_alloc))
            .field("max_work_group", static_cast<long long>(d.max_work_group))
            .field("opencl_c", d.opencl_c_version)
            .field("driver", d.driver_version)
            .end_object();
      }
      j.end_array().end_object();
      std::cout << "\n";
      return 0;
    }
    if (devs.empty()) {
      std::cout << "No OpenCL device found. " << no_platform_hint() << "\n";
      return 0;
    }
    std::string last_platform;
    for (const auto& d : devs) {
      if (d.platform_name != last_platform) {
        std::cout << "Platform " << d.platform_index << ": " << d.platform_name << " ("
                  << d.platform_vendor << ")\n";
        last_platform = d.platform_name;
      }
      std::printf("  %s  %-4s %s\n", d.id().c_str(), d.type.c_str(), d.name.c_str());
      std::printf(
          "        vendor %s, %u compute units, global %.1f GiB, local %llu KiB, max alloc %.1f "
          "GiB, max work-group %zu\n        %s, driver %s\n",
          d.vendor.c_str(), d.compute_units, d.global_mem / 1073741824.0, d.local_mem / 1024,
          d.max_alloc / 1073741824.0, d.max_work_group, d.opencl_c_version.c_str(),
          d.driver_version.c_str());
    }
    std::cout.flush();
    return 0;
  };
  return c;
}

}  // namespace ocl_sp
