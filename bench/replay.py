#!/usr/bin/env python3
"""Print how to run a stored run again, from its record in a runs.jsonl.

Usage: python3 bench/replay.py bench/results/<device>/<topic>/runs.jsonl [RUN]

Without RUN: one line per record (run, driver, date, about). With RUN: for a
record of bench/timed_runs.sh its flags, one run a line, ready for
  python3 bench/replay.py RECORDS RUN | bench/timed_runs.sh OCL_SP OUT -
and for any other driver the driver line with its flags (and the commands the
run executed, when the record keeps them, as comments).
"""
import json
import sys


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    if len(sys.argv) == 2:
        for r in recs:
            print("%-30s %-28s %s  %s" % (r["run"], r["driver"], r.get("date", "")[:10], r["about"]))
        return 0
    r = next((x for x in recs if x["run"] == sys.argv[2]), None)
    if r is None:
        print("error: no run '%s' in %s (runs: %s)" % (sys.argv[2], sys.argv[1],
              ", ".join(x["run"] for x in recs)), file=sys.stderr)
        return 2
    flags = r.get("flags", "")
    if r["driver"] == "bench/timed_runs.sh" and isinstance(flags, list):
        print("\n".join(flags))
        return 0
    print("# %s, commit %s" % (r["device"], r.get("commit", "")))
    print("%s %s" % (r["driver"], flags if isinstance(flags, str) else " ".join(flags)))
    for c in r.get("commands", []):
        print("#   " + c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
