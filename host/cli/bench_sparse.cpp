// `ocl_sp bench --generator FAMILY`: the sparse families (DESIGN.md "Sparse
// graphs and rows") for fw, sssp and auto on every column. sssp hands its rows to
// a sink that keeps a sample (no n x n memory, so n = 10^5 and beyond run); every
// configuration's sample rows are checked bit for bit (int32) against serial
// Dijkstra's, computed once per graph. fw runs where its n x n matrix fits and its
// estimate is inside the time limit. Rows, tables, CSV and JSON as bench's.
#include "cli/bench_sparse.hpp"

#include <omp.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "cl/device.hpp"
#include "graph/csr.hpp"
#include "report/bench_report.hpp"
#include "report/report.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/sssp.hpp"
#include "tuning/measure.hpp"
#include "tuning/tuning_store.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

// Keeps the rows of the sampled sources (by their index in the source list).
template <typename T>
class SampleSink final : public RowSink<T> {
 public:
  explicit SampleSink(const std::vector<int64_t>& sample) {
    for (int64_t s : sample) rows_[s];
  }
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*,
            const int32_t*) override {
    for (auto& [s, row] : rows_)
      if (s >= first && s < first + count) row.assign(d + (s - first) * n, d + (s - first + 1) * n);
  }
  const std::map<int64_t, std::vector<T>>& rows() const { return rows_; }

 private:
  std::map<int64_t, std::vector<T>> rows_;
};

// The sampled rows against the reference: "" when equal (int32 exactly, float32
// within 1e-5 relative, INF exactly), else the first difference.
template <typename T>
std::string compare_rows(const std::map<int64_t, std::vector<T>>& want,
                         const std::map<int64_t, std::vector<T>>& got) {
  for (const auto& [s, row] : want) {
    const auto it = got.find(s);
    if (it == got.end() || it->second.size() != row.size()) return "row " + std::to_string(s) + " missing";
    for (size_t v = 0; v < row.size(); ++v) {
      const T a = row[v], b = it->second[v];
      const bool same = std::is_integral_v<T> || a == b || std::isinf(a) || std::isinf(b)
                            ? a == b
                            : std::abs(static_cast<double>(a) - static_cast<double>(b)) <=
                                  ValueTraits<T>::tolerance *
                                      std::max(std::abs(static_cast<double>(a)),
                                               std::abs(static_cast<double>(b)));
      if (!same)
        return "d(" + std::to_string(s) + ", " + std::to_string(v) + ") = " +
               format_number(static_cast<double>(b), "%.9g") + ", expected " +
               format_number(static_cast<double>(a), "%.9g");
    }
  }
  return "";
}

template <typename T>
int run_typed(const SparseBenchOptions& o) {
  const Stopwatch wall;
  std::vector<ResultRow> rows;
  std::vector<Algo> algos;
  for (const auto& a : o.algos) algos.push_back(parse_algo(trim(a)));
  std::cout << "ocl_sp bench: " << o.columns.size() << " column(s) x " << algos.size()
            << " algorithm(s) x " << o.sizes.size() << " size(s), family " << to_string(o.generator.family)
            << ", " << ValueTraits<T>::name() << ", median of " << o.reps << " (after "
            << o.warmup << " warm-up), time limit " << format_number(o.time_limit)
            << " s per configuration\n";
  for (int64_t n : o.sizes) {
    GeneratorParams p = o.generator;
    p.n = n;
    p.seed = o.seed ? *o.seed : static_cast<uint64_t>(n);
    Graph g = generate_graph(p);
    check_range<T>(g);
    const Csr<T> csr = build_csr<T>(g);
    const int64_t nn = csr.n;  // grid: n rounded to K^2
    std::cout << "graph: " << describe(p) << ": n = " << nn << ", m = " << csr.m() << "\n";
    std::cout.flush();
    // Sampled sources, spread over the ids, and their reference rows.
    std::vector<int64_t> sample;
    for (int64_t k = 0; k < std::min<int64_t>(nn, 8); ++k) sample.push_back(k * (nn - 1) / 7);
    sample.erase(std::unique(sample.begin(), sample.end()), sample.end());
    SolverSpec rspec;
    rspec.algo = Algo::sssp;
    rspec.backend = Backend::serial;
    auto ref = make_sssp_solver<T>(rspec);
    std::map<int64_t, std::vector<T>> reference;
    {
      // Reference: the sample's own rows (sources = the sample, rows by index).
      struct Into final : RowSink<T> {
        std::map<int64_t, std::vector<T>> got;
        const std::vector<int64_t>* sample;
        void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*,
                  const int32_t*) override {
          for (int64_t r = 0; r < count; ++r)
            got[(*sample)[first + r]].assign(d + r * n, d + (r + 1) * n);
        }
      } into;
      into.sample = &sample;
      ref->solve_rows(csr, sample, into, false);
      reference = std::move(into.got);
    }
    std::optional<DistMatrix<T>> dense;  // fw's input, made once per n when needed
    for (const BenchColumn& col : o.columns) {
      for (Algo asked : algos) {
        ResultRow row = base_row(col, asked, ValueTraits<T>::name(), nn);
        Algo algo = asked;
        const AutoChoice c = choose_algo(nn, csr.m(), nn, col.backend, col.kind);
        if (asked == Algo::automatic) {
          algo = c.algo;
          row.params_source = "auto: " + c.why;
        }
        const auto finish = [&] {
          std::cout << status_text(row) << (asked == Algo::automatic ? "  [" + row.params_source + "]" : "")
                    << "\n";
          std::cout.flush();
          rows.push_back(row);
        };
        const double estimate = (algo == Algo::sssp ? c.sssp_seconds : c.fw_seconds) * (o.warmup + o.reps);
        row.estimate = estimate;
        row.estimate_basis = "built-in rates (sparse/auto_algo.cpp)";
        const uint64_t dense_bytes = static_cast<uint64_t>(nn) * nn * sizeof(T);
        if (algo != Algo::sssp && dense_bytes * 3 > host_memory_available()) {
          row.status = "skipped";
          row.reason = "the n x n matrix (" + format_bytes(dense_bytes) + ", x3 with the copies) does not fit host memory";
          finish();
          continue;
        }
        if (estimate > o.time_limit) {
          row.status = "skipped";
          row.reason = "estimated " + format_number(estimate, "%.3g") + " s > --time-limit";
          finish();
          continue;
        }
        try {
          SolverSpec spec;
          spec.algo = algo;
          spec.backend = col.backend;
          spec.device = col.spec;
          spec.use_tuned = !o.no_tuned;
          spec.split = col.backend == Backend::opencl ? o.split : 1;
          if (col.backend == Backend::opencl && algo == Algo::sssp) spec.params = o.params;
          std::vector<double> totals, tks, ths;
          std::map<int64_t, std::vector<T>> got;
          if (algo == Algo::sssp) {
            auto solver = make_sssp_solver<T>(spec);
            row.t_o = solver->info().t_o;
            if (row.params_source.empty()) row.params_source = solver->info().params_source;
            for (int r = 0; r < o.warmup + o.reps; ++r) {
              SampleSink<T> sink(sample);
              const RunStats st = solver->solve_rows(csr, {}, sink, false);
              if (r == 0) got = sink.rows();
              row.relaxations = st.relaxations;
              if (r >= o.warmup) totals.push_back(st.total), tks.push_back(st.t_k), ths.push_back(st.t_h);
            }
            row.params = solver->info().params;
          } else {
            if (!dense) dense = to_matrix<T>(g);
            auto solver = make_solver<T>(spec);
            row.params = solver->info().params;
            row.t_o = solver->info().t_o;
            if (row.params_source.empty()) row.params_source = solver->info().params_source;
            for (int r = 0; r < o.warmup + o.reps; ++r) {
              DistMatrix<T> d = *dense;
              const RunStats st = solver->solve(d, nullptr);
              if (r == 0)
                for (int64_t s : sample) got[s].assign(d.data() + s * nn, d.data() + (s + 1) * nn);
              row.relaxations = st.relaxations;
              if (r >= o.warmup) totals.push_back(st.total), tks.push_back(st.t_k), ths.push_back(st.t_h);
            }
          }
          const std::string bad = compare_rows(reference, got);
          row.verify = bad.empty() ? "ok" : "FAILED";
          row.verify_detail = bad.empty() ? std::to_string(sample.size()) + " sampled rows vs serial Dijkstra" : bad;
          if (!bad.empty()) {
            row.status = "wrong";
            row.reason = bad;
          } else if (!totals.empty()) {
            row.times = totals;
            row.reps = static_cast<int>(totals.size());
            row.total = median(totals);
            row.min = *std::min_element(totals.begin(), totals.end());
            row.max = *std::max_element(totals.begin(), totals.end());
            row.t_k = median(tks);
            row.t_h = median(ths);
            const double t = row.t_k > 0 ? row.t_k : row.total;
            row.relaxations_per_s = t > 0 ? row.relaxations / t : 0;
          }
        } catch (const UsageError& e) {
          row.status = "skipped";
          row.reason = e.what();
        } catch (const std::bad_alloc&) {
          throw;
        } catch (const std::exception& e) {
          row.status = "failed";
          row.reason = describe_exception(e);
        }
        finish();
      }
    }
  }
  std::cout << "\n";
  time_table(rows).print(std::cout);
  if (!o.csv.empty()) save_csv(o.csv, rows);
  if (!o.json.empty())
    write_file_atomically(o.json, [&](std::ostream& out) {
      JsonWriter j(out);
      j.begin_object().field("schema_version", kBenchSchemaVersion).field("command", "bench");
      j.field("ocl_sp_version", OCL_SP_VERSION).field("date", utc_timestamp());
      j.field("family", to_string(o.generator.family)).field("cpu", cpu_model_name());
      j.field("openmp_threads", omp_get_max_threads()).field("elapsed_s", wall.seconds());
      j.key("results").begin_array();
      for (const auto& r : rows) write_json_row(j, r);
      j.end_array().end_object();
      out << "\n";
    });
  std::cout << "\n" << outcome_line(rows) << "\n";
  return outcome_exit_code(rows);
}

}  // namespace

int run_sparse_bench(const SparseBenchOptions& o) {
  return visit_type(parse_value_type(o.type), [&](auto t) { return run_typed<decltype(t)>(o); });
}

}  // namespace ocl_sp
