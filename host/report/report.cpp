// Human and JSON rendering of a SolveReport.
#include "report/report.hpp"

#include <cstdio>

#include "util/strings.hpp"

namespace ocl_sp {

std::string format_seconds(double s) {
  char buf[32];
  if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

std::string format_rate(double r) {
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (r >= 1000 && u < 5) {
    r /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", r, units[u]);
  return buf;
}

namespace {
std::string format_length(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}
}  // namespace

void print_human(std::ostream& out, const SolveReport& r) {
  const SolverInfo& i = r.info;
  out << "ocl_sp " << OCL_SP_VERSION << ": " << i.algo << " on " << i.backend << " ("
      << i.device << (i.driver.empty() ? "" : ", driver " + i.driver) << ")\n";
  out << "  graph     " << r.source << ": n = " << r.n << ", " << r.edges << " edges, " << r.type
      << "\n";
  if (!r.choice.empty()) out << "  algorithm " << r.choice << "\n";
  out << "  params    " << to_string(i.params) << " (" << i.params_source << ")\n";
  out << "  T_o       " << format_seconds(i.t_o) << " (set-up";
  if (i.t_context > 0)  // OpenCL: the driver's context apart from the program build
    out << ": context " << format_seconds(i.t_context) << ", programs "
        << format_seconds(i.t_program);
  out << (i.cache == "n/a" ? "" : ", program cache " + i.cache) << ")\n";
  out << "  T_h       " << format_seconds(r.stats.t_h) << " (transfers)\n";
  out << "  T_k       " << format_seconds(r.stats.t_k) << " (kernels"
      << (r.stats.products ? ", " + std::to_string(r.stats.products) + " products" : "") << ")\n";
  out << "  total     " << format_seconds(i.t_o + r.stats.total) << " (T_o + solve), process "
      << format_seconds(r.wall) << "\n";
  out << "  rate      " << format_rate(r.relax_per_second()) << "relaxations/s\n";
  if (!r.stats.placement.empty()) {
    out << "  placement " << r.stats.placement << "; " << format_bytes(r.stats.bytes_moved)
        << " moved";
    if (r.stats.panel > 0)
      out << ", device idle " << format_seconds(r.stats.copy_exposed)
          << " (copies not hidden, host work; T_h " << format_seconds(r.stats.t_h) << ")";
    out << "\n";
    for (const auto& l : r.stats.device_lines) out << "  device    " << l << "\n";
  }
  out << "  verify    " << r.verify << (r.verify_detail.empty() ? "" : " (" + r.verify_detail + ")")
      << "\n";
  if (!r.output.empty()) {
    out << "  output    " << r.output;
    if (r.rows > 0) out << " (" << r.rows << " x " << r.cols << ")";
    out << "\n";
  }
  if (r.has_stats)
    out << "  stats     diameter " << format_length(r.diameter) << ", radius "
        << format_length(r.radius) << ", reachable pairs " << r.reachable_pairs
        << ", average shortest path " << format_length(r.average_shortest_path_length)
        << (r.stats_output.empty() ? ""
            : r.stats_sources > 0
                ? " (" + std::to_string(r.stats_sources) + " sources' rows: " + r.stats_output + ")"
                : " (per vertex: " + r.stats_output + ")")
        << "\n";
  if (r.paths) {
    const RunStats& st = r.stats;
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f MiB", st.paths_bytes / (1024.0 * 1024.0));
    out << "  paths     " << (r.paths_hops ? "via + hops matrices (" : "via matrix (") << st.paths_kernels << ", +" << mib;
    if (st.paths_setup > 0)
      out << ", kernels built in " << format_seconds(st.paths_setup) << ", program cache "
          << st.paths_cache;
    out << ")\n";
    if (r.paths_check != "not run")
      out << "  check     paths " << r.paths_check
          << (r.paths_check_detail.empty() ? "" : " (" + r.paths_check_detail + ")") << "\n";
    if (!r.paths_output.empty()) out << "  via       " << r.paths_output << "\n";
  }
  for (const auto& n : r.notes) out << "  note      " << n << "\n";
  for (const auto& q : r.queries) out << format_query(q) << "\n";
}


void write_queries(JsonWriter& j, const std::vector<PathQuery>& queries) {
  j.key("queries").begin_array();
  for (const auto& q : queries) {
    j.begin_object().field("from", static_cast<long long>(q.from));
    j.field("to", static_cast<long long>(q.to)).field("reachable", !q.vertices.empty());
    j.key("path").begin_array();
    for (int64_t v : q.vertices) j.value(static_cast<long long>(v));
    j.end_array();
    if (q.vertices.empty())
      j.key("length").null();
    else
      j.field("length", q.length);
    j.end_object();
  }
  j.end_array();
}

std::string format_query(const PathQuery& q) {
  std::string s = "path " + std::to_string(q.from) + " -> " + std::to_string(q.to) + ": ";
  if (q.vertices.empty()) return s + "no path";
  for (size_t i = 0; i < q.vertices.size(); ++i)
    s += (i ? " -> " : "") + std::to_string(q.vertices[i]);
  return s + " (length " + format_length(q.length) + ")";
}

void write_json_fields(JsonWriter& j, const SolveReport& r) {
  const SolverInfo& i = r.info;
  j.field("version", OCL_SP_VERSION);
  j.field("algorithm", i.algo).field("backend", i.backend);
  j.key("algorithm_choice");
  if (r.choice.empty())
    j.null();
  else
    j.value(r.choice);
  j.field("device", i.device).field("vendor", i.vendor).field("driver", i.driver);
  j.field("type", r.type).field("n", static_cast<long long>(r.n)).field("edges", r.edges);
  j.field("source", r.source);
  j.key("params").begin_object();
  for (const auto& [k, v] : i.params) j.field(k, v);
  j.end_object();
  j.field("params_source", i.params_source).field("program_cache", i.cache);
  j.field("t_o", i.t_o).field("t_context", i.t_context).field("t_program", i.t_program);
  j.field("t_h", r.stats.t_h).field("t_k", r.stats.t_k);
  j.field("solve", r.stats.total).field("total", i.t_o + r.stats.total).field("wall", r.wall);
  j.field("products", r.stats.products).field("kernel_launches", r.stats.kernel_launches);
  j.field("relaxations", r.stats.relaxations).field("relaxations_per_s", r.relax_per_second());
  j.field("placement", r.stats.placement).field("panel", static_cast<long long>(r.stats.panel));
  j.field("devices", r.stats.devices).field("bytes_moved", r.stats.bytes_moved);
  j.field("copy_exposed", r.stats.copy_exposed);
  j.key("device_lines").begin_array();
  for (const auto& l : r.stats.device_lines) j.value(l);
  j.end_array();
  j.key("kernel_seconds").begin_object();
  for (const auto& [k, t] : r.stats.kernel_seconds) j.field(k, t);
  j.end_object();
  j.field("verify", r.verify).field("verify_detail", r.verify_detail);
  j.field("output", r.output);
  if (r.rows > 0) j.field("rows", r.rows).field("cols", r.cols);
  j.key("stats");
  if (!r.has_stats) {
    j.null();
  } else {
    j.begin_object().field("diameter", r.diameter).field("radius", r.radius);
    j.field("reachable_pairs", r.reachable_pairs);
    j.field("average_shortest_path_length", r.average_shortest_path_length);
    if (r.stats_sources > 0) j.field("sources", r.stats_sources);
    j.field("file", r.stats_output).end_object();
  }
  j.field("paths", r.paths);
  if (r.paths) {
    j.field("paths_kernels", r.stats.paths_kernels).field("paths_bytes", r.stats.paths_bytes);
    j.field("paths_setup", r.stats.paths_setup).field("paths_cache", r.stats.paths_cache);
    j.field("paths_check", r.paths_check).field("paths_check_detail", r.paths_check_detail);
    j.field("paths_output", r.paths_output);
    write_queries(j, r.queries);
  }
  j.key("notes").begin_array();
  for (const auto& n : r.notes) j.value(n);
  j.end_array();
}

}  // namespace ocl_sp
