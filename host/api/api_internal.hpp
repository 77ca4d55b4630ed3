// Shared by the public API's sources (api.cpp: the free functions, session.cpp:
// Session and the device queries): error translation into the public types and
// the reports of a solve. Internal; not installed.
#pragma once
#include <new>
#include <string>
#include <utility>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "graph/csr.hpp"
#include "ocl_sp/ocl_sp.hpp"
#include "solvers/solver.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"

namespace ocl_sp::api {

// Runs f, turning every internal error into the public ones: UsageError ->
// InvalidArgument, CancelledError -> Cancelled, NegativeCycleError ->
// NegativeCycle, the rest -> Error.
template <typename F>
auto translated(const F& f) -> decltype(f()) {
  try {
    return f();
  } catch (const NegativeCycleError& e) {
    throw NegativeCycle(e.what(), e.vertex, e.cycle, e.length);
  } catch (const cl::Error& e) {
    throw Error(std::string("OpenCL call ") + e.what() + " failed: " + cl_error_name(e.err()));
  } catch (const std::bad_alloc&) {
    throw Error("out of host memory");
  } catch (const Error&) {
    throw;
  } catch (const UsageError& e) {
    throw InvalidArgument(e.what());
  } catch (const CancelledError& e) {
    throw Cancelled(e.what());
  } catch (const std::exception& e) {  // RuntimeError and the rest
    throw Error(e.what());
  }
}

// What ran and its time split, into a Result or a SolveInfo (the same names).
template <typename R>
void describe(R& r, const SolverInfo& i, const RunStats& st, bool reused = false) {
  r.algorithm = i.algo;
  r.backend = i.backend;
  r.device = i.device;
  r.params = to_string(i.params);
  r.placement = st.placement;
  r.params_source = i.params_source;
  r.program_cache = i.cache;
  r.timings.setup = i.t_o;
  r.timings.context = i.t_context;
  r.timings.programs = i.t_program;
  r.timings.transfers = st.t_h;
  r.timings.kernels = st.t_k;
  r.timings.solve = st.total;
  r.timings.total = (reused ? 0 : i.t_o) + st.total;
  r.relaxations = st.relaxations;
  RunDetails& d = r.details;
  d.vendor = i.vendor;
  d.driver = i.driver;
  d.param_values = i.params;
  d.panel = st.panel;
  d.devices = st.devices;
  d.bytes_moved = st.bytes_moved;
  d.products = st.products;
  d.kernel_launches = st.kernel_launches;
  d.kernel_seconds = st.kernel_seconds;
  d.paths = st.paths;
  d.paths_kernels = st.paths_kernels;
  d.paths_bytes = st.paths_bytes;
  d.reused = reused;
  d.paths_setup = st.paths_setup;
  d.paths_cache = st.paths_cache;
  d.copy_exposed = st.copy_exposed;
  d.device_lines = st.device_lines;
}

// The solver's own figures back from a Result (the command line's report).
template <typename R>
void undescribe(const R& r, SolverInfo& i, RunStats& st) {
  const RunDetails& d = r.details;
  i.algo = r.algorithm;
  i.backend = r.backend;
  i.device = r.device;
  i.vendor = d.vendor;
  i.driver = d.driver;
  i.params = d.param_values;
  i.params_source = r.params_source;
  i.t_o = r.timings.setup;
  i.t_context = r.timings.context;
  i.t_program = r.timings.programs;
  i.cache = r.program_cache;
  st.t_h = r.timings.transfers;
  st.t_k = r.timings.kernels;
  st.total = r.timings.solve;
  st.products = d.products;
  st.kernel_launches = d.kernel_launches;
  st.relaxations = r.relaxations;
  st.paths = d.paths;
  st.paths_bytes = d.paths_bytes;
  st.paths_setup = d.paths_setup;
  st.paths_kernels = d.paths_kernels;
  st.paths_cache = d.paths_cache;
  st.kernel_seconds = d.kernel_seconds;
  st.placement = r.placement;
  st.panel = d.panel;
  st.devices = d.devices;
  st.bytes_moved = d.bytes_moved;
  st.copy_exposed = d.copy_exposed;
  st.device_lines = d.device_lines;
}

// The public errors back as the internal ones (the command line's exit codes
// and messages): NegativeCycle -> NegativeCycleError, InvalidArgument ->
// UsageError, Cancelled -> CancelledError, Error -> RuntimeError.
template <typename F>
auto internal_errors(const F& f) -> decltype(f()) {
  try {
    return f();
  } catch (const NegativeCycle& e) {
    if (e.cycle.empty()) throw NegativeCycleError(e.vertex);
    throw NegativeCycleError(e.cycle, e.length);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  } catch (const Cancelled&) {
    throw CancelledError();
  } catch (const Error& e) {
    throw RuntimeError(e.what());
  }
}

// A public CsrGraph checked (UsageError: offsets, targets or weights that do not
// describe n vertices) and moved into the engine's Csr.
template <typename T>
Csr<T> take_csr(const char* what, CsrGraph<T>&& g);

// The exact-integer rule of check_range (graph/graph.hpp) over a CSR: the n - 1
// largest |w| must add up to less than T's finite limit (UsageError otherwise).
template <typename T>
void check_csr_range(const char* what, const Csr<T>& g);

}  // namespace ocl_sp::api

namespace ocl_sp {
// A Session over a SolverSpec the command line planned (panel plan, progress
// line) rather than over public Options.
struct SessionAccess {
  // hops: Options::hops (the command line wants them only to check the paths).
  static Session of(const SolverSpec& spec, bool hops = true);
};
}  // namespace ocl_sp
