#!/usr/bin/env bash
# The scripts' command lines (scripts/lib.sh's parse_flags): for every script, --help
# prints its usage and exits 0, and an unknown flag or a bare word prints the usage
# and exits 2, all before anything is installed, built or started. The commands the
# scripts install and build with are replaced on PATH by stubs that log any call, and
# the log must stay empty. (Absolute paths such as pg_config are never reached.)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STUBS=$(mktemp -d)
trap 'rm -rf "$STUBS"' EXIT
LOG=$STUBS/calls.log
: >"$LOG"
for cmd in cargo apt-get dpkg dpkg-query sudo runuser make tar rustc initdb pg_ctl psql; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 97\n' "$cmd" "$LOG" >"$STUBS/$cmd"
    chmod +x "$STUBS/$cmd"
done

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect CODE SCRIPT ARGS...: the script exits CODE; its output is in $out and $err.
expect() {
    local code=$1 script=$2
    shift 2
    local status=0
    out=$(PATH="$STUBS:$PATH" bash "$ROOT/scripts/$script" "$@" 2>"$STUBS/err") || status=$?
    err=$(cat "$STUBS/err")
    if [ "$status" != "$code" ]; then
        fail "scripts/$script $*: exit $status, expected $code (stderr: ${err:0:300})"
        return 1
    fi
}

for script in setup.sh test.sh bench.sh package.sh citus.sh aarch64.sh pg_roaringbitmap.sh; do
    if expect 0 "$script" --help; then
        grep -q "scripts/$script --help" <<<"$out" || fail "scripts/$script --help does not print its usage"
        grep -q 'source "' <<<"$out" && fail "scripts/$script --help prints code, not only its header"
    fi
    expect 0 "$script" -h || true
    if expect 2 "$script" --bogus; then
        grep -q "unknown argument: --bogus" <<<"$err" || fail "scripts/$script --bogus does not name the flag"
        grep -q "scripts/$script --help" <<<"$err" || fail "scripts/$script --bogus does not print the usage"
    fi
    expect 2 "$script" extra || true
done

# Flags with values, and combinations that make no sense.
expect 2 bench.sh --only && { grep -q -- "--only needs a value" <<<"$err" || fail "bench.sh --only: no word on the missing value"; }
expect 2 bench.sh --smoke --reps || true
expect 2 bench.sh --scale huge && { grep -q -- "--scale takes default or bluesky" <<<"$err" || fail "bench.sh --scale huge: no word on the value"; }
expect 2 bench.sh --smoke=1 || true
expect 2 package.sh && { grep -q -- "--out DIR is required" <<<"$err" || fail "package.sh without --out: no word on it"; }
expect 2 package.sh /out || true
expect 2 setup.sh --no-psql --install-only || true
expect 2 citus.sh test || true
expect 2 test.sh --pg && { grep -q -- "--pg needs a value" <<<"$err" || fail "test.sh --pg: no word on the missing value"; }
expect 2 test.sh --pg 14 && { grep -q "PostgreSQL 14 is not supported" <<<"$err" || fail "test.sh --pg 14: no word on the major"; }
expect 2 setup.sh --pg 19 || true
expect 2 package.sh --out /tmp/x --pg 14 || true
expect 2 citus.sh --test --pg 18 && { grep -q "Citus 13 does not support PostgreSQL 18" <<<"$err" || fail "citus.sh --pg 18: no word on Citus's majors"; }

if [ -s "$LOG" ]; then
    fail "commands ran before the flags were parsed:"
    cat "$LOG" >&2
fi
if [ "$failures" -gt 0 ]; then
    echo "$failures script command-line checks failed" >&2
    exit 1
fi
echo "script command lines: 7 scripts, --help, -h, unknown flags, bare words and missing values all answered before any work"
