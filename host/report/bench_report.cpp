// Tables, CSV and JSON for bench and sweep results (see bench_report.hpp).
#include "report/bench_report.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "report/report.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/print_error.hpp"

namespace ocl_sp {

namespace {

std::vector<int64_t> sizes_of(const std::vector<ResultRow>& rows) {
  std::set<int64_t> s;
  for (const auto& r : rows) s.insert(r.n);
  return {s.begin(), s.end()};
}

// (series, n) -> row; first row wins.
std::map<std::pair<std::string, int64_t>, const ResultRow*> index_rows(
    const std::vector<ResultRow>& rows) {
  std::map<std::pair<std::string, int64_t>, const ResultRow*> m;
  for (const auto& r : rows) m.emplace(std::make_pair(r.series(), r.n), &r);
  return m;
}

struct SeriesKey {
  std::string column, algorithm;
  std::string name() const { return column + " " + algorithm; }
};

std::vector<SeriesKey> series_of(const std::vector<ResultRow>& rows) {
  std::vector<SeriesKey> out;
  std::set<std::string> seen;
  for (const auto& r : rows)
    if (seen.insert(r.series()).second) out.push_back({r.column, r.algorithm});
  return out;
}

std::string cell(const ResultRow* r) {
  if (!r) return "-";
  if (r->status == "ok") return format_number(r->total);
  if (r->status == "skipped")
    return r->estimate > 0
               ? "skip(~" + format_number(r->estimate, r->estimate < 100 ? "%.2g" : "%.0f") + ")"
               : "skip";
  if (r->status == "wrong") return "WRONG";
  return r->status;
}

std::string fmt_s(double s) { return format_seconds(s); }

}  // namespace

TextTable time_table(const std::vector<ResultRow>& rows) {
  TextTable t;
  const auto series = series_of(rows);
  const auto idx = index_rows(rows);
  std::string type = rows.empty() ? "" : rows.front().type;
  int reps = 0;
  for (const auto& r : rows) reps = std::max(reps, r.reps);
  t.title = "Table 2: solve time in seconds (median of " + std::to_string(reps) +
            " reps, without set-up T_o), " + type;
  t.header.push_back("n");
  for (const auto& s : series) t.header.push_back(s.name());
  for (int64_t n : sizes_of(rows)) {
    std::vector<std::string> line{std::to_string(n)};
    for (const auto& s : series) {
      auto it = idx.find({s.name(), n});
      line.push_back(cell(it == idx.end() ? nullptr : it->second));
    }
    t.rows.push_back(std::move(line));
  }
  // Legend: each column label once, with its device and driver.
  std::set<std::string> seen;
  for (const auto& r : rows)
    if (seen.insert(r.column).second) {
      std::string d = r.column + " = " + r.backend + ": " + r.device;
      if (!r.driver.empty()) d += " (driver " + r.driver + ")";
      t.notes.push_back(d);
    }
  bool skipped = false;
  for (const auto& r : rows) skipped = skipped || r.status == "skipped";
  if (skipped)
    t.notes.push_back(
        "skip(~S) = not run: estimated S seconds for the configuration, or it "
        "does not fit (see the status lines / JSON 'reason')");
  return t;
}

TextTable speedup_table(const std::vector<ResultRow>& rows,
                        const std::vector<std::string>& opencl_columns) {
  TextTable t;
  t.title = "Table 3: speedup T_A / T_B (same algorithm, median solve times)";
  t.header.push_back("n");
  const auto series = series_of(rows);
  const auto idx = index_rows(rows);
  std::set<std::string> present;
  for (const auto& s : series) present.insert(s.name());
  std::set<std::string> ocl(opencl_columns.begin(), opencl_columns.end());
  struct Ratio {
    std::string a, b, algo;  // T_a / T_b
  };
  std::vector<Ratio> ratios;
  std::set<std::string> algos_seen;
  std::vector<std::string> algos;
  for (const auto& s : series)
    if (algos_seen.insert(s.algorithm).second) algos.push_back(s.algorithm);
  for (const auto& algo : algos) {
    auto has = [&](const std::string& col) { return present.count(col + " " + algo) > 0; };
    // Over serial (the paper's CPU_SP column), then R1 = OpenMP / OpenCL, then
    // R2-like ratios between OpenCL devices.
    if (has("serial"))
      for (const auto& s : series)
        if (s.algorithm == algo && s.column != "serial")
          ratios.push_back({"serial", s.column, algo});
    if (has("openmp"))
      for (const auto& s : series)
        if (s.algorithm == algo && ocl.count(s.column))
          ratios.push_back({"openmp", s.column, algo});
    std::string first;
    for (const auto& c : opencl_columns)
      if (has(c)) {
        if (first.empty())
          first = c;
        else
          ratios.push_back({first, c, algo});
      }
  }
  for (const auto& r : ratios) t.header.push_back(r.algo + " " + r.a + "/" + r.b);
  for (int64_t n : sizes_of(rows)) {
    std::vector<std::string> line{std::to_string(n)};
    for (const auto& r : ratios) {
      auto a = idx.find({r.a + " " + r.algo, n});
      auto b = idx.find({r.b + " " + r.algo, n});
      if (a == idx.end() || b == idx.end() || a->second->status != "ok" ||
          b->second->status != "ok" || !(b->second->total > 0)) {
        line.push_back("-");
      } else {
        line.push_back(format_number(a->second->total / b->second->total, "%.3g") + "x");
      }
    }
    t.rows.push_back(std::move(line));
  }
  if (ratios.empty())
    t.notes.push_back("(no pair of device columns ran the same algorithm)");
  else
    t.notes.push_back(
        "A/B > 1: B is faster. Columns: over serial (CPU_SP), openmp/OpenCL (R1), "
        "between OpenCL devices (R2)");
  return t;
}

std::vector<std::string> csv_columns() {
  return {"schema_version",
          "column",
          "backend",
          "device",
          "vendor",
          "driver",
          "algorithm",
          "type",
          "n",
          "params",
          "params_source",
          "program_cache",
          "t_o",
          "t_h",
          "t_k",
          "total",
          "median",
          "min",
          "max",
          "reps",
          "relaxations",
          "relaxations_per_s",
          "products",
          "status",
          "reason",
          "verify",
          "estimate_s",
          "best",
          "paths",
          "paths_bytes"};
}

namespace {
// CSV records stay on one line (a build log in a reason has line breaks; the
// JSON keeps it whole).
std::string one_line(std::string s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') continue;
    if (s[i] == '\n') {
      if (!out.empty() && i + 1 < s.size()) out += " | ";
      continue;
    }
    out += s[i];
  }
  return out;
}
}  // namespace

std::string csv_row(const ResultRow& r) {
  const bool ok = r.status == "ok";
  auto num = [&](double v) { return ok ? format_number(v, "%.9g") : std::string(); };
  return csv_line({std::to_string(kBenchSchemaVersion),
                   r.column,
                   r.backend,
                   r.device,
                   r.vendor,
                   r.driver,
                   r.algorithm,
                   r.type,
                   std::to_string(r.n),
                   r.params.empty() ? "" : to_string(r.params),
                   r.params_source,
                   r.program_cache,
                   r.t_o > 0 ? format_number(r.t_o, "%.9g") : "",
                   num(r.t_h),
                   num(r.t_k),
                   num(r.total),
                   num(r.total),
                   num(r.min),
                   num(r.max),
                   ok ? std::to_string(r.reps) : "",
                   num(r.relaxations),
                   num(r.relaxations_per_s),
                   ok && r.products ? std::to_string(r.products) : "",
                   r.status,
                   one_line(r.reason),
                   r.verify,
                   r.estimate >= 0 ? format_number(r.estimate, "%.6g") : "",
                   r.best ? "1" : "0",
                   r.paths ? "1" : "0",
                   r.paths && ok ? format_number(r.paths_bytes, "%.9g") : ""});
}

void write_csv(std::ostream& out, const std::vector<ResultRow>& rows) {
  out << csv_line(csv_columns());
  for (const auto& r : rows) out << csv_row(r);
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> f{""};
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        f.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        f.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      f.emplace_back();
    } else if (c != '\r' && c != '\n') {
      f.back() += c;
    }
  }
  return f;
}

std::vector<ResultRow> read_csv(std::istream& in, const std::string& name) {
  std::string line;
  if (!std::getline(in, line)) throw UsageError(name + ": empty file, not an ocl_sp bench CSV");
  const auto header = split_csv_line(line);
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* need : {"column", "algorithm", "n", "status", "total"})
    if (!col.count(need))
      throw UsageError(name + ":1: not an ocl_sp bench CSV (no '" + std::string(need) +
                       "' column)");
  std::vector<ResultRow> rows;
  long no = 1;
  while (std::getline(in, line)) {
    ++no;
    if (line.empty() || line == "\r") continue;
    const auto f = split_csv_line(line);
    auto get = [&](const char* k) -> std::string {
      auto it = col.find(k);
      return it != col.end() && it->second < f.size() ? f[it->second] : std::string();
    };
    auto num = [&](const char* k) -> double {
      const std::string v = get(k);
      if (v.empty()) return 0;
      try {
        size_t used = 0;
        const double d = std::stod(v, &used);
        if (used == v.size()) return d;
      } catch (const std::exception&) {
      }
      throw UsageError(name + ":" + std::to_string(no) + ": '" + v + "' is not a number (" + k +
                       ")");
    };
    ResultRow r;
    r.column = get("column");
    r.backend = get("backend");
    r.device = get("device");
    r.vendor = get("vendor");
    r.driver = get("driver");
    r.algorithm = get("algorithm");
    r.type = get("type");
    r.n = static_cast<int64_t>(num("n"));
    std::istringstream ps(get("params"));
    for (std::string item; ps >> item;) {
      const auto eq = item.find('=');
      if (eq != std::string::npos) {
        try {
          r.params[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
        } catch (const std::exception&) {
        }
      }
    }
    r.params_source = get("params_source");
    r.program_cache = get("program_cache");
    r.t_o = num("t_o");
    r.t_h = num("t_h");
    r.t_k = num("t_k");
    r.total = num("total");
    r.min = num("min");
    r.max = num("max");
    r.reps = static_cast<int>(num("reps"));
    r.relaxations = num("relaxations");
    r.relaxations_per_s = num("relaxations_per_s");
    r.products = static_cast<int>(num("products"));
    r.status = get("status");
    r.reason = get("reason");
    r.verify = get("verify");
    r.estimate = get("estimate_s").empty() ? -1 : num("estimate_s");
    r.best = get("best") == "1";
    r.paths = get("paths") == "1";
    r.paths_bytes = num("paths_bytes");
    if (r.column.empty() || r.algorithm.empty() || r.status.empty())
      throw UsageError(name + ":" + std::to_string(no) + ": incomplete row");
    rows.push_back(std::move(r));
  }
  return rows;
}

void write_json_row(JsonWriter& j, const ResultRow& r) {
  const bool ok = r.status == "ok";
  j.begin_object();
  j.field("column", r.column).field("backend", r.backend).field("device", r.device);
  j.field("vendor", r.vendor).field("driver", r.driver);
  j.field("algorithm", r.algorithm).field("type", r.type).field("n", static_cast<long long>(r.n));
  j.key("params").begin_object();
  for (const auto& [k, v] : r.params) j.field(k, v);
  j.end_object();
  j.field("params_source", r.params_source).field("program_cache", r.program_cache);
  j.field("status", r.status).field("reason", r.reason);
  auto num = [&](const char* k, double v) {
    if (ok)
      j.field(k, v);
    else
      j.key(k).null();
  };
  if (r.t_o > 0)
    j.field("t_o", r.t_o);
  else
    j.key("t_o").null();
  num("t_h", r.t_h);
  num("t_k", r.t_k);
  num("total", r.total);
  num("median", r.total);
  num("min", r.min);
  num("max", r.max);
  j.field("reps", ok ? r.reps : 0);
  j.key("times").begin_array();
  for (double t : r.times) j.value(t);
  j.end_array();
  num("relaxations", r.relaxations);
  num("relaxations_per_s", r.relaxations_per_s);
  j.field("products", r.products);
  j.field("verify", r.verify).field("verify_detail", r.verify_detail);
  if (r.estimate >= 0)
    j.field("estimate_s", r.estimate);
  else
    j.key("estimate_s").null();
  j.field("estimate_basis", r.estimate_basis);
  j.field("best", r.best);
  j.field("paths", r.paths);
  if (r.paths && ok)
    j.field("paths_bytes", r.paths_bytes);
  else
    j.key("paths_bytes").null();
  j.end_object();
}

std::string status_text(const ResultRow& r) {
  char head[160];
  std::snprintf(head, sizeof head, "n=%-6lld %-10s %-9s %-16s ", static_cast<long long>(r.n),
                r.column.c_str(), r.algorithm.c_str(),
                r.params.empty() ? "-" : to_string(r.params).c_str());
  std::ostringstream o;
  o << head;
  if (r.status == "ok") {
    o << "ok  " << fmt_s(r.total) << " (min " << fmt_s(r.min) << ", max " << fmt_s(r.max) << ")";
    if (r.t_k > 0) o << "  T_k " << fmt_s(r.t_k);
    if (r.t_h > 0) o << "  T_h " << fmt_s(r.t_h);
    o << "  " << format_rate(r.relaxations_per_s) << "relax/s";
    if (r.paths) o << "  paths +" << format_number(r.paths_bytes / 1048576.0, "%.1f") << " MiB";
    if (r.best) o << "  <- best";
  } else {
    o << r.status << ": " << r.reason;
  }
  return o.str();
}

namespace {
std::map<std::string, int> count_status(const std::vector<ResultRow>& rows) {
  std::map<std::string, int> by;
  for (const auto& r : rows) ++by[r.status];
  return by;
}
}  // namespace

std::string outcome_line(const std::vector<ResultRow>& rows, const std::string& elapsed) {
  auto by = count_status(rows);
  return std::to_string(rows.size()) + " configurations: " + std::to_string(by["ok"]) + " ok, " +
         std::to_string(by["skipped"]) + " skipped, " + std::to_string(by["wrong"]) + " wrong, " +
         std::to_string(by["failed"]) + " failed" + (elapsed.empty() ? "" : "; " + elapsed);
}

int outcome_exit_code(const std::vector<ResultRow>& rows) {
  auto by = count_status(rows);
  if (!by["wrong"] && !by["failed"]) return kExitOk;
  print_error(std::to_string(by["wrong"]) + " configuration(s) gave wrong results and " +
              std::to_string(by["failed"]) + " failed (see the status lines)");
  return kExitRuntime;
}

void check_output_target(const std::string& path, const std::string& flag) {
  if (path.empty()) return;
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw UsageError(flag + " " + path + ": folder '" + dir + "' does not exist");
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw UsageError(flag + " " + path + ": is a folder");
}

void save_csv(const std::string& path, const std::vector<ResultRow>& rows) {
  write_file_atomically(path, [&](std::ostream& o) { write_csv(o, rows); });
}

}  // namespace ocl_sp
