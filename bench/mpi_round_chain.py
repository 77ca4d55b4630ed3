#!/usr/bin/env python3
"""The chain that feeds each round of the distributed fw, from the ranks' traces
(OCL_SP_MPI_TRACE=PREFIX: PREFIX.RANK.tsv, one file a rank, times of one host's
monotonic clock).

For each round r, in milliseconds after round r's pivot was posted by its owner:
per role in the round (the pivot's owner, the other ranks of its process row and of
its process column, the rest; the latest rank where a role has several), when it had the pivot (arrived; 0 at the owner), when its step 2 was
enqueued, when the last block it sends was posted (read back), when the last block
it receives arrived, when its look-ahead onto row / column r + 1 was enqueued (round
r's GEMMs that round r + 1's pivot and step 2 need), and when round r + 1's pivot
was posted (the period). Then the medians of the rounds between the first two and
the last. Last, each rank's solve by parts (ms from the earliest rank's start): its
start (the local matrix's load), the load enqueued, round 0 begun, its last round
ended, its store begun and done. A rank's role is read from its events: it posted the pivot (owner), row
blocks (pivot row), column blocks (pivot column), ran step 2 sending nothing
(step 2), or none of these (other).

Usage: mpi_round_chain.py PREFIX [--rounds]   (--rounds: every round, not only the medians)
"""
import csv
import glob
import statistics
import sys


def load(prefix):
    ranks = {}
    for path in sorted(glob.glob(prefix + ".*.tsv")):
        rank = int(path[len(prefix) + 1:-4])
        with open(path) as f:
            ranks[rank] = [(float(e["seconds"]), int(e["round"]), e["event"], int(e["k"]))
                           for e in csv.DictReader(f, delimiter="\t")]
    if not ranks:
        sys.exit(f"error: no trace files {prefix}.RANK.tsv")
    return ranks


def first(events, r, names):
    ts = [t for t, rr, what, _ in events if rr == r and what in names]
    return min(ts) if ts else None


def last(events, r, names):
    ts = [t for t, rr, what, _ in events if rr == r and what in names]
    return max(ts) if ts else None


COLUMNS = ["pivot", "step2", "sent", "arrived", "look_ahead", "next_pivot"]


def chain(ranks, r):
    posted = [first(ev, r, {"pivot_posted"}) for ev in ranks.values()]
    t0 = min(t for t in posted if t is not None)
    nxt = [first(ev, r + 1, {"pivot_posted"}) for ev in ranks.values()]
    nxt = [t for t in nxt if t is not None]
    out = {}
    for rank, ev in ranks.items():
        role = role_of(ev, r)
        row = {
            "pivot": first(ev, r, {"pivot_posted", "pivot_arrived"}),
            "step2": first(ev, r, {"step2_enqueued", "pivot_step2_enqueued"}),
            "sent": last(ev, r, {"row_block_posted", "col_block_posted"}),
            "arrived": last(ev, r, {"row_block_arrived", "col_block_arrived"}),
            "look_ahead": first(ev, r, {"look_ahead_enqueued"}),
            "next_pivot": min(nxt) if nxt else None,
        }
        row = {k: None if v is None else 1000 * (v - t0) for k, v in row.items()}
        if role in out:  # the latest of the role's ranks
            row = {k: v if out[role][k] is None else out[role][k] if v is None else max(v, out[role][k])
                   for k, v in row.items()}
        out[role] = row
    return out


ROLES = ["owner", "pivot row", "pivot column", "step 2", "other"]


def role_of(events, r):
    seen = {what for _, rr, what, _ in events if rr == r}
    if "pivot_posted" in seen:
        return "owner"
    if "row_block_posted" in seen:
        return "pivot row"
    if "col_block_posted" in seen:
        return "pivot column"
    return "step 2" if "step2_enqueued" in seen else "other"


def show(title, table):
    print(title)
    print(f"{'role':<12} " + " ".join(f"{c:>10}" for c in COLUMNS))
    for role in ROLES:
        if role in table:
            row = table[role]
            print(f"{role:<12} " + " ".join("         -" if row[c] is None else f"{row[c]:10.1f}" for c in COLUMNS))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ranks = load(sys.argv[1])
    rounds = sorted({r for ev in ranks.values() for _, r, what, _ in ev if what == "pivot_posted"})
    tables = {r: chain(ranks, r) for r in rounds}
    if "--rounds" in sys.argv:
        for r in rounds:
            show(f"round {r} (ms after its pivot was posted)", tables[r])
    middle = rounds[2:-1] or rounds
    med = {}
    for role in ROLES:
        rows = [tables[r][role] for r in middle if role in tables[r]]
        if rows:
            med[role] = {}
            for c in COLUMNS:
                vals = [row[c] for row in rows if row[c] is not None]
                med[role][c] = statistics.median(vals) if vals else None
    show(f"medians of rounds {middle[0]}-{middle[-1]} (ms after the round's pivot was posted)", med)
    parts(ranks, rounds[-1])


PARTS = [("start", "load_start", -1), ("loaded", "load_enqueued", -1), ("round 0", "begin", 0),
         ("last end", "round_end", None), ("store", "store_start", -1), ("stored", "stored", -1)]


def parts(ranks, last):
    t0 = min(t for ev in ranks.values() for t, r, what, _ in ev if what == "load_start") if all(
        any(what == "load_start" for _, _, what, _ in ev) for ev in ranks.values()) else None
    if t0 is None:
        return  # a trace from before these events
    print("solve by parts (ms from the earliest rank's start)")
    print("rank " + " ".join(f"{name:>10}" for name, _, _ in PARTS))
    for rank, ev in sorted(ranks.items()):
        row = []
        for _, what, r in PARTS:
            t = first(ev, last if r is None else r, {what})
            row.append("         -" if t is None else f"{1000 * (t - t0):10.1f}")
        print(f"{rank:>4} " + " ".join(row))


if __name__ == "__main__":
    main()
