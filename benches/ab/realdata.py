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
# xtime and cmp (benches/ab/timing.sql), for timing side by side in one session.
with open(os.path.join(ROOT, "benches", "ab", "timing.sql")) as f:
    sql.append(f.read())
with open(os.path.join(OUT, "realdata.sql"), "w") as f:
    f.write("\n".join(sql) + "\n")
print(os.path.join(OUT, "realdata.sql"))
