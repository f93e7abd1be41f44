"""The Python side of the benchmark runner's `clients` group (see
benches/runner/src/workloads/clients.rs, which builds the table cl_sets and runs
this script): the largest follower set and 10,000 typical ones read into Python
through four forms of the same column, and sroar.Roaring against pyroaring's
BitMap64 once both are in memory. Prints JSON records on stdout.

    python benches/clients/read.py --host 127.0.0.1 --port 15434 --dbname sroar_bench
"""

import argparse
import json
import statistics
import time

import psycopg
import pyroaring

import sroar.psycopg
from sroar import Roaring

BINARY, PORTABLE, ARRAY, TEXT = "roaring64", "portable + pyroaring", "int8[] into set", "text"
PROBES = 1000


def read_forms(conn):
    """Per form: (read the largest set, read one typical set's query result)."""
    largest = "SELECT {} FROM cl_sets WHERE uid = 0"
    typical = "SELECT {} FROM cl_sets WHERE uid > 0"

    def one(sql, binary=True):
        return conn.execute(sql, binary=binary).fetchone()[0]

    def many(sql, binary=True):
        return [r[0] for r in conn.execute(sql, binary=binary).fetchall()]

    return {
        BINARY: (lambda: one(largest.format("s")), lambda: many(typical.format("s"))),
        PORTABLE: (
            lambda: pyroaring.BitMap64.deserialize(one(largest.format("rb_to_portable(s)"))),
            lambda: [pyroaring.BitMap64.deserialize(b) for b in many(typical.format("rb_to_portable(s)"))],
        ),
        ARRAY: (lambda: set(one(largest.format("a"))), lambda: [set(a) for a in many(typical.format("a"))]),
        TEXT: (
            lambda: one(largest.format("s"), binary=False),
            lambda: many(typical.format("s"), binary=False),
        ),
    }


def and_len(form, a, b):
    if form in (BINARY, TEXT):
        return a.and_len(b)
    if form == PORTABLE:
        return a.intersection_cardinality(b)
    return len(a & b)


def interleaved(paths, reps):
    """Runs each path once to warm up, then `reps` rounds, rotating the order."""
    names = list(paths)
    samples = {n: [] for n in names}
    answers = {}
    for rnd in range(reps + 1):
        for k in range(len(names)):
            name = names[(k + rnd) % len(names)]
            t = time.perf_counter()
            answers[name] = paths[name]()
            if rnd:
                samples[name].append((time.perf_counter() - t) * 1e3)
    return samples, answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", default="15434")
    ap.add_argument("--dbname", default="sroar_bench")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    conn = psycopg.connect(f"host={args.host} port={args.port} user=postgres dbname={args.dbname}", autocommit=True)
    sroar.psycopg.register(conn)
    forms = read_forms(conn)
    records, failures = [], []

    def add(workload, case, samples, answers):
        if len({json.dumps(a) for a in answers.values()}) != 1:
            failures.append(f"{case}: the forms disagree: {answers}")
        for system, s in samples.items():
            records.append({"workload": workload, "case": case, "system": system, "samples_ms": s})

    # Each form's own typical set and probes, read once outside the timings.
    probes = list(range(0, 5_500_000, 5_500_000 // PROBES))[:PROBES]
    some_typical = {f: forms[f][1]()[0] for f in forms}

    def end_to_end(form):
        def run():
            big = forms[form][0]()
            hits = sum(1 for x in probes if x in big)
            return [len(big), hits, and_len(form, big, some_typical[form])]

        return run

    samples, answers = interleaved({f: end_to_end(f) for f in forms}, args.reps)
    add("python", "largest set: read, len, 1,000 in, & one typical", samples, answers)

    def all_typical(form):
        def run():
            big = forms[form][0]()
            return [len(big), sum(and_len(form, big, t) for t in forms[form][1]())]

        return run

    samples, answers = interleaved({f: all_typical(f) for f in forms}, args.reps)
    add("python", "largest ∩ each typical", samples, answers)

    # In memory: sroar.Roaring against pyroaring.BitMap64 on the same sets. Each
    # sample repeats the operation to run a millisecond or so, in steady state: a
    # single 30 us run measured the timer and the caches the other paths left.
    ours = forms[BINARY][0]()
    theirs = ours.to_pyroaring()
    half_ours = ours[: len(ours) // 2]
    half_theirs = half_ours.to_pyroaring()
    t_ours, t_theirs = some_typical[BINARY], some_typical[PORTABLE]
    ops = {
        "len ×1,000": (lambda r, t, h: sum(len(r) for _ in range(1000))),
        "1,000 in ×20": (lambda r, t, h: sum(1 for _ in range(20) for x in probes if x in r)),
        "& one typical ×1,000": (lambda r, t, h: sum(len(r & t) for _ in range(1000))),
        "& half of itself ×20": (lambda r, t, h: sum(len(r & h) for _ in range(20))),
    }
    for case, op in ops.items():
        samples, answers = interleaved(
            {"roaring64": lambda: op(ours, t_ours, half_ours), "pyroaring BitMap64": lambda: op(theirs, t_theirs, half_theirs)},
            args.reps,
        )
        add("python in memory", case, samples, answers)

    json.dump({"records": records, "failures": failures}, __import__("sys").stdout)


if __name__ == "__main__":
    main()
