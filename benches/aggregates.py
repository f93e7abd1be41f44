#!/usr/bin/env python3
"""Aggregate benchmark on the real-world roaring datasets, through a live server.

Compares, side by side in one run, rb_or_agg (roaring64 state held as an expanded
object), rb_or_agg_internal (the same accumulator behind an `internal` state) and a
naive aggregate whose transition is the pairwise rb_or (re-encodes every row), plus a
GROUP BY into 1000 groups over 50 copies of the dataset (HashAggregate). Timings are server-side (EXPLAIN ANALYZE execution time), the
median of --runs runs.

Usage (a server with sroar_pg installed, e.g. the one scripts/setup.sh starts):
    python3 benches/aggregates.py --port 15432 [--datasets census1881,wikileaks-noquotes] [--runs 5]
Needs only psql on PATH (or /usr/lib/postgresql/15/bin/psql).
"""
import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REALDATA = os.path.join(os.path.dirname(ROOT), "shared", "realdata")
PSQL = shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql"


def psql(args, sql, stdin=None):
    cmd = [PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
           "-p", str(args.port), "-U", "postgres", "-d", args.dbname, "-c", sql]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout


def load(args, name, shift):
    """Creates table bench_<name> with one roaring64 row per bitmap of the dataset."""
    table = "bench_" + name.replace("-", "_") + ("_64" if shift else "")
    with zipfile.ZipFile(os.path.join(REALDATA, name + ".zip")) as z:
        files = sorted(f for f in z.namelist() if f.endswith(".txt"))
        lines = []
        for i, f in enumerate(files):
            values = z.read(f).decode().strip().replace("\n", "").split(",")
            values = [int(v) + ((i << 36) if shift else 0) for v in values if v]
            lines.append("%d\t{%s}" % (i, ",".join(map(str, values))))
    psql(args, "DROP TABLE IF EXISTS %s; CREATE TABLE %s (id int, r roaring64)" % (table, table))
    psql(args, "COPY %s FROM STDIN" % table, stdin="\n".join(lines) + "\n")
    psql(args, "VACUUM ANALYZE %s" % table)
    return table, len(files)


def exec_ms(args, query, settings=""):
    out = psql(args, settings + "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + query)
    return json.loads(out)[0]["Execution Time"]


def median_ms(args, query, settings=""):
    exec_ms(args, query, settings)  # warm up caches
    return statistics.median(exec_ms(args, query, settings) for _ in range(args.runs))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=15432)
    p.add_argument("--dbname", default="postgres")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--datasets", default=None)
    args = p.parse_args()
    names = args.datasets.split(",") if args.datasets else sorted(
        f[:-4] for f in os.listdir(REALDATA) if f.endswith(".zip"))
    psql(args, "CREATE EXTENSION IF NOT EXISTS sroar_pg")
    psql(args, "DROP AGGREGATE IF EXISTS bench_naive_or(roaring64); "
               "CREATE AGGREGATE bench_naive_or(roaring64) (SFUNC = rb_or, STYPE = roaring64)")
    psql(args, "SET max_parallel_workers_per_gather = 0")
    print("| dataset | rows | rb_or_agg ms | rb_or_agg_internal ms | internal / expanded | naive rb_or ms "
          "| GROUP BY 1000 groups (50 copies, HashAggregate) expanded ms | internal ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for name in names:
        for shift in (False, True):
            table, rows = load(args, name, shift)
            q = "SELECT rb_cardinality(%s(r)) FROM " + table
            qg = ("SELECT sum(rb_cardinality(u)) FROM (SELECT g, %s(r) AS u FROM (SELECT (id * 31 + k) %% 1000 AS g, r FROM "
                  + table + ", generate_series(1, 50) k) t GROUP BY g) s")
            e = median_ms(args, q % "rb_or_agg")
            i = median_ms(args, q % "rb_or_agg_internal")
            n = median_ms(args, q % "bench_naive_or")
            # Both in one HashAggregate held in memory: the expanded state is seen by
            # memory accounting and would spill under the default work_mem, while the
            # planner avoids hashing an internal state it cannot spill.
            hashed = "SET work_mem = '512MB'; SET enable_sort = off; "
            ge = median_ms(args, qg % "rb_or_agg", hashed)
            gi = median_ms(args, qg % "rb_or_agg_internal", hashed)
            ratios.append(i / e)
            label = name + (" (64-bit spread)" if shift else "")
            print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (label, rows, e, i, i / e, n, ge, gi))
            psql(args, "DROP TABLE " + table)
            sys.stdout.flush()
    print("\ngeometric mean of internal / expanded: %.3f" % statistics.geometric_mean(ratios))


if __name__ == "__main__":
    main()
