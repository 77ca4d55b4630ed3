// The per-device tuning store: the best parameters `ocl_sp sweep` found, per
// device and driver (platform name | device name | driver version), algorithm
// and value type, kept in <cache folder>/tuning.txt. Solver construction looks
// here (command line > tuned > built-in). A corrupt file is reported on stderr
// and ignored, never fatal; writes are atomic.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

struct DeviceEntry;

// "PLATFORM | DEVICE | DRIVER"; a new driver is a new key (it may tune
// differently). Tabs and newlines in the names become spaces.
std::string device_tuning_key(const DeviceEntry& d);
std::string device_tuning_key(const std::string& platform, const std::string& device,
                              const std::string& driver);

struct TunedRecord {
  std::string device_key;
  Algo algo = Algo::fw;
  ValueType type = ValueType::int32;
  Tunables params;
  int64_t n = 0;       // problem size of the sweep
  double seconds = 0;  // its median solve time
  std::string date;    // UTC, ISO 8601
};

// $OCL_SP_CACHE_DIR, else $XDG_CACHE_HOME/ocl_sp, else $HOME/.cache/ocl_sp
// (the program cache's folder rule).
std::string tuning_dir();
std::string tuning_file();  // tuning_dir() + "/tuning.txt"

// The file format, version 1 (text, one record per line, tab-separated):
//   # comment lines
//   ocl_sp-tuning 1
//   ALGO <TAB> TYPE <TAB> PARAMS <TAB> N <TAB> SECONDS <TAB> DATE <TAB> DEVICE KEY
// with PARAMS as "BLOCK=64 WG=16" ("-" for none). A missing file is empty; a
// file without the version line is ignored as a whole, a malformed record line
// is skipped; each problem is appended to `warnings` ("PATH:LINE: what").
std::vector<TunedRecord> read_tuning_file(const std::string& path,
                                          std::vector<std::string>* warnings);
// The same on text already open (`name` stands for the file in warnings).
std::vector<TunedRecord> read_tuning_file(std::istream& in, const std::string& name,
                                          std::vector<std::string>* warnings);
std::string format_tuning_file(const std::vector<TunedRecord>& records);
// Atomic (temporary + rename); creates the folder. RuntimeError on I/O failure.
void write_tuning_file(const std::string& path, const std::vector<TunedRecord>& records);

// The tuned parameters for (device, algorithm, type) from tuning_file(), or
// nullopt. `where` (if given) receives e.g. "/home/u/.cache/ocl_sp/tuning.txt
// (sweep at n = 5000, 2026-11-22T10:00:00Z)". Warnings about a corrupt file go to
// stderr once per process and file.
std::optional<Tunables> lookup_tuned(const std::string& device_key, Algo algo, ValueType type,
                                     std::string* where = nullptr);
// Inserts or replaces the record of (device, algorithm, type) in tuning_file(),
// keeping every other record; a stamp-less record gets the current date.
// Returns the file written.
std::string store_tuned(TunedRecord record);

std::string utc_timestamp();  // "2026-11-22T10:00:00Z"

}  // namespace ocl_sp
