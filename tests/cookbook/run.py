"""Runs every recipe of docs/cookbook.md against a live server, so that none rots.

In the order they appear, on a fresh database `sroar_cookbook`:
- a ```sql block runs through psql (one session per block, stopping at the first
  error); a ```text block right after it is its expected output;
- a ```python block runs in this interpreter's environment (psycopg 3, pyroaring),
  connected through PGHOST/PGPORT/PGUSER/PGDATABASE; a ```text block after it is
  its expected output;
- a ```rust block must appear, word for word, in tests/client/tests/cookbook.rs,
  whose tests (run with the client tests) execute it.

Usage: python tests/cookbook/run.py PSQL PORT   (scripts/test.sh passes both)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOK = os.path.join(ROOT, "docs", "cookbook.md")
RUST = os.path.join(ROOT, "tests", "client", "tests", "cookbook.rs")
DB = "sroar_cookbook"


def blocks(text):
    """(language, code, line) for every fenced block."""
    out = []
    for m in re.finditer(r"^```(\w+)\n(.*?)^```$", text, re.S | re.M):
        out.append((m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1))
    return out


def normalized(s):
    return "\n".join(line.rstrip() for line in s.strip("\n").split("\n"))


def main():
    psql, port = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=port, PGUSER="postgres", PGDATABASE=DB)
    base = [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", port, "-U", "postgres"]
    quiet = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
    subprocess.run(
        base + ["-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {DB}", "-c", f"CREATE DATABASE {DB}"],
        check=True,
        env=quiet,
    )
    subprocess.run(base + ["-d", DB, "-c", "CREATE EXTENSION sroar_pg"], check=True)
    rust = re.sub(r"\s+", " ", open(RUST).read())

    found = blocks(open(BOOK).read())
    failures = []
    counts = {}
    for i, (lang, code, line) in enumerate(found):
        if lang == "text":
            continue
        counts[lang] = counts.get(lang, 0) + 1
        expected = found[i + 1][1] if i + 1 < len(found) and found[i + 1][0] == "text" else None
        if lang == "sql":
            run = subprocess.run(base + ["-d", DB], input=code, capture_output=True, text=True, env=env)
        elif lang == "python":
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        elif lang == "rust":
            if re.sub(r"\s+", " ", code).strip() not in rust:
                failures.append(f"docs/cookbook.md:{line}: this rust block is not in tests/client/tests/cookbook.rs")
            continue
        else:
            failures.append(f"docs/cookbook.md:{line}: a {lang} block; the checker runs sql, python and rust")
            continue
        if run.returncode != 0:
            failures.append(f"docs/cookbook.md:{line}: the {lang} block failed:\n{run.stderr.strip()}")
        elif expected is not None and normalized(run.stdout) != normalized(expected):
            failures.append(
                f"docs/cookbook.md:{line}: the {lang} block's output differs.\n"
                f"--- expected\n{normalized(expected)}\n--- got\n{normalized(run.stdout)}"
            )
    subprocess.run(base + ["-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {DB}"], check=True)
    for f in failures:
        print(f, file=sys.stderr)
    if failures or not counts:
        sys.exit(1)
    print("cookbook: " + ", ".join(f"{n} {lang} blocks" for lang, n in sorted(counts.items())) + " ran as written")


main()
