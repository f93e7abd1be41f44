#!/usr/bin/env python3
"""Setup for benches/ab.sh on the real datasets: writes target/ab/realdata/*.txt (one
set per line, as int8[] text) and target/ab/realdata.sql, which loads each dataset into
a table rd_<name>(id, a int8[], r roaring64, p roaringbitmap64) as the runner does.

    python3 benches/ab/realdata.py
    bash benches/ab.sh BEFORE.so AFTER.so target/ab/realdata.sql "QUERY" ...

It also defines cmp(q1, q2, n), which times two queries in turn inside one session.
The server reads the files (COPY FROM a file), so they must be readable by the
`postgres` user; datasets default to those below, or name them as arguments.
"""
import os
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REALDATA = os.path.join(os.path.dirname(ROOT), "shared", "realdata")
OUT = os.path.join(ROOT, "target", "ab")
DEFAULT = ["census-income", "census1881", "census1881_srt", "dimension_008",
           "weather_sept_85", "wikileaks-noquotes", "wikileaks-noquotes_srt", "uscensus2000"]

names = sys.argv[1:] or DEFAULT
os.makedirs(os.path.join(OUT, "realdata"), exist_ok=True)
for d in (OUT, os.path.join(OUT, "realdata")):
    os.chmod(d, 0o755)
sql = ["CREATE EXTENSION IF NOT EXISTS sroar_pg;",
       "CREATE EXTENSION IF NOT EXISTS roaringbitmap;"]
for name in names:
    table = "rd_" + name.replace("-", "_")
    path = os.path.join(OUT, "realdata", table + ".txt")
    with zipfile.ZipFile(os.path.join(REALDATA, name + ".zip")) as z, open(path, "w") as out:
        files = sorted(f for f in z.namelist() if f.endswith(".txt"))
        for i, f in enumerate(files):
            values = z.read(f).decode().strip().strip(",")
            out.write(f"{i}\t{{{values}}}\n")
    os.chmod(path, 0o644)
    sql += [
        f"CREATE TABLE {table} (id int PRIMARY KEY, a int8[] NOT NULL, r roaring64 NOT NULL,"
        " p roaringbitmap64 NOT NULL);",
        f"CREATE TEMP TABLE s_{table} (id int, a int8[]);",
        f"COPY s_{table} FROM '{path}';",
        f"INSERT INTO {table} SELECT id, a, a::roaring64, rb64_build(a) FROM s_{table};",
        f"VACUUM ANALYZE {table};",
    ]
# cmp(q1, q2, n): both queries in turn, n times each after a warm-up, in this
# session; the medians of their execution times and the ratio q2 / q1 (how the
# tables against pg_roaringbitmap in BENCHMARKS.md's aggregate section were made).
sql.append("""
CREATE OR REPLACE FUNCTION xtime(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) ' || q INTO j;
    RETURN (j->0->>'Execution Time')::float8;
END $$;
CREATE OR REPLACE FUNCTION cmp(q1 text, q2 text, n int DEFAULT 9)
RETURNS TABLE(first float8, second float8, ratio float8) LANGUAGE plpgsql AS $$
DECLARE a float8[] := '{}'; b float8[] := '{}';
BEGIN
    PERFORM xtime(q1);
    PERFORM xtime(q2);
    FOR i IN 1..n LOOP
        a := a || xtime(q1);
        b := b || xtime(q2);
    END LOOP;
    first := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(a) x);
    second := (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(b) x);
    ratio := round((second / first)::numeric, 2);
    RETURN NEXT;
END $$;""")
with open(os.path.join(OUT, "realdata.sql"), "w") as f:
    f.write("\n".join(sql) + "\n")
print(os.path.join(OUT, "realdata.sql"))
