#!/usr/bin/env python3
"""bench/auto_choice.sh's runs.jsonl -> a CSV line per case (stdout): n, m, the
median whole solve ("solve" of the report) and kernel time of fw and sssp, what
auto chose with its two estimates, auto's median solve, and over the faster of
fw and sssp: auto's own median (auto_over_best) and the chosen algorithm's
median (chosen_over_best; the same solve, less noise).

  python3 bench/auto_choice_summary.py OUT/runs.jsonl > OUT/summary.csv
"""
import csv
import json
import re
import statistics
import sys
from collections import OrderedDict


def main():
    cases = OrderedDict()
    for line in open(sys.argv[1]):
        rec = json.loads(line)
        if rec["case"] == "warmup":
            continue
        c = cases.setdefault(rec["case"], {"fw": [], "sssp": [], "auto": [], "choice": "", "n": 0, "m": 0,
                                           "placement": ""})
        r = rec.get("report")
        if rec["rc"] != 0 or not r:
            c.setdefault("failed", []).append(f'{rec["algo"]} rc {rec["rc"]}')
            continue
        c["n"], c["m"] = r["n"], r["edges"]
        c[rec["algo"]].append((r["solve"], r["t_k"], r.get("t_h", 0)))
        if rec["algo"] == "auto":
            c["choice"] = r.get("algorithm_choice") or ""
            c["auto_algo"] = r["algorithm"]
        if rec["algo"] == "sssp":
            c["placement"] = r.get("placement", "")
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["case", "n", "m", "fw_solve", "fw_tk", "sssp_solve", "sssp_tk", "sssp_th", "faster",
                "auto_algo", "auto_est_fw", "auto_est_sssp", "auto_solve", "auto_over_best",
                "chosen_over_best", "runs", "sssp_placement", "failed"])
    for name, c in cases.items():
        med = {a: tuple(statistics.median(x[i] for x in c[a]) for i in range(3)) if c[a] else None
               for a in ("fw", "sssp", "auto")}
        est = re.search(r"(fw|sssp): estimated ([0-9.e+-]+) s against (fw|sssp) ([0-9.e+-]+) s", c["choice"])
        est_fw = est_sssp = ""
        if est:
            vals = {est.group(1): est.group(2), est.group(3): est.group(4)}
            est_fw, est_sssp = vals.get("fw", ""), vals.get("sssp", "")
        best = faster = None
        if med["fw"] and med["sssp"]:
            faster = "fw" if med["fw"][0] <= med["sssp"][0] else "sssp"
            best = med[faster][0]
        auto_algo = c.get("auto_algo", "")
        auto_over = f'{med["auto"][0] / best:.3f}' if best and med["auto"] else ""
        chosen_over = f'{med[auto_algo][0] / best:.3f}' if best and auto_algo in ("fw", "sssp") and med[auto_algo] else ""
        f = lambda x, i: f"{x[i]:.4f}" if x else ""  # noqa: E731
        w.writerow([name, c["n"], c["m"], f(med["fw"], 0), f(med["fw"], 1), f(med["sssp"], 0), f(med["sssp"], 1),
                    f(med["sssp"], 2), faster or "", auto_algo, est_fw, est_sssp, f(med["auto"], 0), auto_over,
                    chosen_over, f'{len(c["fw"])}/{len(c["sssp"])}/{len(c["auto"])}', c["placement"],
                    ";".join(c.get("failed", []))])


if __name__ == "__main__":
    main()
