// OpenCL platform/device discovery and selection by spec (DESIGN.md):
// amd | nvidia | intel | cpu | gpu | pocl | P:D | name substring, case-insensitive,
// with vendor aliases; the environment variable OCL_SP_DEVICE is the default spec.
#pragma once
#include <string>
#include <vector>

#include "cl/cl.hpp"

namespace ocl_sp {

struct DeviceEntry {
  int platform_index = 0, device_index = 0;  // "P:D"
  cl::Platform platform;
  cl::Device device;
  std::string platform_name, platform_vendor;
  std::string name, vendor, driver_version, device_version, opencl_c_version;
  std::string type;  // gpu | cpu | accelerator | other
  unsigned compute_units = 0;
  unsigned long long global_mem = 0, local_mem = 0, max_alloc = 0;
  size_t max_work_group = 0;
  // NVIDIA's compute capability (cl_nv_device_attribute_query), 0 elsewhere: the
  // tiled kernels' cp.async staging needs sm_80 or later.
  unsigned nv_compute_major = 0;
  std::string extensions;  // CL_DEVICE_EXTENSIONS, space-separated
  // The extension is in `extensions` (a whole word).
  bool has_extension(const std::string& name) const;
  std::string id() const { return std::to_string(platform_index) + ":" + std::to_string(device_index); }
  std::string vendor_key() const;  // amd | nvidia | intel | pocl | other
};

// Every device of every platform; empty when no ICD/platform is installed.
std::vector<DeviceEntry> list_devices();

// Does the device match one spec word (no defaulting)?
bool device_matches(const DeviceEntry& d, const std::string& spec);

// The device for a spec: explicit spec, else $OCL_SP_DEVICE, else the first GPU,
// else the first CPU device. Throws RuntimeError listing the devices present when
// nothing matches, and RuntimeError with install hints when there is no platform.
DeviceEntry select_device(const std::string& spec);

// Help text for "no OpenCL platform found".
std::string no_platform_hint();

// The selection rule of select_device() over a given list, with no OpenCL calls, so
// it can be tested without hardware (entries need only their strings and indices).
// A spec item may combine words with '+' ("amd+gpu"): a device must match every word.
// Throws RuntimeError listing `devices` when nothing matches (or the list is empty);
// UsageError when the spec names several devices (a list: see select_all_from).
DeviceEntry select_from(const std::vector<DeviceEntry>& devices, const std::string& spec);

// Every device a spec names, in order (DESIGN.md "Scale"): comma-separated items
// ("1:0,1:1", "nvidia,amd"), each one device (its first match) or, with the
// suffix ":all" ("gpu:all") or the word "all", every match. UsageError when an
// item names a device another item already chose; RuntimeError as select_from
// when an item matches nothing. An empty spec is select_from's default device.
std::vector<DeviceEntry> select_all_from(const std::vector<DeviceEntry>& devices,
                                         const std::string& spec);

// Whether a spec names a list of devices (a comma, ":all" or "all").
bool names_device_list(const std::string& spec);

// select_all_from over the installed devices, each then partitioned into `split`
// equal sub-devices (clCreateSubDevices, CL_DEVICE_PARTITION_EQUALLY) when
// split > 1; UsageError naming the device when it cannot be partitioned so.
std::vector<DeviceEntry> select_devices(const std::string& spec, int split);

// "  0:0  NAME  [pocl, cpu, PLATFORM]" lines, one per device, for messages.
std::string describe_devices(const std::vector<DeviceEntry>& devices);

}  // namespace ocl_sp
