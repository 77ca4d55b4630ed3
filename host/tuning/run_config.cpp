// One bench / sweep configuration from estimate to result row (see run_config.hpp).
#include "tuning/run_config.hpp"

#include <cstdio>
#include <iostream>

#include "report/table.hpp"

namespace ocl_sp {

std::string duration(double s) {
  char buf[32];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return buf;
}

void fill_from_measurement(ResultRow& r, const SolverInfo& info, const Measurement& m, int reps) {
  r.params = info.params;
  r.params_source = info.params_source;
  r.program_cache = info.cache;
  r.t_o = info.t_o;
  if (!info.vendor.empty()) r.vendor = info.vendor;
  if (!info.driver.empty()) r.driver = info.driver;
  r.status = m.status;
  r.reason = m.reason;
  r.verify = m.verify;
  r.verify_detail = m.verify_detail;
  if (m.status != "ok") return;
  r.t_h = m.median_t_h;
  r.t_k = m.median_t_k;
  r.total = m.median_total;
  r.min = m.min_total;
  r.max = m.max_total;
  r.reps = reps;
  for (const auto& s : m.runs) r.times.push_back(s.total);
  r.relaxations = m.relaxations;
  r.relaxations_per_s = m.relax_per_second();
  r.products = m.products;
  r.paths_bytes = m.paths_bytes;
}

std::optional<size_t> fastest_ok_row(const std::vector<ResultRow>& rows, size_t first) {
  std::optional<size_t> best;
  for (size_t r = first; r < rows.size(); ++r)
    if (rows[r].status == "ok" && (!best || rows[r].total < rows[*best].total)) best = r;
  return best;
}

template <typename T>
void run_configuration(ResultRow& row, const ConfigJob<T>& job, RateBook& rates,
                       ReferenceCache<T>& reference, const RunOptions& o, const Stopwatch& wall) {
  const BenchColumn& col = *job.column;
  const int runs = o.warmup + o.reps;
  Solver<T>* solver = nullptr;
  bool built = false;
  auto build = [&]() {  // once, on first need
    if (!built) solver = job.solver(row);
    built = true;
    return solver != nullptr;
  };
  Estimate est = rates.estimate(col, job.rate_key, job.algo, job.n, runs);
  if (est.total > o.time_limit && !rates.has(job.rate_key, job.algo)) {
    // Only the default rate speaks against it: learn the real one from a probe
    // solve at a smaller n before deciding. The solver's own verdict (it cannot
    // be built) says more than the estimate.
    if (!build()) return;
    const int64_t np = probe_size(col, job.algo, job.n, o.time_limit / 8);
    if (np < job.n) {
      try {
        const RunStats ps = probe_solve(*solver, np, o.paths);
        rates.record(job.rate_key, job.algo, np, ps.relaxations, ps.total);
        est = rates.estimate(col, job.rate_key, job.algo, job.n, runs);
        est.basis += " (probe)";
      } catch (const std::bad_alloc&) {
        throw;
      } catch (const std::exception& e) {
        row.status = "failed";
        row.reason =
            "probe solve at n = " + std::to_string(np) + " failed: " + describe_exception(e);
        return;
      }
    }
  }
  row.estimate = est.total;
  row.estimate_basis = est.basis;
  if (est.total > o.time_limit) {
    row.status = "skipped";
    row.reason = "estimated " + duration(est.total) + " for " + std::to_string(runs) +
                 " solves (" + est.basis + ") exceeds --time-limit " +
                 format_number(o.time_limit) + " s";
    return;
  }
  if (!build()) return;
  // Progress for long runs only: a configuration expected to take a while, or
  // any once the command has been going for some time.
  if (!o.quiet && (est.total >= 2 || wall.seconds() >= 10))
    std::cerr << "progress: " << job.what << ", estimate ~" << duration(est.total)
              << ", elapsed " << duration(wall.seconds()) << "\n";
  const DistMatrix<T>& input = job.input();
  const bool had_reference = reference.has(job.input_key);
  MeasureOptions mo;
  mo.warmup = o.warmup;
  mo.reps = o.reps;
  mo.paths = o.paths;
  const Measurement m = measure(*solver, input, job.input_key, reference, mo);
  if (!had_reference && reference.has(job.input_key) && !o.quiet && reference.seconds() >= 1)
    std::cerr << "note: CPU reference for n = " << job.n << " (" << reference.method()
              << ") took " << duration(reference.seconds()) << "\n";
  fill_from_measurement(row, solver->info(), m, o.reps);
  if (row.status == "ok")
    rates.record(job.rate_key, job.algo, job.n, m.relaxations, m.median_total);
}

template void run_configuration(ResultRow&, const ConfigJob<int32_t>&, RateBook&,
                                ReferenceCache<int32_t>&, const RunOptions&, const Stopwatch&);
template void run_configuration(ResultRow&, const ConfigJob<float>&, RateBook&,
                                ReferenceCache<float>&, const RunOptions&, const Stopwatch&);
template void run_configuration(ResultRow&, const ConfigJob<double>&, RateBook&,
                                ReferenceCache<double>&, const RunOptions&, const Stopwatch&);
template void run_configuration(ResultRow&, const ConfigJob<int64_t>&, RateBook&,
                                ReferenceCache<int64_t>&, const RunOptions&, const Stopwatch&);

}  // namespace ocl_sp
