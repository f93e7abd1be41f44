#!/usr/bin/env python3
"""SQL-level measurements behind three design choices, through a live server:

  gin      GIN index on a posting-list table: build time and size, against int8[]
           with the core GIN array_ops as a reference, and a lookup's buffers.
  copy     COPY (FORMAT binary) ingest of native roaring64 bytes against the same
           bytes into a bytea column (a plain memcpy path): the validation cost.
  storage  STORAGE external (uncompressed, the default) against extended (pglz) on
           the real datasets: stored size, and rb_cardinality / rb_contains time.

Usage: python3 benches/sql_storage_gin_copy.py --port 15432 [gin|copy|storage ...]
Timings are medians of --runs runs on this (shared, noisy) machine.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REALDATA = os.path.join(os.path.dirname(ROOT), "shared", "realdata")
PSQL = shutil.which("psql") or "/usr/lib/postgresql/15/bin/psql"


def psql(args, sql):
    cmd = [PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
           "-p", str(args.port), "-U", "postgres", "-d", args.dbname, "-c", sql]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


def timed(args, sql):
    start = time.perf_counter()
    psql(args, sql)
    return time.perf_counter() - start


def median_s(args, sql):
    return statistics.median(timed(args, sql) for _ in range(args.runs))


def exec_ms(args, query):
    """Median server-side execution time (EXPLAIN ANALYZE), after one warm-up run."""
    def once():
        out = psql(args, "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + query)
        return json.loads(out)[0]["Execution Time"]
    once()
    return statistics.median(once() for _ in range(args.runs))


def gin(args):
    psql(args, """DROP TABLE IF EXISTS bench_posting;
        CREATE TABLE bench_posting AS
        SELECT i AS doc, ids, rb_to_array(ids) AS arr FROM (
          SELECT i, rb_build(ARRAY(SELECT ((i * 7919 + j * 104729) % 1000000)::int8
                                   FROM generate_series(1, 20 + i % 60) j)) AS ids
            FROM generate_series(1, 100000) i) t""")
    psql(args, "VACUUM ANALYZE bench_posting")
    rows = psql(args, "SELECT count(*), sum(rb_cardinality(ids)) FROM bench_posting")
    print("posting table: rows, elements =", rows)
    print("| index | build s (median of %d) | index size | table size (both columns) |" % args.runs)
    print("|---|---:|---:|---:|")
    for name, expr in (("roaring64 GIN (roaring64_ops)", "ids"), ("int8[] GIN (array_ops)", "arr")):
        sql = "DROP INDEX IF EXISTS bench_idx; CREATE INDEX bench_idx ON bench_posting USING gin (%s)" % expr
        build = median_s(args, sql)
        size = psql(args, "SELECT pg_size_pretty(pg_relation_size('bench_idx')), "
                          "pg_size_pretty(pg_table_size('bench_posting'))")
        print("| %s | %.2f | %s | %s |" % (name, build, *size.split("|")))
    psql(args, "DROP INDEX IF EXISTS bench_idx; CREATE INDEX bench_idx ON bench_posting USING gin (ids)")
    plan = psql(args, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) "
                      "SELECT count(*) FROM bench_posting WHERE ids @> 424242::int8")
    print("\nlookup `ids @> 424242::int8`:\n" + plan)
    psql(args, "DROP TABLE bench_posting")


def copy(args):
    psql(args, """DROP TABLE IF EXISTS bench_src, bench_r, bench_b;
        CREATE TABLE bench_src AS SELECT rb_build(ARRAY(SELECT (i * 1000 + j * 7)::int8
            FROM generate_series(1, 2000) j)) AS r FROM generate_series(1, 20000) i;
        INSERT INTO bench_src SELECT rb_from_range(i * 100000, i * 100000 + 70000) FROM generate_series(1, 2000) i;
        CREATE TABLE bench_r (r roaring64); CREATE TABLE bench_b (r bytea);
        ALTER TABLE bench_b ALTER r SET STORAGE external""")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "data.bin")
        os.chmod(d, 0o777)
        psql(args, "COPY bench_src TO '%s' (FORMAT binary)" % path)
        size = os.path.getsize(path)
        r = median_s(args, "TRUNCATE bench_r; COPY bench_r FROM '%s' (FORMAT binary)" % path)
        b = median_s(args, "TRUNCATE bench_b; COPY bench_b FROM '%s' (FORMAT binary)" % path)
    print("| COPY FROM (FORMAT binary), %.1f MB, %s rows | median s | MB/s |" % (
        size / 1e6, psql(args, "SELECT count(*) FROM bench_src")))
    print("|---|---:|---:|")
    print("| into roaring64 (validated) | %.3f | %.0f |" % (r, size / 1e6 / r))
    print("| into bytea (no validation) | %.3f | %.0f |" % (b, size / 1e6 / b))
    print("\nroaring64 / bytea time: %.2f" % (r / b))
    psql(args, "DROP TABLE bench_src, bench_r, bench_b")


def storage(args):
    print("Stored bytes of the real datasets under each storage (values over ~2 KB go out of line):\n")
    print("| dataset | external bytes | extended (pglz) bytes | extended / external |")
    print("|---|---:|---:|---:|")
    for name in sorted(f[:-4] for f in os.listdir(REALDATA) if f.endswith(".zip")):
        with zipfile.ZipFile(os.path.join(REALDATA, name + ".zip")) as z:
            files = sorted(f for f in z.namelist() if f.endswith(".txt"))
            rows = ["{%s}" % z.read(f).decode().strip().replace("\n", "") for f in files]
        psql(args, "DROP TABLE IF EXISTS bench_ext, bench_extd; CREATE TABLE bench_ext (r roaring64); "
                   "CREATE TABLE bench_extd (r roaring64); ALTER TABLE bench_extd ALTER r SET STORAGE extended")
        with tempfile.NamedTemporaryFile("w", delete=False, dir="/tmp") as f:
            f.write("\n".join(rows) + "\n")
            path = f.name
        os.chmod(path, 0o644)
        psql(args, "COPY bench_ext FROM '%s'; INSERT INTO bench_extd SELECT * FROM bench_ext" % path)
        os.unlink(path)
        ext, extd = map(int, psql(args, "SELECT (SELECT sum(pg_column_size(r)) FROM bench_ext), "
                                        "(SELECT sum(pg_column_size(r)) FROM bench_extd)").split("|"))
        print("| %s | %d | %d | %.3f |" % (name, ext, extd, extd / ext))
        psql(args, "DROP TABLE bench_ext, bench_extd")
    # Reading a header or one element of large values: 20 values of ~1 MB each, of
    # random bitmap containers (as little compressible as real data).
    psql(args, """DROP TABLE IF EXISTS bench_ext, bench_extd;
        CREATE TABLE bench_ext (r roaring64); CREATE TABLE bench_extd (r roaring64);
        ALTER TABLE bench_extd ALTER r SET STORAGE extended;
        SELECT setseed(0.42);
        INSERT INTO bench_ext SELECT rb_build_agg(k * 65536 + (random() * 65535)::int8)
          FROM generate_series(1, 20) i, generate_series(0, 127) k, generate_series(1, 25000) j
         GROUP BY i;
        INSERT INTO bench_extd SELECT * FROM bench_ext""")
    print("\n20 values of ~1 MB (random bitmap containers), server-side median ms:\n")
    print("| query | external | extended (pglz) |")
    print("|---|---:|---:|")
    print("| stored MB | %s |" % psql(args, "SELECT round(sum(pg_column_size(r)) / 1e6, 1) FROM bench_ext")
          + " %s |" % psql(args, "SELECT round(sum(pg_column_size(r)) / 1e6, 1) FROM bench_extd"))
    for label, q in (("sum(rb_cardinality(r))", "SELECT sum(rb_cardinality(r)) FROM %s"),
                     ("count(*) WHERE rb_contains(r, 123456)", "SELECT count(*) FROM %s WHERE rb_contains(r, 123456)"),
                     ("sum(rb_cardinality(r \\| 0))  (whole value)", "SELECT sum(rb_cardinality(r | 0::int8)) FROM %s")):
        print("| %s | %.1f | %.1f |" % (label, exec_ms(args, q % "bench_ext"), exec_ms(args, q % "bench_extd")))
    psql(args, "DROP TABLE bench_ext, bench_extd")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=15432)
    p.add_argument("--dbname", default="postgres")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("what", nargs="*", default=["gin", "copy", "storage"])
    args = p.parse_args()
    psql(args, "CREATE EXTENSION IF NOT EXISTS sroar_pg")
    for w in args.what:
        print("\n## " + w)
        {"gin": gin, "copy": copy, "storage": storage}[w](args)


if __name__ == "__main__":
    main()
