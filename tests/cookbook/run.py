"""Runs every recipe of docs/cookbook.md against a live server, so that none rots.

In the order they appear, on a fresh database `sroar_cookbook`:
- a ```sql block runs through psql (one session per block, stopping at the first
  error); a ```text block right after it is its expected output;
- a ```python block runs in this interpreter's environment (psycopg 3, pyroaring),
  connected through PGHOST/PGPORT/PGUSER/PGDATABASE; a ```text block after it is
  its expected output;
- a ```rust block must appear, word for word, in tests/client/tests/cookbook.rs,
  whose tests (run with the client tests) execute it.

The README's "From applications" examples run the same way, in a database
`sroar_readme` with a table `users` made for them (their `dbname=app` becomes it);
their Rust block must appear in tests/client/tests/client_types.rs.

Usage: python tests/cookbook/run.py PSQL PORT   (scripts/test.sh passes both)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOK = os.path.join(ROOT, "docs", "cookbook.md")
RUST = os.path.join(ROOT, "tests", "client", "tests", "cookbook.rs")
README = os.path.join(ROOT, "README.md")
README_RUST = os.path.join(ROOT, "tests", "client", "tests", "client_types.rs")
README_SETUP = "CREATE TABLE users (id int8 PRIMARY KEY, followers roaring64 NOT NULL); INSERT INTO users VALUES (42, '{1,2,3,-5}');"
DB = "sroar_cookbook"
README_DB = "sroar_readme"


def blocks(text):
    """(language, code, line) for every fenced block."""
    out = []
    for m in re.finditer(r"^```(\w+)\n(.*?)^```$", text, re.S | re.M):
        out.append((m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1))
    return out


def readme_blocks():
    """The blocks of the README's "From applications" section, with README lines."""
    text = open(README).read()
    start = text.index("## From applications")
    end = text.index("\n## ", start + 1)
    offset = text.count("\n", 0, start)
    return [(lang, code, line + offset) for lang, code, line in blocks(text[start:end])]


def normalized(s):
    return "\n".join(line.rstrip() for line in s.strip("\n").split("\n"))


def main():
    psql, port = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=port, PGUSER="postgres", PGDATABASE=DB)
    base = [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", port, "-U", "postgres"]
    quiet = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
    for db in (DB, README_DB):
        subprocess.run(
            base + ["-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {db}", "-c", f"CREATE DATABASE {db}"],
            check=True,
            env=quiet,
        )
        subprocess.run(base + ["-d", db, "-c", "CREATE EXTENSION sroar_pg"], check=True)
    subprocess.run(base + ["-d", README_DB, "-c", README_SETUP], check=True)
    found = [("docs/cookbook.md", RUST, DB) + b for b in blocks(open(BOOK).read())]
    found += [("README.md", README_RUST, README_DB) + b for b in readme_blocks()]
    failures = []
    counts = {}
    for i, (doc, rust_file, db, lang, code, line) in enumerate(found):
        env["PGDATABASE"] = db
        if lang == "text":
            continue
        counts[lang] = counts.get(lang, 0) + 1
        expected = found[i + 1][4] if i + 1 < len(found) and found[i + 1][3] == "text" else None
        if lang == "sql":
            run = subprocess.run(base + ["-d", db], input=code, capture_output=True, text=True, env=env)
        elif lang == "python":
            code = code.replace('psycopg.connect("dbname=app")', "psycopg.connect()")
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        elif lang == "rust":
            if re.sub(r"\s+", " ", code).strip() not in re.sub(r"\s+", " ", open(rust_file).read()):
                failures.append(f"{doc}:{line}: this rust block is not in {os.path.relpath(rust_file, ROOT)}")
            continue
        else:
            failures.append(f"{doc}:{line}: a {lang} block; the checker runs sql, python and rust")
            continue
        if run.returncode != 0:
            failures.append(f"{doc}:{line}: the {lang} block failed:\n{run.stderr.strip()}")
        elif expected is not None and normalized(run.stdout) != normalized(expected):
            failures.append(
                f"{doc}:{line}: the {lang} block's output differs.\n"
                f"--- expected\n{normalized(expected)}\n--- got\n{normalized(run.stdout)}"
            )
    for db in (DB, README_DB):
        subprocess.run(base + ["-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {db}"], check=True)
    for f in failures:
        print(f, file=sys.stderr)
    if failures or not counts:
        sys.exit(1)
    print("cookbook: " + ", ".join(f"{n} {lang} blocks" for lang, n in sorted(counts.items())) + " ran as written")


main()
