#!/usr/bin/env python3
"""scipy.sparse.csgraph.floyd_warshall against ocl_sp.floyd_warshall, from Python, in
one process, on the same dense float64 graphs (what scipy users pass), timing the
whole call including ocl_sp's conversions in and out (float64 result with inf, as
scipy returns). Medians of --reps runs; ocl_sp's first call (solver set-up, OpenCL
JIT or program cache) is timed apart and left out of the median. scipy is skipped
above --scipy-max-n and estimated from the largest n it ran, scaled by n^3.

Graph per n: directed, edge probability --density (default 0.1), integer weights
1..100, seed n (as bench/cpu_vs_scipy.sh). Results are checked for equality.

Usage (from the repository root, after the build):
  PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_scipy.py \\
      --sizes 500,1000,2000 --backend openmp --csv out.csv
  ... --backend opencl --device nvidia --sizes 1000,2000,5000 --scipy-max-n 2000
"""

import argparse
import csv
import os
import platform
import statistics
import sys
import time

import numpy as np


def make_graph(n, density):
    rng = np.random.default_rng(n)
    mask = rng.random((n, n)) < density
    np.fill_diagonal(mask, False)
    w = rng.integers(1, 101, size=(n, n)).astype(np.float64)
    return np.where(mask, w, 0.0)


def timed(f):
    t0 = time.perf_counter()
    r = f()
    return time.perf_counter() - t0, r


def fmt_s(s):
    if s is None:
        return "-"
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="500,1000,2000,3000,5000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--density", type=float, default=0.1)
    ap.add_argument("--backend", default="openmp", help="opencl | openmp | serial")
    ap.add_argument("--device", default=None, help="OpenCL device spec (backend opencl)")
    ap.add_argument("--method", default="FW", help="FW | squaring")
    ap.add_argument("--scipy-max-n", type=int, default=2000,
                    help="run scipy up to this n, estimate above (n^3 scaling)")
    ap.add_argument("--scipy-reps", type=int, default=None,
                    help="scipy runs per n (default: --reps)")
    ap.add_argument("--csv", default=None, help="write the rows to this CSV file")
    args = ap.parse_args()

    import ocl_sp
    from scipy.sparse.csgraph import floyd_warshall as scipy_fw
    import scipy

    sizes = [int(s) for s in args.sizes.split(",") if s]
    scipy_reps = args.scipy_reps or args.reps
    kw = {"backend": args.backend}
    if args.device:
        kw["device"] = args.device

    def ours(g):
        return ocl_sp.shortest_path(g, method=args.method, **kw)

    print(f"# python_vs_scipy: {cpu_name()}, {os.cpu_count()} CPUs, numpy {np.__version__}, "
          f"scipy {scipy.__version__}, ocl_sp {ocl_sp.__version__}")
    print(f"# {' '.join(sys.argv)}")
    print("# load average at start: %.2f %.2f %.2f" % os.getloadavg())
    print(f"# graph: directed, density {args.density}, integer weights 1..100, dense float64 "
          f"input, float64 output; medians of {args.reps} (ocl_sp) / {scipy_reps} (scipy) runs")
    rows = []
    basis = None  # (n, seconds) of the largest scipy measurement
    header = (f"{'n':>6} {'scipy fw':>12} {'ocl_sp':>10} {'speedup':>9} {'first call':>11} "
              f"{'T_k':>10} {'in+out':>9} {'G relax/s':>10}  check")
    printed_header = False
    for n in sizes:
        g = make_graph(n, args.density)
        first, _ = timed(lambda: ours(g))
        times, tks, conv = [], [], []
        result = None
        for _ in range(args.reps):
            t, result = timed(lambda: ours(g))
            r = ocl_sp.last_report()
            times.append(t)
            tks.append(r.t_k)
            conv.append(r.t_input + r.t_output)
        rep = ocl_sp.last_report()
        ours_s = statistics.median(times)
        if n <= args.scipy_max_n:
            st = []
            want = None
            for _ in range(scipy_reps):
                t, want = timed(lambda: scipy_fw(g))
                st.append(t)
            scipy_s, estimated = statistics.median(st), False
            basis = (n, scipy_s)
            check = "equal" if np.array_equal(want, result) else "DIFFERENT"
        elif basis is not None:
            scipy_s, estimated = basis[1] * (n / basis[0]) ** 3, True
            check = "-"
        else:
            scipy_s, estimated, check = None, False, "-"
        speedup = scipy_s / ours_s if scipy_s else None
        row = {
            "device": rep.device, "backend": rep.backend, "algo": rep.algo, "dtype": rep.dtype,
            "n": n, "density": args.density, "reps": args.reps,
            "scipy_median_s": scipy_s, "scipy_estimated": estimated,
            "ocl_sp_median_s": ours_s, "ocl_sp_first_s": first,
            "speedup": speedup, "ocl_sp_t_k_s": statistics.median(tks),
            "conversion_s": statistics.median(conv),
            "relax_per_s": rep.relaxations / ours_s, "check": check,
        }
        rows.append(row)
        if not printed_header:
            print(f"# ocl_sp: {rep.algo} on {rep.backend}, {rep.device} ({rep.driver}), "
                  f"{rep.dtype}")
            print(header)
            printed_header = True
        scipy_txt = fmt_s(scipy_s) + (" (est)" if estimated else "")
        print(f"{n:>6} {scipy_txt:>12} {fmt_s(ours_s):>10} "
              f"{(f'{speedup:.0f}x' if speedup else '-'):>9} {fmt_s(first):>11} "
              f"{fmt_s(row['ocl_sp_t_k_s']):>10} {fmt_s(row['conversion_s']):>9} "
              f"{row['relax_per_s'] / 1e9:>10.1f}  {check}", flush=True)
    print("# load average at end: %.2f %.2f %.2f" % os.getloadavg())
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return 1 if any(r["check"] == "DIFFERENT" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
