#!/usr/bin/env python3
"""Which "many sets in one call" cells miss 1.5x, and whether any function could
reach it: reads the runner's results (target/bench/results.json, or the file
given) from `bash scripts/bench.sh --only many`, and prints per cell the
aggregate's time over the n-way function's, and the most any function could
gain there: the aggregate's time over the slowest floor measured beside it
(the query's shape alone, with every set read, or with two sets intersected;
see benches/runner/src/workloads/many.rs).

A cell whose bound is below the target is limited by what any n-way function
must do there ("floor"); one whose bound is above it has room left ("room").

    python3 benches/many_floors.py [results.json] [--target 1.5] [--all]
"""

import argparse
import json
import re
from collections import defaultdict

FLOORS = ("shape alone", "shape, sets read", "shape, two sets intersected")


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
        yield case, m.group(1), shape, agg / times["roaring64"], agg / max(floors)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="?", default="target/bench/results.json")
    p.add_argument("--target", type=float, default=1.5)
    p.add_argument("--all", action="store_true", help="list the cells that meet it too")
    a = p.parse_args()
    with open(a.results) as f:
        records = json.load(f)["records"]
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
