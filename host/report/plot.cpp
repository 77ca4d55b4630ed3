// gnuplot charts for bench results (see plot.hpp).
#include "report/plot.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "util/errors.hpp"
#include "util/strings.hpp"

extern char** environ;

namespace ocl_sp {

namespace {

std::string extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return lower(path.substr(dot + 1));
}

// A gnuplot single-quoted string: only ' needs doubling.
std::string gq(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += '\'';
    q += c;
  }
  return q + "'";
}

}  // namespace

PlotFormat plot_format_for(const std::string& path) {
  const std::string e = extension(path);
  if (e == "png") return PlotFormat::png;
  if (e == "svg") return PlotFormat::svg;
  throw UsageError("--plot " + path + ": the file must end in .png or .svg");
}

std::string find_gnuplot() {
  const char* p = std::getenv("PATH");
  for (const auto& dir : split(p ? p : "", ':')) {
    const std::string f = (dir.empty() ? "." : dir) + "/gnuplot";
    struct stat st {};
    if (stat(f.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(f.c_str(), X_OK) == 0) return f;
  }
  return "";
}

void check_plot_target(const std::string& path) {
  plot_format_for(path);
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw UsageError("--plot " + path + ": folder '" + dir + "' does not exist");
  if (find_gnuplot().empty())
    throw UsageError(
        "--plot needs gnuplot, which is not installed (not found on PATH); install it, e.g. "
        "'sudo apt-get install gnuplot-nox' (Debian/Ubuntu) or 'sudo dnf install gnuplot', or "
        "leave out --plot and plot the --csv file yourself");
}

PlotSpec bench_plot_spec(const std::vector<ResultRow>& rows) {
  PlotSpec spec;
  spec.title = "ocl_sp bench";
  if (!rows.empty()) spec.title += " (" + rows.front().type + ")";
  std::vector<std::string> order;
  std::map<std::string, std::map<int64_t, double>> t;                // series -> n -> seconds
  std::map<std::string, std::pair<std::string, std::string>> parts;  // series -> (column, algo)
  for (const auto& r : rows) {
    if (!parts.count(r.series())) {
      order.push_back(r.series());
      parts[r.series()] = {r.column, r.algorithm};
    }
    if (r.status == "ok" && r.total > 0) t[r.series()].emplace(r.n, r.total);
  }
  // One colour per device column, one dash/point style per algorithm, so both
  // charts read the same way.
  std::map<std::string, int> color, style;
  for (const auto& s : order) {
    color.emplace(parts[s].first, static_cast<int>(color.size()) + 1);
    style.emplace(parts[s].second, static_cast<int>(style.size()));
  }
  for (const auto& s : order) {
    PlotSeries ps{s, {}, color[parts[s].first], style[parts[s].second]};
    for (const auto& [n, sec] : t[s]) ps.points.push_back({static_cast<double>(n), sec});
    if (!ps.points.empty()) spec.time.push_back(std::move(ps));
  }
  auto add_speedup = [&](const std::string& s, const std::string& ref, bool hollow) {
    const auto& [col, algo] = parts[s];
    auto base = t.find(ref + " " + algo);
    if (base == t.end()) return;
    PlotSeries ps{s + " vs " + ref, {}, color[col], style[algo], hollow};
    for (const auto& [n, sec] : t[s]) {
      auto b = base->second.find(n);
      if (b != base->second.end() && sec > 0)
        ps.points.push_back({static_cast<double>(n), b->second / sec});
    }
    if (!ps.points.empty()) spec.speedup.push_back(std::move(ps));
  };
  for (const auto& s : order)
    if (parts[s].first != "serial") add_speedup(s, "serial", false);
  for (const auto& s : order)
    if (parts[s].first != "serial" && parts[s].first != "openmp") add_speedup(s, "openmp", true);
  spec.speedup_label = "speedup T_ref / T (same algorithm)";
  return spec;
}

std::string gnuplot_data(const PlotSpec& spec) {
  std::ostringstream o;
  bool first = true;
  auto block = [&](const PlotSeries& s) {
    if (!first) o << "\n\n";
    first = false;
    o << "# " << s.title << "\n";
    for (const auto& [x, y] : s.points) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g %.9g\n", x, y);
      o << buf;
    }
  };
  for (const auto& s : spec.time) block(s);
  for (const auto& s : spec.speedup) block(s);
  return o.str();
}

std::string gnuplot_script(const PlotSpec& spec, const std::string& data_file,
                           const std::string& out_file, PlotFormat fmt) {
  std::ostringstream g;
  g << "# ocl_sp bench chart (generated)\n";
  if (fmt == PlotFormat::svg) {
    g << "set terminal svg size 1400,560 dynamic noenhanced font 'sans,12'\n";
  } else {
    // pngcairo draws smoother lines; plain png (libgd) is the fallback.
    g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
         "  set terminal pngcairo size 1400,560 noenhanced font 'sans,10'\n"
         "} else {\n"
         "  set terminal png size 1400,560 noenhanced\n"
         "}\n";
  }
  g << "set output " << gq(out_file) << "\n";
  g << "set multiplot layout 1,2 title " << gq(spec.title) << "\n";
  g << "set grid\nset key top left\nset xlabel 'n (vertices)'\nset format x '%g'\n"
       "set format y '%g'\n";
  size_t index = 0;
  static const int kPoints[4] = {7, 5, 9, 13};  // filled circle, square, triangle, pentagon
  static const int kOpen[4] = {6, 4, 8, 12};    // the same, open
  auto panel = [&](const std::vector<PlotSeries>& series, const std::string& ylabel, bool logy) {
    g << "set ylabel " << gq(ylabel) << "\n";
    if (series.empty()) {
      g << "unset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
           "set label 1 'no data' at graph 0.5,0.5 center\nplot 2 notitle\nunset label 1\n"
           "set autoscale\n";
      return;
    }
    g << "set logscale x\n" << (logy ? "set logscale y\n" : "unset logscale y\n");
    g << "plot ";
    for (size_t i = 0; i < series.size(); ++i, ++index)
      g << (i ? ", \\\n     " : "") << gq(data_file) << " index " << index
        << " using 1:2 with linespoints lw 2 lc " << series[i].color << " dt "
        << series[i].style % 5 + 1 << " pt "
        << (series[i].hollow ? kOpen : kPoints)[series[i].style % 4] << " title "
        << gq(series[i].title);
    g << "\n";
  };
  panel(spec.time, "solve time (s, median)", true);
  panel(spec.speedup, spec.speedup_label, true);
  g << "unset multiplot\nset output\n";
  return g.str();
}

void render_plot(const PlotSpec& spec, const std::string& path) {
  const PlotFormat fmt = plot_format_for(path);
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) check_plot_target(path);  // throws with the install hint
  char dir_tmpl[] = "/tmp/ocl_sp_plot.XXXXXX";
  if (!mkdtemp(dir_tmpl))
    throw RuntimeError(std::string("cannot create a temporary folder: ") + std::strerror(errno));
  const std::string dir = dir_tmpl;
  const std::string data = dir + "/data.txt", script = dir + "/plot.gp";
  // gnuplot writes next to the target, then we rename: no partial chart ever.
  const std::string tmp_out =
      path + ".tmp." + std::to_string(::getpid()) + (fmt == PlotFormat::png ? ".png" : ".svg");
  auto cleanup = [&]() {
    std::remove(data.c_str());
    std::remove(script.c_str());
    rmdir(dir.c_str());
  };
  try {
    {
      std::ofstream d(data), s(script);
      d << gnuplot_data(spec);
      s << gnuplot_script(spec, data, tmp_out, fmt);
      if (!d || !s) throw RuntimeError("cannot write the gnuplot input in " + dir);
    }
    std::vector<char*> argv{const_cast<char*>(gnuplot.c_str()), const_cast<char*>(script.c_str()),
                            nullptr};
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, gnuplot.c_str(), nullptr, nullptr, argv.data(), environ);
    if (rc != 0) throw RuntimeError("cannot run " + gnuplot + ": " + std::strerror(rc));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    struct stat st {};
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp_out.c_str(), &st) != 0 ||
        st.st_size == 0)
      throw RuntimeError("gnuplot failed to draw '" + path + "' (its messages are above)");
    if (std::rename(tmp_out.c_str(), path.c_str()) != 0)
      throw RuntimeError("cannot rename the chart to '" + path + "': " + std::strerror(errno));
  } catch (...) {
    std::remove(tmp_out.c_str());
    cleanup();
    throw;
  }
  cleanup();
}

}  // namespace ocl_sp
