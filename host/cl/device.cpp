// OpenCL device discovery and selection (see device.hpp). Discovery goes through
// the C API for clGetPlatformIDs so that "no ICD installed" (-1001 or zero
// platforms) is a normal, empty answer rather than an exception; matching and
// selection are pure functions over DeviceEntry strings.
#include "cl/device.hpp"

#include <algorithm>

#include <cstdlib>
#include <mutex>
#include <sstream>

#include "cl/cl_error.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

namespace {

std::string type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "gpu";
  if (t & CL_DEVICE_TYPE_CPU) return "cpu";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

// Vendor words users type, mapped to vendor_key() values. Full vendor strings
// ("Advanced Micro Devices", "AuthenticAMD", ...) are accepted as spec words too.
std::string canonical_vendor_word(const std::string& w) {
  if (w == "amd" || w == "advanced micro devices" || w == "advanced micro devices, inc." ||
      w == "authenticamd")
    return "amd";
  if (w == "nvidia" || w == "nvidia corporation") return "nvidia";
  if (w == "intel" || w == "intel(r) corporation" || w == "genuineintel") return "intel";
  if (w == "pocl" || w == "portable computing language" || w == "the pocl project") return "pocl";
  return "";
}

bool is_index_spec(const std::string& w, int& p, int& d) {
  const auto colon = w.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == w.size()) return false;
  for (size_t i = 0; i < w.size(); ++i)
    if (i != colon && !std::isdigit(static_cast<unsigned char>(w[i]))) return false;
  try {
    p = std::stoi(w.substr(0, colon));
    d = std::stoi(w.substr(colon + 1));
  } catch (...) {
    return false;
  }
  return true;
}

bool word_matches(const DeviceEntry& dev, const std::string& raw) {
  const std::string w = lower(trim(raw));
  if (w.empty()) return true;
  int p = 0, d = 0;
  if (is_index_spec(w, p, d)) return dev.platform_index == p && dev.device_index == d;
  const std::string v = canonical_vendor_word(w);
  if (!v.empty()) return dev.vendor_key() == v;
  if (w == "gpu" || w == "cpu" || w == "accelerator") return dev.type == w;
  return contains_ci(dev.name, w);
}

std::string env_spec() {
  const char* e = std::getenv("OCL_SP_DEVICE");
  return e ? trim(e) : "";
}

// CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV of cl_nv_device_attribute_query
// (cl_ext.h), spelled out so the build does not depend on that header's version.
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;

// A string property; "" where the driver refuses one (never fatal for a listing).
std::string str_info(const cl::Device& d, cl_device_info what) {
  try {
    std::string s;
    d.getInfo(what, &s);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return trim(s);
  } catch (const cl::Error&) {
    return "";
  }
}

}  // namespace

std::string DeviceEntry::vendor_key() const {
  // The implementation decides the key: PoCL on an AMD or Intel CPU reports the
  // CPU maker as device vendor but is still PoCL.
  if (contains_ci(platform_name, "portable computing language") ||
      contains_ci(platform_vendor, "pocl"))
    return "pocl";
  for (const std::string& s : {vendor, platform_vendor, platform_name}) {
    if (contains_ci(s, "nvidia")) return "nvidia";
    if (contains_ci(s, "advanced micro devices") || contains_ci(s, "authenticamd") ||
        lower(s) == "amd" || lower(s).rfind("amd ", 0) == 0)
      return "amd";
    if (contains_ci(s, "intel")) return "intel";
  }
  return "other";
}

namespace {

bool is_pocl_platform(const std::string& pname, const std::string& pvendor) {
  return contains_ci(pname, "portable computing language") || contains_ci(pvendor, "pocl");
}

// True when no device of a PoCL platform can match `spec` (as select_all_from reads
// it): every item names a vendor other than PoCL, and a PoCL device's vendor_key()
// is "pocl" whatever its hardware. Creating PoCL's device list initialises its
// runtime (`ocl_sp devices` took 0.19-0.48 s on H100 machines with PoCL beside
// the driver), so a solve on `--device nvidia` skips it.
bool excludes_pocl(const std::string& spec_in) {
  std::string spec = trim(spec_in);
  if (spec.empty()) spec = env_spec();
  if (spec.empty()) return false;
  for (const std::string& raw : split(spec, ',')) {
    std::string item = lower(trim(raw));
    if (item.size() > 4 && item.compare(item.size() - 4, 4, ":all") == 0)
      item = item.substr(0, item.size() - 4);
    bool other_vendor = false;
    for (const std::string& w : split(item, '+')) {
      const std::string v = canonical_vendor_word(lower(trim(w)));
      other_vendor |= !v.empty() && v != "pocl";
    }
    if (!other_vendor) return false;
  }
  return true;
}

// One enumeration at a time in the process: PoCL (3.1) initialises its devices at
// the first clGetDeviceIDs, and a thread that asks while another initialises gets
// CL_DEVICE_NOT_FOUND (4 threads' first calls: 1 to 3 of them, in 5 of 6 runs),
// which read as "no OpenCL platform found" (Sessions started side by side).
std::mutex& enumeration_mutex() {
  static std::mutex mu;
  return mu;
}

std::vector<DeviceEntry> list_devices_except_pocl(bool skip_pocl) {
  std::lock_guard<std::mutex> lock(enumeration_mutex());
  std::vector<DeviceEntry> out;
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || np == 0) return out;
  if (err != CL_SUCCESS) throw RuntimeError("cannot list OpenCL platforms: " + cl_error_name(err));
  std::vector<cl_platform_id> ids(np);
  err = clGetPlatformIDs(np, ids.data(), nullptr);
  if (err != CL_SUCCESS) throw RuntimeError("cannot list OpenCL platforms: " + cl_error_name(err));
  for (cl_uint pi = 0; pi < np; ++pi) {
    cl::Platform platform(ids[pi]);
    std::string pname, pvendor;
    try {
      pname = trim(platform.getInfo<CL_PLATFORM_NAME>());
      pvendor = trim(platform.getInfo<CL_PLATFORM_VENDOR>());
    } catch (const cl::Error&) {
    }
    if (skip_pocl && is_pocl_platform(pname, pvendor)) continue;
    cl_uint nd = 0;
    err = clGetDeviceIDs(ids[pi], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
    if (err != CL_SUCCESS || nd == 0) continue;  // CL_DEVICE_NOT_FOUND: a platform with no device
    std::vector<cl_device_id> dids(nd);
    if (clGetDeviceIDs(ids[pi], CL_DEVICE_TYPE_ALL, nd, dids.data(), nullptr) != CL_SUCCESS)
      continue;
    for (cl_uint di = 0; di < nd; ++di) {
      DeviceEntry e;
      e.platform_index = static_cast<int>(pi);
      e.device_index = static_cast<int>(di);
      e.platform = platform;
      e.device = cl::Device(dids[di], false);
      e.platform_name = pname;
      e.platform_vendor = pvendor;
      e.name = str_info(e.device, CL_DEVICE_NAME);
      e.vendor = str_info(e.device, CL_DEVICE_VENDOR);
      e.driver_version = str_info(e.device, CL_DRIVER_VERSION);
      e.device_version = str_info(e.device, CL_DEVICE_VERSION);
      e.opencl_c_version = str_info(e.device, CL_DEVICE_OPENCL_C_VERSION);
      try {
        e.type = type_name(e.device.getInfo<CL_DEVICE_TYPE>());
        e.compute_units = e.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
        e.global_mem = e.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
        e.local_mem = e.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
        e.max_alloc = e.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
        e.max_work_group = e.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
        e.extensions = str_info(e.device, CL_DEVICE_EXTENSIONS);
        if (e.has_extension("cl_nv_device_attribute_query")) {
          cl_uint major = 0;
          if (clGetDeviceInfo(dids[di], kComputeCapabilityMajorNv, sizeof major, &major, nullptr) ==
              CL_SUCCESS)
            e.nv_compute_major = major;
        }
      } catch (const cl::Error&) {
        if (e.type.empty()) e.type = "other";
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

// select_all_from over the devices that can match `spec`; on any failure the
// selection is repeated over every device, so messages list all of them.
std::vector<DeviceEntry> select_all_installed(const std::string& spec) {
  if (excludes_pocl(spec)) {
    try {
      const auto devices = list_devices_except_pocl(true);
      if (!devices.empty()) return select_all_from(devices, spec);
    } catch (const std::exception&) {
    }
  }
  const auto devices = list_devices();
  if (devices.empty()) throw RuntimeError("no OpenCL platform found. " + no_platform_hint());
  return select_all_from(devices, spec);
}

}  // namespace

bool DeviceEntry::has_extension(const std::string& name) const {
  size_t at = 0;
  while ((at = extensions.find(name, at)) != std::string::npos) {
    const size_t end = at + name.size();
    if ((at == 0 || extensions[at - 1] == ' ') && (end == extensions.size() || extensions[end] == ' '))
      return true;
    at = end;
  }
  return false;
}

std::vector<DeviceEntry> list_devices() { return list_devices_except_pocl(false); }

bool device_matches(const DeviceEntry& d, const std::string& spec) {
  for (const std::string& w : split(spec, '+'))
    if (!word_matches(d, w)) return false;
  return true;
}

std::string describe_devices(const std::vector<DeviceEntry>& devices) {
  std::ostringstream os;
  for (const auto& d : devices)
    os << "  " << d.id() << "  " << d.name << "  [" << d.vendor_key() << ", " << d.type << ", "
       << d.platform_name << "]\n";
  return os.str();
}

namespace {
bool is_list(const std::string& spec) {
  const std::string l = lower(spec);
  return spec.find(',') != std::string::npos || l == "all" ||
         (l.size() > 4 && l.compare(l.size() - 4, 4, ":all") == 0);
}
}  // namespace

bool names_device_list(const std::string& spec) { return is_list(trim(spec)); }

DeviceEntry select_from(const std::vector<DeviceEntry>& devices, const std::string& spec_in) {
  std::string spec = trim(spec_in);
  std::string origin = "--device";
  if (spec.empty()) {
    spec = env_spec();
    origin = "OCL_SP_DEVICE";
  }
  if (is_list(spec)) {
    const auto all = select_all_from(devices, spec);
    if (all.size() != 1)
      throw UsageError("'" + spec + "' (from " + origin + ") names " + std::to_string(all.size()) +
                       " devices, but this runs on one; several devices in one solve are for "
                       "--algo fw");
    return all.front();
  }
  if (devices.empty()) throw RuntimeError("no OpenCL device found. " + no_platform_hint());
  if (spec.empty()) {
    for (const char* t : {"gpu", "cpu"})
      for (const auto& d : devices)
        if (d.type == t) return d;
    return devices.front();
  }
  for (const auto& d : devices)
    if (device_matches(d, spec)) return d;
  throw RuntimeError("no OpenCL device matches '" + spec + "' (from " + origin +
                     "); devices present:\n" + describe_devices(devices) +
                     "Use a vendor (amd, nvidia, intel, pocl), a type (gpu, cpu), an index "
                     "P:D or part of a device name; `ocl_sp devices` lists them.");
}

std::vector<DeviceEntry> select_all_from(const std::vector<DeviceEntry>& devices,
                                         const std::string& spec_in) {
  std::string spec = trim(spec_in);
  if (spec.empty()) spec = env_spec();
  if (!is_list(spec)) return {select_from(devices, spec)};
  std::vector<DeviceEntry> out;
  const auto add = [&](const DeviceEntry& d, const std::string& item) {
    for (const auto& o : out)
      if (o.id() == d.id())
        throw UsageError("--device '" + spec + "': device " + d.id() + " (" + d.name +
                         ") is named twice ('" + item + "'); each device can take part once");
    out.push_back(d);
  };
  for (const std::string& raw : split(spec, ',')) {
    const std::string item = trim(raw), l = lower(item);
    if (item.empty()) throw UsageError("--device '" + spec + "': empty item in the list");
    if (l == "all" || (l.size() > 4 && l.compare(l.size() - 4, 4, ":all") == 0)) {
      const std::string words = l == "all" ? "" : item.substr(0, item.size() - 4);
      size_t found = 0;
      for (const auto& d : devices)
        if (words.empty() || device_matches(d, words)) {
          add(d, item);
          ++found;
        }
      if (found == 0) select_from(devices, words);  // throws the listing
    } else {
      add(select_from(devices, item), item);
    }
  }
  return out;
}

std::vector<DeviceEntry> select_devices(const std::string& spec, int parts) {
  auto chosen = select_all_installed(spec);
  if (parts <= 1) return chosen;
  std::vector<DeviceEntry> out;
  for (const DeviceEntry& d : chosen) {
    const std::string why = "--split " + std::to_string(parts) + ": device " + d.id() + " (" +
                            d.name + ") ";
    std::vector<cl_device_partition_property> props;
    cl_uint max_sub = 0;
    try {
      props = d.device.getInfo<CL_DEVICE_PARTITION_PROPERTIES>();
      max_sub = d.device.getInfo<CL_DEVICE_PARTITION_MAX_SUB_DEVICES>();
    } catch (const cl::Error&) {
    }
    if (std::find(props.begin(), props.end(), CL_DEVICE_PARTITION_EQUALLY) == props.end())
      throw UsageError(why + "cannot be partitioned into equal sub-devices (the driver offers "
                       "no CL_DEVICE_PARTITION_EQUALLY; GPUs usually cannot be split)");
    if (max_sub < static_cast<cl_uint>(parts) || d.compute_units < static_cast<unsigned>(parts))
      throw UsageError(why + "can be split into at most " + std::to_string(max_sub) +
                       " sub-devices (" + std::to_string(d.compute_units) + " compute units)");
    const cl_device_partition_property per = static_cast<cl_device_partition_property>(d.compute_units / static_cast<unsigned>(parts));
    const cl_device_partition_property list[] = {CL_DEVICE_PARTITION_EQUALLY, per, 0};
    std::vector<cl::Device> subs;
    try {
      cl::Device parent = d.device;
      parent.createSubDevices(list, &subs);
    } catch (const cl::Error&) {
      throw RuntimeError(why + "refused the partition: clCreateSubDevices failed");
    }
    // The sub-devices live until the process ends: PoCL (3.1) may free a released
    // sub-device while its worker threads still finish the events of a queue on it,
    // and then calls through the freed device (a crash in POclReleaseEvent: 3 of 40
    // runs of the split tests, none without split; tests/test_panel_engine.cpp
    // "made and dropped in a row" crashed in 8 of 15 runs). A few bytes each.
    static auto* kept = new std::vector<cl::Device>;
    {
      std::lock_guard<std::mutex> lock(enumeration_mutex());  // sessions split side by side
      kept->insert(kept->end(), subs.begin(), subs.end());
    }
    for (int k = 0; k < parts && k < static_cast<int>(subs.size()); ++k) {
      DeviceEntry e = d;
      e.device = subs[static_cast<size_t>(k)];
      e.name = d.name + " [part " + std::to_string(k + 1) + "/" + std::to_string(parts) + "]";
      e.compute_units = static_cast<unsigned>(per);
      e.global_mem = d.global_mem / static_cast<unsigned long long>(parts);
      out.push_back(e);
    }
  }
  return out;
}

DeviceEntry select_device(const std::string& spec) {
  if (excludes_pocl(spec)) {
    try {
      const auto devices = list_devices_except_pocl(true);
      if (!devices.empty()) return select_from(devices, spec);
    } catch (const std::exception&) {
    }
  }
  const auto devices = list_devices();
  if (devices.empty()) throw RuntimeError("no OpenCL platform found. " + no_platform_hint());
  return select_from(devices, spec);
}

std::string no_platform_hint() {
  return "The OpenCL ICD loader found no platform: install a driver's ICD, e.g. "
         "`apt install pocl-opencl-icd` for the CPU, the AMD ROCm/Adrenalin or Intel compute "
         "runtime, or the NVIDIA driver. Each installed driver needs a file in "
         "/etc/OpenCL/vendors/ (an NVIDIA driver whose ICD file is missing needs "
         "/etc/OpenCL/vendors/nvidia.icd containing the line libnvidia-opencl.so.1); "
         "`clinfo -l` shows what the loader sees. Or use --backend openmp.";
}

}  // namespace ocl_sp
