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
