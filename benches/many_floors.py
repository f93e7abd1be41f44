#!/usr/bin/env python3
"""Which "many sets in one call" cells miss 1.5x, and whether any function could
reach it: reads the runner's results (target/bench/results.json, or the file
given) from `bash scripts/bench.sh --only many`, and prints per cell the
aggregate's time over the n-way function's, and the most any function could
gain there: the aggregate's time over the slowest floor measured beside it
(the query's shape alone, with every set read, or with two sets intersected;
see benches/runner/src/workloads/many.rs), plus for a union the same unions
computed in memory by the faster of sroar and CRoaring.

A cell whose bound is below the target is limited by what any n-way function
must do there ("floor"); one whose bound is above it has room left ("room").

    python3 benches/many_floors.py [results.json] [--target 1.5] [--all] [--table]

With --table, the table of BENCHMARKS.md's "Many sets in one call" instead:
aggregate / function, from a join / VARIADIC, with the bound in brackets below
the target.
"""

import argparse
import json
import re
from collections import defaultdict

FLOORS = ("shape alone", "shape, sets read", "shape, two sets intersected")
IN_MEMORY = ("union in memory, sroar", "union in memory, CRoaring")


def cells(records):
    by_cell = defaultdict(dict)
    for r in records:
        if r["workload"].startswith("many/"):
            by_cell[(r["workload"], r["case"])][r["system"]] = r["median_ms"]
    for (workload, case), times in sorted(by_cell.items()):
        floors = [times[f] for f in FLOORS if f in times]
        m = re.match(r"many/(\w+)\((VARIADIC array_agg|a, b, …)\)", workload)
        if not m or "roaring64" not in times or "aggregate" not in times or not floors:
            continue
        shape = "VARIADIC" if m.group(2).startswith("VARIADIC") else "args"
        agg = times["aggregate"]
        work = min((times[s] for s in IN_MEMORY if s in times), default=0.0)
        yield case, m.group(1), shape, agg / times["roaring64"], agg / (max(floors) + work)


def table(records, target):
    fns = ("rb_or_cardinality", "rb_and_cardinality", "rb_or", "rb_and")
    got = {(case, fn, shape): (ratio, bound) for case, fn, shape, ratio, bound in cells(records)}

    def cell(case, fn, shape):
        if (case, fn, shape) not in got:
            return "-"
        ratio, bound = got[(case, fn, shape)]
        return f"{ratio:.2f}x" + (f" ({bound:.2f}x)" if ratio < target else "")

    lines = ["| k sets per call | " + " | ".join(f"`{f}`" for f in fns) + " |",
             "|---|" + "---:|" * len(fns)]
    for size in ("large", "small"):
        for k in (3, 5, 20, 90):
            case = f"{size} sets, {k} per call"
            row = [f"{cell(case, f, 'args')} / {cell(case, f, 'VARIADIC')}" for f in fns]
            lines.append(f"| {size}, {k} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="?", default="target/bench/results.json")
    p.add_argument("--target", type=float, default=1.5)
    p.add_argument("--all", action="store_true", help="list the cells that meet it too")
    p.add_argument("--table", action="store_true", help="print the markdown table")
    a = p.parse_args()
    with open(a.results) as f:
        records = json.load(f)["records"]
    if a.table:
        print(table(records, a.target))
        return
    counts = defaultdict(int)
    rows = []
    for case, fn, shape, ratio, bound in cells(records):
        status = "meets" if ratio >= a.target else ("floor" if bound < a.target else "room")
        counts[status] += 1
        if a.all or status != "meets":
            rows.append(f"{case:24} {fn:20} {shape:8} {ratio:5.2f}x  bound {bound:5.2f}x  {status}")
    print("\n".join(rows))
    print(", ".join(f"{n} {s}" for s, n in sorted(counts.items())), f"(target {a.target}x)")


if __name__ == "__main__":
    main()
