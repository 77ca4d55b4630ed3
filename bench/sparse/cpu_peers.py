#!/usr/bin/env python3
"""ocl_sp --algo sssp --backend openmp against CPU peers.

Peers, each computing all n x n distances of the same DIMACS .gr file:
  scipy      scipy.sparse.csgraph.shortest_path(method='D')   1 thread, float64
  networkit  networkit.distance.APSP (Dijkstra per source)     all threads, float64
  igraph     python-igraph Graph.distances(weights=...)        1 thread, float
  ocl_sp     ocl_sp --input F --algo sssp --backend openmp      all threads, int32
  ocl_sp_passive  the same with OMP_WAIT_POLICY=passive (libgomp threads sleep at
             barriers instead of spinning: matters when the cores are shared)

Graphs (written once, fixed seeds, fed unchanged to every tool):
  grid100    100 x 100 4-neighbour lattice, both directions, each arc its own
             integer weight in 1..100 (n = 10 000, m = 39 600)
  random20   n = 4 000, each vertex 20 distinct random out-neighbours (no self
             loops, so no parallel arcs), integer weights 1..100 (m = 80 000)

Every tool runs RUNS times, each run a fresh process. compute_s is the
computation alone (peers: the library call, timed inside the process; ocl_sp:
its JSON t_k); wall_s is the whole process as seen from here (interpreter,
imports, reading the .gr file, building the graph, the computation; ocl_sp:
reading, solving, exit). Graph construction of the peers is reported in notes.
Before each timed run the driver waits until the 1-minute load average is below
--load-max (polling every 30 s) or the --wait-until deadline (UTC HH:MM) has
passed; the load average before each run goes into notes.

Rows 0, n/2 and n-1 of every peer are compared with ocl_sp's --output (a
separate, untimed run) exactly.

Usage (a python with numpy, scipy, networkit and igraph, e.g. the repo's .venv):
  .venv/bin/python bench/sparse/cpu_peers.py --ocl-sp /tmp/ocl_sp_peer
"""

import argparse
import csv
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INT_INF = 1073741823  # ocl_sp's int32 INF (2^30 - 1)


# ---------------------------------------------------------------- graphs
def make_grid(k, seed):
    rng = np.random.default_rng(seed)
    idx = np.arange(k * k).reshape(k, k)
    right = np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1)
    down = np.stack([idx[:-1, :].ravel(), idx[1:, :].ravel()], axis=1)
    und = np.concatenate([right, down])
    arcs = np.concatenate([und, und[:, ::-1]])
    w = rng.integers(1, 101, size=len(arcs))
    return k * k, arcs[:, 0], arcs[:, 1], w


def make_random(n, degree, seed):
    rng = np.random.default_rng(seed)
    src = np.repeat(np.arange(n), degree)
    dst = np.empty(n * degree, dtype=np.int64)
    for u in range(n):
        d = rng.choice(n - 1, size=degree, replace=False)
        d[d >= u] += 1  # skip u itself
        dst[u * degree:(u + 1) * degree] = d
    w = rng.integers(1, 101, size=n * degree)
    return n, src, dst, w


def write_gr(path, n, src, dst, w, comment):
    order = np.lexsort((dst, src))
    src, dst, w = src[order], dst[order], w[order]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"c {comment}\np sp {n} {len(src)}\n")
        np.savetxt(f, np.stack([src + 1, dst + 1, w], axis=1), fmt="a %d %d %d")
    os.replace(tmp, path)


def read_gr(path):
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                _, _, n, m = line.split()
                n, m = int(n), int(m)
                break
    e = np.loadtxt(path, dtype=np.int64, usecols=(1, 2, 3), comments=("c", "p"), ndmin=2)
    assert len(e) == m, (len(e), m)
    return n, e[:, 0] - 1, e[:, 1] - 1, e[:, 2]


# ----------------------------------------------------------------- peers
def peer_main(tool, graph, rows_out):
    """One timed run of one peer in this (fresh) process; JSON on stdout."""
    t0 = time.perf_counter()
    n, src, dst, w = read_gr(graph)
    t_read = time.perf_counter() - t0
    rows = [0, n // 2, n - 1]
    got = {}
    threads = 1
    if tool == "scipy":
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import shortest_path
        t0 = time.perf_counter()
        g = csr_matrix((w.astype(np.float64), (src, dst)), shape=(n, n))
        t_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        d = shortest_path(g, method="D", directed=True)
        t_comp = time.perf_counter() - t0
        assert d.shape == (n, n)
        got = {r: d[r].copy() for r in rows}
    elif tool == "networkit":
        import networkit as nk
        threads = os.cpu_count()
        nk.setNumberOfThreads(threads)
        threads = nk.getMaxNumberOfThreads()
        t0 = time.perf_counter()
        g = nk.Graph(n, weighted=True, directed=True)
        g.addEdges((w.astype(np.float64), (src, dst)))
        t_build = time.perf_counter() - t0
        assert g.numberOfEdges() == len(src)
        a = nk.distance.APSP(g)
        t0 = time.perf_counter()
        a.run()
        t_comp = time.perf_counter() - t0
        got = {r: np.array([a.getDistance(r, v) for v in range(n)]) for r in rows}
    elif tool == "igraph":
        import igraph as ig
        t0 = time.perf_counter()
        g = ig.Graph(n=n, edges=np.stack([src, dst], axis=1).tolist(), directed=True)
        g.es["weight"] = w.astype(np.float64).tolist()
        t_build = time.perf_counter() - t0
        # All n sources, in chunks so the Python lists the binding returns (24+ bytes
        # a float) stay small; only the checked rows are kept.
        chunk = max(1, 10_000_000 // n)
        t0 = time.perf_counter()
        for s in range(0, n, chunk):
            srcs = list(range(s, min(n, s + chunk)))
            res = g.distances(source=srcs, weights="weight", mode="out")
            for r in rows:
                if s <= r < s + len(srcs):
                    got[r] = np.array(res[r - s], dtype=np.float64)
            del res
        t_comp = time.perf_counter() - t0
    else:
        raise SystemExit(f"unknown peer {tool}")
    np.savez(rows_out, rows=np.array(rows), **{f"r{r}": got[r] for r in rows})
    print(json.dumps({"read_s": t_read, "build_s": t_build, "compute_s": t_comp,
                      "threads": threads}))


# ---------------------------------------------------------------- driver
def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cpu_idle(seconds=2.0):
    """Fraction of all CPUs idle over the next `seconds` (/proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)  # idle + iowait, total
    i0, t0 = sample()
    time.sleep(seconds)
    i1, t1 = sample()
    return (i1 - i0) / max(1, t1 - t0)


LAST_IDLE = [None]


def wait_for_quiet(load_max, deadline, idle_min=0.0):
    while True:
        la = loadavg()
        idle = cpu_idle() if idle_min > 0 else None
        LAST_IDLE[0] = idle
        now = dt.datetime.now(dt.timezone.utc)
        if la < load_max and (idle is None or idle >= idle_min):
            return la, False
        if idle is not None and la < load_max:
            print(f"  [{now:%H:%M:%S}] load {la:.2f}, idle {idle:.0%} < {idle_min:.0%}, waiting",
                  flush=True)
            if now < deadline:
                time.sleep(5)
                continue
        if now >= deadline:
            print(f"  [{now:%H:%M:%S}] load {la:.2f}"
                  + (f", idle {idle:.0%}" if idle is not None else "")
                  + ": not quiet, deadline passed: running anyway", flush=True)
            return la, True
        print(f"  [{now:%H:%M:%S}] load {la:.2f} >= {load_max}, waiting 30 s", flush=True)
        time.sleep(30)


def run_timed(cmd, load_max, deadline, env=None, idle_min=0.0):
    la, forced = wait_for_quiet(load_max, deadline, idle_min)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1]), wall, la, forced


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    ap.add_argument("--graph", help=argparse.SUPPRESS)
    ap.add_argument("--rows-out", help=argparse.SUPPRESS)
    ap.add_argument("--ocl-sp", default=os.path.join(REPO, "build", "ocl_sp"))
    ap.add_argument("--work", default="/tmp/ocl_sp_cpu_peers", help="graphs and outputs")
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "results", "cpu-amd-epyc-2c", "sparse", "cpu-peers", "peers.csv"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--graphs", default="grid100,random20")
    ap.add_argument("--tools", default="ocl_sp,ocl_sp_passive,networkit,scipy,igraph")
    ap.add_argument("--load-max", type=float, default=2.5)
    ap.add_argument("--idle-min", type=float, default=0.0,
                    help="also wait until this fraction of the CPUs was idle over 2 s (0: off)")
    ap.add_argument("--merge", action="store_true",
                    help="keep the rows of --out that this run does not measure (tool, graph)")
    ap.add_argument("--wait-until", default="15:35", help="UTC HH:MM after which runs go ahead at any load")
    a = ap.parse_args()
    if a.peer:
        return peer_main(a.peer, a.graph, a.rows_out)

    hh, mm = map(int, a.wait_until.split(":"))
    deadline = dt.datetime.now(dt.timezone.utc).replace(hour=hh, minute=mm, second=0, microsecond=0)
    os.makedirs(a.work, exist_ok=True)
    specs = {
        "grid100": lambda: make_grid(100, 100),
        "random20": lambda: make_random(4000, 20, 4000),
    }
    descr = {"grid100": "grid 100x100 4-neighbour, both directions, weights 1:100 per arc, seed 100",
             "random20": "random n=4000, 20 distinct out-neighbours per vertex, weights 1:100, seed 4000"}
    results = []
    for gname in a.graphs.split(","):
        path = os.path.join(a.work, gname + ".gr")
        if not os.path.exists(path):
            n, s, d, w = specs[gname]()
            write_gr(path, n, s, d, w, descr[gname])
        n, s, d, w = read_gr(path)
        m = len(s)
        print(f"== {gname}: {path} n={n} m={m}", flush=True)

        # Reference: ocl_sp's full matrix (untimed run).
        ref_path = os.path.join(a.work, gname + "_ocl_sp.npy")
        subprocess.run([a.ocl_sp, "--input", path, "--algo", "sssp", "--backend", "openmp",
                        "--quiet", "--output", ref_path], check=True, stdout=subprocess.DEVNULL)
        ref = np.load(ref_path, mmap_mode="r")
        assert ref.shape == (n, n), ref.shape

        for tool in a.tools.split(","):
            comp, walls, loads, notes, threads, forced = [], [], [], [], 1, False
            extra, idles = [], []
            for _ in range(a.runs):
                if tool.startswith("ocl_sp"):
                    cmd = [a.ocl_sp, "--input", path, "--algo", "sssp", "--backend", "openmp",
                           "--json", "--quiet"]
                    env = dict(os.environ)
                    if tool == "ocl_sp_passive":
                        env["OMP_WAIT_POLICY"] = "passive"
                    rep, wall, la, fo = run_timed(cmd, a.load_max, deadline, env, a.idle_min)
                    assert rep["algorithm"] == "sssp" and rep["backend"] == "openmp", rep
                    comp.append(rep["t_k"])
                    extra.append(rep["solve"])
                    threads = int(rep["device"].split("(")[1].split()[0])
                    driver = rep["driver"]
                else:
                    rows_out = os.path.join(a.work, f"{gname}_{tool}_rows.npz")
                    cmd = [sys.executable, os.path.abspath(__file__), "--peer", tool,
                           "--graph", path, "--rows-out", rows_out]
                    rep, wall, la, fo = run_timed(cmd, a.load_max, deadline, None, a.idle_min)
                    comp.append(rep["compute_s"])
                    extra.append(rep["build_s"])
                    threads = rep["threads"]
                walls.append(wall)
                loads.append(la)
                if LAST_IDLE[0] is not None:
                    idles.append(LAST_IDLE[0])
                forced = forced or fo
                print(f"  {tool:9s} compute {comp[-1]:8.3f} s  wall {wall:8.3f} s  load {la:.2f}"
                      + (f"  idle {LAST_IDLE[0]:.0%}" if LAST_IDLE[0] is not None else ""),
                      flush=True)
            # Row check against ocl_sp's matrix.
            if tool.startswith("ocl_sp"):
                if tool == "ocl_sp_passive":
                    notes.append("OMP_WAIT_POLICY=passive")
                check = "reference (--output int32; unreachable = 2^30-1)"
                fin = np.asarray(ref[[0, n // 2, n - 1]])
                assert (fin < INT_INF).all(), "unreachable pairs in a checked row"
                notes.append(f"solve {statistics.median(extra):.3f} s; {driver}; int32")
            else:
                z = np.load(rows_out)
                for r in z["rows"]:
                    mine = z[f"r{r}"]
                    want = np.asarray(ref[r]).astype(np.float64)
                    want[want >= INT_INF] = np.inf
                    if not np.array_equal(mine, want):
                        bad = np.flatnonzero(mine != want)
                        sys.exit(f"error: {tool} row {r} differs from ocl_sp at {bad[:5]}: "
                                 f"{mine[bad[:5]]} vs {want[bad[:5]]}")
                check = "rows 0, n/2, n-1 equal ocl_sp"
                notes.append(f"build {statistics.median(extra):.3f} s; float64 weights")
                if tool == "igraph":
                    notes.append("compute includes the binding's list conversion")
            notes.append(check)
            notes.append("load " + "/".join(f"{x:.2f}" for x in loads) +
                         (" (above limit: deadline passed)" if forced else ""))
            if idles:
                notes.append("idle before runs " + "/".join(f"{x:.0%}" for x in idles))
            results.append({"tool": tool, "graph": gname, "n": n, "m": m, "threads": threads,
                            "compute_s_median": round(statistics.median(comp), 4),
                            "wall_s_median": round(statistics.median(walls), 4),
                            "runs": a.runs, "notes": "; ".join(notes)})
        del ref

    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    if a.merge and os.path.exists(a.out):
        with open(a.out, newline="") as f:
            old = list(csv.DictReader(f))
        done = {(r["tool"], r["graph"]) for r in results}
        kept = []
        for r in old:
            if (r["tool"], r["graph"]) in done:
                continue
            for k in ("n", "m", "threads", "runs"):
                r[k] = int(r[k])
            for k in ("compute_s_median", "wall_s_median"):
                r[k] = float(r[k])
            kept.append(r)
        order = {t: i for i, t in enumerate(["ocl_sp", "ocl_sp_passive", "networkit", "scipy", "igraph"])}
        gorder = {g: i for i, g in enumerate(specs)}
        results = sorted(kept + results, key=lambda r: (gorder.get(r["graph"], 99),
                                                         order.get(r["tool"], 99)))
    cols = ["tool", "graph", "n", "m", "threads", "compute_s_median", "wall_s_median", "runs", "notes"]
    with open(a.out, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=cols)
        wr.writeheader()
        wr.writerows(results)

    print(f"\n{'tool':10s} {'graph':9s} {'n':>6s} {'m':>6s} {'thr':>3s} {'compute s':>10s} "
          f"{'wall s':>8s}  ratio vs ocl_sp (compute / wall)")
    for r in results:
        o = next(x for x in results if x["graph"] == r["graph"] and x["tool"] == "ocl_sp")
        rc = r["compute_s_median"] / o["compute_s_median"]
        rw = r["wall_s_median"] / o["wall_s_median"]
        print(f"{r['tool']:10s} {r['graph']:9s} {r['n']:6d} {r['m']:6d} {r['threads']:3d} "
              f"{r['compute_s_median']:10.3f} {r['wall_s_median']:8.3f}  {rc:6.2f}x / {rw:6.2f}x")
    print(f"\nwrote {a.out}")


if __name__ == "__main__":
    main()
