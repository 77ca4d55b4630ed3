// Kernel sources and program building with the on-disk binary cache (program.hpp).
// Cache entry = "<dir>/<fnv1a64(key) hex>.oclbin":
//   OCL_SP_PROGRAM_CACHE 1\n
//   <key length>\n<key text>            key = version, platform, device, driver, options, source
//   <binary length> <fnv1a64(binary) hex>\n<binary>
// The whole key text is compared on load, so a hash collision or a stale entry
// is a miss; a corrupt or unloadable entry is rebuilt from source and overwritten.
#include "cl/program.hpp"

#include <iostream>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "cl/cl_error.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/timer.hpp"

#ifndef OCL_SP_VERSION
#define OCL_SP_VERSION "unknown"
#endif

namespace ocl_sp {

// Generated from kernels/*.cl by cmake/embed_kernels.cmake.
const std::map<std::string, std::string>& embedded_kernels();

namespace {

constexpr const char* kMagic = "OCL_SP_PROGRAM_CACHE 1\n";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool read_whole_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Reads "<decimal>" up to `stop` at pos; false on anything else (19 digits at
// most: more could wrap around uint64_t into a plausible small length).
bool read_number(const std::string& s, size_t& pos, char stop, uint64_t& v) {
  const size_t end = s.find(stop, pos);
  if (end == std::string::npos || end == pos || end - pos > 19) return false;
  v = 0;
  for (size_t i = pos; i < end; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  pos = end + 1;
  return true;
}

}  // namespace

bool parse_cache_entry(const std::string& file, const std::string& key, std::string& binary,
                       std::string& why) {
  const size_t m = std::char_traits<char>::length(kMagic);
  if (file.compare(0, m, kMagic) != 0) return why = "bad header", false;
  size_t pos = m;
  uint64_t klen = 0, blen = 0;
  if (!read_number(file, pos, '\n', klen) || klen > file.size() - pos)
    return why = "bad key length", false;
  if (file.compare(pos, klen, key) != 0) return why = "key differs (stale entry)", false;
  pos += klen;
  if (!read_number(file, pos, ' ', blen)) return why = "bad binary length", false;
  const size_t nl = file.find('\n', pos);
  if (nl == std::string::npos) return why = "truncated", false;
  const std::string sum = file.substr(pos, nl - pos);
  pos = nl + 1;
  if (blen == 0 || blen != file.size() - pos) return why = "truncated or oversized binary", false;
  std::string bin = file.substr(pos);  // `binary` is only set on success
  if (hex64(fnv1a64(bin)) != sum) return why = "checksum mismatch", false;
  binary = std::move(bin);
  return true;
}

std::string format_cache_entry(const std::string& key, const std::string& binary) {
  return kMagic + std::to_string(key.size()) + '\n' + key + std::to_string(binary.size()) + ' ' +
         hex64(fnv1a64(binary)) + '\n' + binary;
}

namespace {

std::string device_name(const cl::Device& dev) {
  try {
    return dev.getInfo<CL_DEVICE_NAME>();
  } catch (const cl::Error&) {
    return "?";
  }
}

std::string strip_nul(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

struct Source {
  std::string text;
  std::string map;  // "common.cl lines 1-40, fw_blocked.cl lines 41-200" for build errors
};

Source concatenate(const std::vector<std::string>& files) {
  Source s;
  int line = 1;
  for (const auto& f : files) {
    std::string t = kernel_source(f);
    if (t.empty() || t.back() != '\n') t += '\n';
    int lines = 0;
    for (char c : t) lines += c == '\n';
    s.map += (s.map.empty() ? "" : ", ") + f + " lines " + std::to_string(line) + "-" +
             std::to_string(line + lines - 1);
    line += lines;
    s.text += t;
  }
  return s;
}

cl::Program build_from_source(const cl::Context& ctx, const cl::Device& dev,
                              const std::vector<std::string>& files, const Source& src,
                              const std::string& options) {
  cl::Program prog(ctx, src.text);
  try {
    prog.build(std::vector<cl::Device>{dev}, options.c_str());
    // Development aid: the compiler's own report (register use, spills) when asked
    // for, e.g. OCL_SP_EXTRA_BUILD_OPTIONS=-cl-nv-verbose OCL_SP_SHOW_BUILD_LOG=1.
    if (std::getenv("OCL_SP_SHOW_BUILD_LOG"))
      std::cerr << "build log (" << options << "):\n"
                << strip_nul(prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev)) << "\n";
  } catch (const cl::Error& e) {
    std::string log;
    if (const auto* be = dynamic_cast<const cl::BuildError*>(&e))
      for (const auto& [d, l] : be->getBuildLog())
        if (d() == dev()) log += l;
    if (log.empty()) {
      try {
        log = prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev);
      } catch (const cl::Error&) {
      }
    }
    log = strip_nul(log);
    if (log.size() > 20000) log = log.substr(0, 20000) + "\n... (build log truncated)";
    std::string names;
    for (const auto& f : files) names += (names.empty() ? "" : " + ") + f;
    throw RuntimeError(
        "cannot build OpenCL program " + names + " for device '" + device_name(dev) +
        "': " + cl_error_name(e.err()) + "\n  options: " + (options.empty() ? "(none)" : options) +
        "\n  source: " + src.map + "\n  build log:\n" + (log.empty() ? "(empty)" : log));
  }
  return prog;
}

// Where the source asks for register caps (ptx_register_caps) and the device's
// binary is NVIDIA's PTX: the program again from the capped PTX. A driver that
// rejects it keeps the program as built (the note says why).
cl::Program with_register_caps(const cl::Context& ctx, const cl::Device& dev, const Source& src,
                               const std::string& options, cl::Program prog, std::string& note) {
  const auto caps = ptx_register_caps(src.text);
  if (caps.empty()) return prog;
  try {
    if (dev.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") == std::string::npos) return prog;
    const auto bins = prog.getInfo<CL_PROGRAM_BINARIES>();
    if (bins.size() != 1) return prog;
    std::string ptx(bins[0].begin(), bins[0].end());
    if (cap_ptx_registers(ptx, caps) == 0) return prog;
    cl::Program::Binaries capped{std::vector<unsigned char>(ptx.begin(), ptx.end())};
    std::vector<cl_int> status;
    cl::Program out(ctx, std::vector<cl::Device>{dev}, capped, &status);
    out.build(std::vector<cl::Device>{dev}, options.c_str());
    return out;
  } catch (const cl::Error& e) {
    note = "register caps not applied: " + cl_error_name(e.err());
    return prog;
  }
}

}  // namespace

std::vector<PtxRegisterCap> ptx_register_caps(const std::string& source) {
  static const std::string tag = "// ocl_sp:nvidia-maxnreg ";
  std::vector<PtxRegisterCap> caps;
  for (size_t at = source.find(tag); at != std::string::npos; at = source.find(tag, at + 1)) {
    const size_t end = source.find('\n', at);
    std::istringstream line(source.substr(at + tag.size(), end == std::string::npos ? end : end - at - tag.size()));
    PtxRegisterCap c;
    if (line >> c.entry >> c.registers && c.registers >= 16 && c.registers <= 255) caps.push_back(c);
  }
  return caps;
}

int cap_ptx_registers(std::string& ptx, const std::vector<PtxRegisterCap>& caps) {
  int capped = 0;
  for (const auto& c : caps) {
    const std::string head = ".entry " + c.entry + "(";
    const size_t at = ptx.find(head);
    if (at == std::string::npos) continue;
    const size_t close = ptx.find(')', at + head.size());
    const size_t body = close == std::string::npos ? close : ptx.find('{', close);
    if (body == std::string::npos) continue;
    const std::string directive = ".maxnreg " + std::to_string(c.registers) + "\n";
    const size_t old = ptx.find(".maxnreg", close);
    if (old != std::string::npos && old < body) {
      const size_t eol = ptx.find('\n', old);
      ptx.replace(old, eol - old + 1, directive);
    } else {
      ptx.insert(body, directive);
    }
    ++capped;
  }
  return capped;
}

uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string kernel_source(const std::string& file) {
  const std::string dir = env("OCL_SP_KERNEL_DIR");
  if (!dir.empty()) {
    const std::string path = (std::filesystem::path(dir) / file).string();
    std::string text;
    if (!read_whole_file(path, text))
      throw RuntimeError("cannot read kernel file '" + path + "' (OCL_SP_KERNEL_DIR is set)");
    return text;
  }
  const auto& k = embedded_kernels();
  const auto it = k.find(file);
  if (it == k.end()) {
    std::string known;
    for (const auto& [name, text] : k) known += (known.empty() ? "" : ", ") + name;
    throw RuntimeError("no embedded kernel file '" + file + "' (have: " + known + ")");
  }
  return it->second;
}

bool cache_enabled() {
  const std::string v = env("OCL_SP_NO_CACHE");
  return v.empty() || v == "0";
}

std::string cache_dir() {
  if (const std::string d = env("OCL_SP_CACHE_DIR"); !d.empty()) return d;
  if (const std::string x = env("XDG_CACHE_HOME"); !x.empty())
    return (std::filesystem::path(x) / "ocl_sp").string();
  if (const std::string h = env("HOME"); !h.empty())
    return (std::filesystem::path(h) / ".cache" / "ocl_sp").string();
  return "";
}

BuiltProgram build_program(const cl::Context& ctx, const cl::Device& dev,
                           const std::vector<std::string>& files, const std::string& options) {
  Stopwatch sw;
  BuiltProgram out;
  const Source src = concatenate(files);
  const std::string dir = cache_enabled() ? cache_dir() : "";
  if (dir.empty()) {
    out.program = with_register_caps(ctx, dev, src, options, build_from_source(ctx, dev, files, src, options),
                                      out.cache_note);
    out.seconds = sw.seconds();
    return out;
  }

  const cl::Platform platform(dev.getInfo<CL_DEVICE_PLATFORM>());
  std::string key = "ocl_sp " OCL_SP_VERSION "\nplatform: ";
  key += strip_nul(platform.getInfo<CL_PLATFORM_NAME>()) +
         "\ndevice: " + strip_nul(device_name(dev)) +
         "\ndriver: " + strip_nul(dev.getInfo<CL_DRIVER_VERSION>()) + "\noptions: " + options +
         "\nsource:\n" + src.text;
  out.cache_file = (std::filesystem::path(dir) / (hex64(fnv1a64(key)) + ".oclbin")).string();

  std::string file;
  if (read_whole_file(out.cache_file, file)) {
    std::string binary;
    if (parse_cache_entry(file, key, binary, out.cache_note)) {
      try {
        cl::Program::Binaries bins{std::vector<unsigned char>(binary.begin(), binary.end())};
        std::vector<cl_int> status;
        cl::Program prog(ctx, std::vector<cl::Device>{dev}, bins, &status);
        prog.build(std::vector<cl::Device>{dev}, options.c_str());
        out.program = prog;
        out.cache_hit = true;
        out.cache = "hit";
        out.seconds = sw.seconds();
        return out;
      } catch (const cl::Error& e) {
        out.cache_note = "the driver rejected the cached binary: " + cl_error_name(e.err());
      }
    }
  }

  // A GPU driver's first compile of the tiled kernels can take seconds (NVIDIA:
  // 1-12 s): say why nothing seems to happen. Only on a miss of an enabled cache.
  bool gpu = false;
  try {
    gpu = (dev.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
  } catch (const cl::Error&) {
  }
  // Once per device and process: a solver may build several programs at once.
  if (gpu) {
    static std::mutex mutex;
    static std::set<cl_device_id> noted;
    const std::lock_guard<std::mutex> lock(mutex);
    if (noted.insert(dev()).second)
      std::cerr << "note: compiling kernels for " << strip_nul(device_name(dev))
                << " (first run; cached afterwards)" << std::endl;
  }
  out.program = with_register_caps(ctx, dev, src, options, build_from_source(ctx, dev, files, src, options),
                                    out.cache_note);
  out.cache = "miss";
  try {
    const auto bins = out.program.getInfo<CL_PROGRAM_BINARIES>();
    if (bins.size() == 1 && !bins[0].empty()) {
      const std::string binary(bins[0].begin(), bins[0].end());
      std::filesystem::create_directories(dir);
      write_file_atomically(out.cache_file,
                            [&](std::ostream& os) { os << format_cache_entry(key, binary); });
    }
  } catch (const std::exception& e) {
    // The program is built; a cache that cannot be written only costs the next start.
    out.cache_note = std::string("cache not written: ") + e.what();
  }
  out.seconds = sw.seconds();
  return out;
}

}  // namespace ocl_sp
