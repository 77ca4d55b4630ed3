// Charts of bench results through gnuplot (an external program, found on PATH):
// time vs n on log-log axes, one line per device x algorithm, beside the speedup
// over serial (or OpenMP). PNG or SVG by the file's extension; written atomically.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "report/bench_report.hpp"

namespace ocl_sp {

enum class PlotFormat { png, svg };

// By extension (.png / .svg, any case); UsageError otherwise.
PlotFormat plot_format_for(const std::string& path);
// Absolute path of gnuplot on PATH, or "" when it is not installed.
std::string find_gnuplot();
// Checks up front (before any benchmark runs) that --plot FILE can be made:
// known extension, existing folder, gnuplot installed. UsageError (exit 2)
// otherwise, with the install hint for gnuplot.
void check_plot_target(const std::string& path);

struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;  // (n, value), n ascending
  int color = 1;        // gnuplot line type of the colour: one per device column
  int style = 0;        // dash and point style: one per algorithm
  bool hollow = false;  // open points: the speedups over openmp
};

struct PlotSpec {
  std::string title;
  std::vector<PlotSeries> time;     // seconds vs n
  std::vector<PlotSeries> speedup;  // T_ref / T vs n
  std::string speedup_label;        // y-axis label of the speedup chart
};

// Series from the ok rows: one time line per device x algorithm; speedups
// (same algorithm, same n) of every non-serial series over serial, and of every
// OpenCL series over openmp (the paper's R1; open points).
PlotSpec bench_plot_spec(const std::vector<ResultRow>& rows);
// The gnuplot data (one block per series, two blank lines apart: time series
// first, then speedup series) and the script that reads it.
std::string gnuplot_data(const PlotSpec& spec);
std::string gnuplot_script(const PlotSpec& spec, const std::string& data_file,
                           const std::string& out_file, PlotFormat fmt);
// Runs gnuplot and renames its output onto `path`; RuntimeError on failure.
void render_plot(const PlotSpec& spec, const std::string& path);

}  // namespace ocl_sp
