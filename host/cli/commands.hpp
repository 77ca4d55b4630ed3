// The subcommands of ocl_sp, one file each (micromamba style): each set_*
// function registers its options on the CLI11 app and returns what to run.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace ocl_sp {

struct Command {
  CLI::App* app = nullptr;    // null for the default (solve) command
  std::function<int()> run;  // returns the exit code
};

Command set_solve_command(CLI::App& app);    // default command: options on the top app
Command set_devices_command(CLI::App& app);  // ocl_sp devices
Command set_bench_command(CLI::App& app);    // ocl_sp bench
Command set_sweep_command(CLI::App& app);    // ocl_sp sweep

}  // namespace ocl_sp
