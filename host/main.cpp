// ocl_sp entry point: assembles the command line and maps every error to its
// message and exit code (DESIGN.md: 1 runtime, 2 usage/input, 3 negative cycle).
#include <iostream>
#include <new>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "cli/commands.hpp"
#include "mpi/mpi_env.hpp"
#include "util/build_info.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/print_error.hpp"

int main(int argc, char** argv) {
  using namespace ocl_sp;
  CLI::App app{
      "ocl_sp: all-pairs shortest paths on any OpenCL device (NVIDIA, AMD, Intel GPUs; CPUs via "
      "PoCL), with OpenMP and serial CPU solvers.\n\n"
      "Examples:\n"
      "  ocl_sp --n 2000                           random graph, default device, blocked FW\n"
      "  ocl_sp --device nvidia --n 5000 --algo squaring --wg 16\n"
      "  ocl_sp --input road.gr --output dist.npy --verify\n"
      "  ocl_sp devices                            list OpenCL platforms and devices\n"
      "  ocl_sp bench --devices nvidia,openmp      cross-device benchmark\n"
      "  ocl_sp sweep --n 5000                     work-group / block sweep, stores the best",
      "ocl_sp"};
  app.set_version_flag("--version", build_info_text());  // version, revision, features
  app.require_subcommand(0, 1);
  app.fallthrough(false);
  Command commands[] = {set_devices_command(app), set_bench_command(app), set_sweep_command(app)};
  Command solve = set_solve_command(app);
  // Under mpirun every rank parses the same command line and checks it before the
  // distributed solve begins (whose own errors are reported once, host/mpi/): a
  // usage error is the same on every rank, so only rank 0 prints it, and only rank
  // 0 exits with its code: mpirun ends the job when the first rank exits non-zero,
  // which could cut rank 0 off before its line reached mpirun's stderr (seen about
  // once in 20 jobs under ASan); the others exit 0 and the job ends with rank 0's.
  const bool quiet_usage = mpi::launched_world_size() > 1 && mpi::launched_world_rank() != 0;
  const int usage_exit = quiet_usage ? kExitOk : kExitUsage;
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
      if (!quiet_usage) print_error(std::string(e.what()) + "\nRun 'ocl_sp --help' for usage.");
      return usage_exit;
    }
    for (auto& c : commands)
      if (c.app && c.app->parsed()) return c.run();
    return solve.run();
  } catch (const CancelledError& e) {
    print_error(e.what());
    return 128 + (cancel_flag().load() ? cancel_flag().load() : 2);
  } catch (const NegativeCycleError& e) {
    print_error(e.what());
    return kExitNegativeCycle;
  } catch (const UsageError& e) {
    if (!quiet_usage) print_error(e.what());
    return usage_exit;
  } catch (const RuntimeError& e) {
    print_error(e.what());
    return kExitRuntime;
  } catch (const cl::Error& e) {
    print_error(std::string("OpenCL call ") + e.what() + " failed: " + cl_error_name(e.err()));
    return kExitRuntime;
  } catch (const std::bad_alloc&) {
    print_error("out of host memory");
    return kExitRuntime;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitRuntime;
  }
}
