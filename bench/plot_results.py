#!/usr/bin/env python3
"""Plots of the headline tables, made from the runs' data under bench/results/.

Usage: python3 bench/plot_results.py [--out DIR] [--format png|svg] [--print]

Reads the data files named in SOURCES (bench CSVs of `ocl_sp bench`, the
runs.jsonl of bench/scale_run.sh, the CSV of bench/python_vs_scipy.py), prints
the rows it plots (--print: only that) and draws one chart per headline table
with gnuplot (installed by scripts/setup.sh):

  dense.png   relaxations per second of kernel time against n: fw and squaring on
              the GPUs, fw on the CPU (OpenMP, PoCL);
  scale.png   the panel engine: relaxations per second against n per placement
              (single buffer, resident panels, out of core);
  sparse.png  every row of a graph: sssp against fw, kernel time (H100);
  python.png  ocl_sp.floyd_warshall against scipy's, speed-up against n;
  gpus.png    several GPUs of one host: speed-up of the solve (and of T_k) over
              one GPU against the GPU count (bench/gpus_run.sh's cases).

Standard library only (no numpy or matplotlib needed).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
R = os.path.join(HERE, "results")

# (series label, file under bench/results, row filter)
DENSE = [
    ("H100 fw", "nvidia-h100/fw/cp-async-ring-final-3/bench_fw_int32.csv", {"algorithm": "fw"}),
    ("H100 squaring", "nvidia-h100/fw/cp-async-ring-final-3/bench_squaring_int32.csv", {"algorithm": "squaring"}),
    ("H200 fw (paper sizes)", "nvidia-h200/fw/bench-paper-sizes/bench.csv", {"column": "nvidia", "algorithm": "fw"}),
    ("H200 squaring (paper sizes)", "nvidia-h200/fw/bench-paper-sizes/bench.csv", {"column": "nvidia", "algorithm": "squaring"}),
    ("2-core EPYC OpenMP fw", "cpu-amd-epyc-2c/fw/bench-paper-sizes/bench.csv", {"column": "openmp", "algorithm": "fw"}),
    ("2-core EPYC PoCL fw", "cpu-amd-epyc-2c/fw/bench-paper-sizes/bench.csv", {"column": "pocl", "algorithm": "fw"}),
]
SCALE = [
    ("H100", "nvidia-h100/out-of-core/scale-run-2/runs.jsonl"),
    ("H200", "nvidia-h200/out-of-core/scale-run-1/runs.jsonl"),
]
SPARSE = [  # graph label, bench CSV (fw and sssp rows of one graph)
    ("grid 100x100", "nvidia-h100/sparse/engine/grid100.csv"),
    ("random deg 20, n=10^4", "nvidia-h100/sparse/engine/random20_10k.csv"),
    ("grid 316x316", "nvidia-h100/sparse/engine/grid316.csv"),
    ("geometric deg 6, n=10^5", "nvidia-h100/sparse/engine/geometric6_100k.csv"),
]
# (series label, run folder, report files by GPU count, the report field)
GPUS = [
    ("fw n=40000, solve", "nvidia-h100/several-gpus/x4-host-threads-fw-stats",
     {1: "fw40k-1gpu-%d.json", 2: "fw40k-2gpu-%d.json", 4: "fw40k-4gpu-%d.json"}, "solve"),
    ("fw n=40000, T_k", "nvidia-h100/several-gpus/x4-host-threads-fw-stats",
     {1: "fw40k-1gpu-%d.json", 2: "fw40k-2gpu-%d.json", 4: "fw40k-4gpu-%d.json"}, "t_k"),
    ("--stats geometric n=10^5, solve", "nvidia-h100/several-gpus/x4-stats-bytes-100k",
     {1: "geo_one.json", 2: "geo_two.json", 4: ["geo_four.json", "geo_four2.json", "geo_four3.json"]}, "solve"),
]
PYTHON = [("H200", "nvidia-h200/python/floyd-warshall-vs-scipy/python_vs_scipy_n5000.csv")]


def rows_of(path, where):
    with open(os.path.join(R, path), newline="") as f:
        for row in csv.DictReader(f):
            if all(row.get(k) == v for k, v in where.items()) and row.get("status", "ok") == "ok":
                yield row


def dense():
    series = []
    for label, path, where in DENSE:
        pts = sorted((int(r["n"]), float(r["relaxations_per_s"])) for r in rows_of(path, where)
                     if r.get("relaxations_per_s"))
        series.append((label, path, pts))
    return series


def placement_kind(p):
    for k in ("single buffer", "resident panels", "out of core"):
        if p.startswith(k):
            return k
    return p


def scale():
    by = {}
    for dev, path in SCALE:
        for line in open(os.path.join(R, path)):
            r = json.loads(line)
            if r.get("rc", 0) != 0 or not r.get("relaxations_per_s") or r["n"] < 10000:
                continue
            key = "%s %s" % (dev, placement_kind(r["placement"]))
            by.setdefault(key, (path, []))[1].append((r["n"], r["relaxations_per_s"]))
    return [(k, p, sorted(v)) for k, (p, v) in sorted(by.items())]


def sparse():
    out = []
    for label, path in SPARSE:
        t = {}
        for r in rows_of(path, {}):
            t[r["algorithm"]] = float(r["t_k"])
        out.append((label, path, t))
    return out


def python():
    out = []
    for dev, path in PYTHON:
        pts = sorted((int(r["n"]), float(r["speedup"])) for r in rows_of(path, {}))
        out.append(("%s ocl_sp / scipy" % dev, path, pts))
    return out


def gpus():
    """Speed-up over one GPU (medians of the runs) per GPU count."""
    out = []
    for label, folder, files, field in GPUS:
        med = {}
        for k, pat in files.items():
            names = pat if isinstance(pat, list) else ([pat % r for r in (1, 2, 3)] if "%d" in pat else [pat])
            vals = []
            for name in names:
                f = os.path.join(R, folder, name)
                if os.path.exists(f):
                    vals.append(float(json.load(open(f))[field]))
            if vals:
                vals.sort()
                med[k] = vals[len(vals) // 2]
        if 1 in med:
            out.append((label, folder, sorted((k, med[1] / v) for k, v in med.items())))
    return out


def gnuplot(script, out):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print("wrote", out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(R, "plots"))
    ap.add_argument("--format", choices=("png", "svg"), default="png")
    ap.add_argument("--print", action="store_true", help="print the data only")
    a = ap.parse_args()
    d, s, sp, py, g = dense(), scale(), sparse(), python(), gpus()
    for title, data in (("dense (relax/s of T_k)", d), ("scale (relax/s of T_k)", s), ("python (speed-up)", py),
                        ("several GPUs (speed-up over one)", g)):
        print("==", title)
        for label, path, pts in data:
            print("  %-30s %s  [%s]" % (label, " ".join("%d:%.3g" % p for p in pts), path))
    print("== sparse (T_k, s)")
    for label, path, t in sp:
        print("  %-26s %s  [%s]" % (label, " ".join("%s %.4g" % kv for kv in sorted(t.items())), path))
    if a.print:
        return 0
    if not shutil.which("gnuplot"):
        print("error: gnuplot not found (scripts/setup.sh installs gnuplot-nox)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    term = "pngcairo size 900,560" if a.format == "png" else "svg size 900,560"
    tmp = tempfile.mkdtemp()

    def lines(series, fmt):
        files = []
        for i, (label, _, pts) in enumerate(series):
            f = os.path.join(tmp, "s%d_%d.dat" % (id(series) % 1000, i))
            with open(f, "w") as o:
                for p in pts:
                    o.write(fmt % p + "\n")
            files.append("'%s' using 1:2 with linespoints lw 2 title '%s'" % (f, label))
        return ", ".join(files)

    def term_out(name):
        return "set terminal %s\nset output '%s'\n" % (term, os.path.join(a.out, name + "." + a.format))

    gnuplot(term_out("dense") + "set logscale xy\nset xlabel 'n'\nset ylabel 'relaxations / s (T_k)'\n"
            "set key left top\nset grid\nset title 'Dense solvers, int32'\nplot "
            + lines(d, "%d %g") + "\n", "dense")
    gnuplot(term_out("scale") + "set logscale y\nset xlabel 'n'\nset ylabel 'relaxations / s (T_k)'\n"
            "set key right bottom\nset grid\nset yrange [1e12:2e13]\nset title 'Panel engine: fw by placement'\nplot "
            + lines(s, "%d %g") + "\n", "scale")
    gnuplot(term_out("python") + "set logscale xy\nset xlabel 'n'\nset ylabel 'speed-up over scipy'\n"
            "set key left top\nset grid\nset title 'ocl_sp.floyd_warshall against scipy (whole call)'\nplot "
            + lines(py, "%d %g") + "\n", "python")
    gnuplot(term_out("gpus") + "set xlabel 'GPUs (H100, one host)'\nset ylabel 'speed-up over one GPU'\n"
            "set key left top\nset grid\nset xtics (1, 2, 4)\nset xrange [0.8:4.2]\nset yrange [0:4.2]\n"
            "set title 'Several GPUs: the whole solve against the kernels'\nplot x with lines dt 2 title 'ideal', "
            + lines(g, "%d %g") + "\n", "gpus")
    f = os.path.join(tmp, "sparse.dat")
    with open(f, "w") as o:
        for label, _, t in sp:
            o.write('"%s" %g %g\n' % (label, t.get("fw", float("nan")), t.get("sssp", float("nan"))))
    gnuplot(term_out("sparse") + "set style data histogram\nset style histogram cluster gap 1\n"
            "set style fill solid 0.8\nset logscale y\nset ylabel 'T_k, s'\nset grid ytics\n"
            "set xtics rotate by -20\nset key left top\nset title 'Every row: sssp against fw (H100)'\n"
            "plot '%s' using 2:xtic(1) title 'fw', '' using 3 title 'sssp'\n" % f, "sparse")
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
