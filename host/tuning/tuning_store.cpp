// The tuning store (see tuning_store.hpp): a small line format read leniently and
// written atomically.
#include "tuning/tuning_store.hpp"

#include "cl/program.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

#include "cl/device.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

namespace {

constexpr const char* kMagic = "ocl_sp-tuning 1";

std::string clean(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return trim(s);
}

bool parse_params(const std::string& s, Tunables& out) {
  out.clear();
  if (s == "-") return true;
  std::istringstream in(s);
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    try {
      size_t used = 0;
      const std::string v = item.substr(eq + 1);
      const int x = std::stoi(v, &used);
      if (used != v.size()) return false;
      out[item.substr(0, eq)] = x;
    } catch (const std::exception&) {
      return false;
    }
  }
  return !out.empty();
}

bool parse_type(const std::string& s, ValueType& t) {
  for (ValueType v : {ValueType::int32, ValueType::float32, ValueType::int64, ValueType::float64})
    if (s == to_string(v)) {
      t = v;
      return true;
    }
  return false;
}

}  // namespace

std::string device_tuning_key(const std::string& platform, const std::string& device,
                              const std::string& driver) {
  return clean(platform) + " | " + clean(device) + " | " + clean(driver);
}

std::string device_tuning_key(const DeviceEntry& d) {
  return device_tuning_key(d.platform_name, d.name, d.driver_version);
}

std::string tuning_dir() {
  // The program cache's folder (one rule for both), else one in the working folder.
  const std::string d = cache_dir();
  return d.empty() ? ".ocl_sp_cache" : d;
}

std::string tuning_file() { return tuning_dir() + "/tuning.txt"; }

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<TunedRecord> read_tuning_file(const std::string& path,
                                          std::vector<std::string>* warnings) {
  std::ifstream in(path);
  if (!in) return {};  // no file yet: nothing tuned
  return read_tuning_file(in, path, warnings);
}

std::vector<TunedRecord> read_tuning_file(std::istream& in, const std::string& path,
                                          std::vector<std::string>* warnings) {
  std::vector<TunedRecord> out;
  auto warn = [&](long line, const std::string& what) {
    if (warnings) warnings->push_back(path + ":" + std::to_string(line) + ": " + what);
  };
  std::string line;
  long no = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty() || line[0] == '#') continue;
    if (!header) {
      if (trim(line) != kMagic) {
        warn(no, "not an ocl_sp tuning file (expected '" + std::string(kMagic) + "'); ignoring it");
        return {};
      }
      header = true;
      continue;
    }
    const auto f = split(line, '\t');
    TunedRecord r;
    bool ok = f.size() == 7;
    if (ok) {
      try {
        r.algo = parse_algo(f[0]);
      } catch (const UsageError&) {
        ok = false;
      }
    }
    ok = ok && parse_type(f[1], r.type) && parse_params(f[2], r.params);
    if (ok) {
      try {
        size_t a = 0, b = 0;
        r.n = std::stoll(f[3], &a);
        r.seconds = std::stod(f[4], &b);
        ok = a == f[3].size() && b == f[4].size();
      } catch (const std::exception&) {
        ok = false;
      }
    }
    r.date = ok ? f[5] : "";
    r.device_key = ok ? trim(f[6]) : "";
    if (!ok || r.device_key.empty()) {
      warn(no, "malformed record skipped");
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string format_tuning_file(const std::vector<TunedRecord>& records) {
  std::ostringstream o;
  o << "# ocl_sp tuning file: the best kernel parameters found by 'ocl_sp sweep', per\n"
       "# device and driver, algorithm and type. Safe to delete; edit with care.\n"
       "# Fields (tab-separated): algorithm, type, parameters, n, median seconds, date,\n"
       "# device key (platform | device | driver).\n"
    << kMagic << "\n";
  for (const auto& r : records) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.6g", r.seconds);
    // A blank date is "-" like an empty one, so what is read back writes the same
    // (a blank one used to become an empty field, then "-": found by tests/fuzz).
    const std::string date = clean(r.date);
    o << to_string(r.algo) << '\t' << to_string(r.type) << '\t' << to_string(r.params) << '\t'
      << r.n << '\t' << secs << '\t' << (date.empty() ? "-" : date) << '\t' << clean(r.device_key)
      << '\n';
  }
  return o.str();
}

void write_tuning_file(const std::string& path, const std::vector<TunedRecord>& records) {
  const auto dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec)
    throw RuntimeError("cannot create the folder '" + dir.string() +
                       "' for the tuning file: " + ec.message());
  const std::string text = format_tuning_file(records);
  write_file_atomically(path, [&](std::ostream& o) { o << text; });
}

std::optional<Tunables> lookup_tuned(const std::string& device_key, Algo algo, ValueType type,
                                     std::string* where) {
  static std::mutex mu;
  static std::set<std::string> warned;  // one warning per file and process
  const std::string path = tuning_file();
  std::vector<std::string> warnings;
  const auto records = read_tuning_file(path, &warnings);
  if (!warnings.empty()) {
    std::lock_guard<std::mutex> lock(mu);
    if (warned.insert(path).second)
      for (const auto& w : warnings) std::cerr << "warning: tuning file " << w << "\n";
  }
  const std::string key = clean(device_key);
  for (const auto& r : records)
    if (r.device_key == key && r.algo == algo && r.type == type) {
      if (where) *where = path + " (sweep at n = " + std::to_string(r.n) + ", " + r.date + ")";
      return r.params;
    }
  return std::nullopt;
}

std::string store_tuned(TunedRecord record) {
  const std::string path = tuning_file();
  std::vector<std::string> warnings;
  auto records = read_tuning_file(path, &warnings);
  for (const auto& w : warnings)
    std::cerr << "warning: tuning file " << w << " (rewriting the file)\n";
  record.device_key = clean(record.device_key);
  if (record.date.empty()) record.date = utc_timestamp();
  bool replaced = false;
  for (auto& r : records)
    if (r.device_key == record.device_key && r.algo == record.algo && r.type == record.type) {
      r = record;
      replaced = true;
    }
  if (!replaced) records.push_back(record);
  write_tuning_file(path, records);
  return path;
}

}  // namespace ocl_sp
