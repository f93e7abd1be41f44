#!/usr/bin/env bash
# Two builds of sroar_pg on the same queries, side by side:
#
#   benches/ab.sh BEFORE.so AFTER.so SETUP.sql 'QUERY' ['QUERY' ...]
#
# A throwaway cluster (.pgtest/ab, port from 15460) is loaded once with SETUP.sql; then,
# for 3 rounds, each build in turn is copied over the installed sroar_pg.so, the server
# restarted, each query run in a session of its own once to warm up and 5 times
# measured (EXPLAIN ANALYZE's execution time). It prints each build's median per query and the ratio, and puts
# the installed build back (AFTER.so) at the end. Keep a build with
# `cp $(pg_config --pkglibdir)/sroar_pg.so /tmp/before.so` before changing the code.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

[ $# -ge 4 ] || { sed -n 2,11p "$0"; exit 2; }
BEFORE=$1 AFTER=$2 SETUP=$3
shift 3
LIB=$($PG_CONFIG --pkglibdir)/sroar_pg.so
DIR=$(cluster_dir .pgtest/ab)
PORT=$(free_port 15460)
trap 'as_root cp "$AFTER" "$LIB"; stop_cluster "$DIR"' EXIT

as_root cp "$AFTER" "$LIB"
start_cluster "$DIR" "$PORT" fresh "shared_buffers = 1GB
jit = off
max_parallel_workers_per_gather = 0"
pg "$PORT" -q -d postgres -f "$SETUP" >/dev/null

# Execution time of one statement, as EXPLAIN ANALYZE reports it, so that a query
# can be timed again and again inside one warm session (a new session pays for
# loading the library and filling its caches, which the runner never measures).
pg "$PORT" -q -d postgres -f "$(dirname "${BASH_SOURCE[0]}")/ab/timing.sql" >/dev/null

declare -A times=()
for round in 1 2 3; do
    for build in before after; do
        so=$BEFORE
        [ $build = after ] && so=$AFTER
        as_root cp "$so" "$LIB"
        as_postgres "$PGBIN/pg_ctl" -D "$DIR" -w -m fast restart >/dev/null
        i=0
        for q in "$@"; do
            # One session per query and build: a warm-up run, then 5 measured.
            t=$(echo "SELECT xtime(:'q') FROM generate_series(1, 6)" |
                pg "$PORT" -qAt -d postgres -v q="$q" | tail -n +2 | tr '\n' ' ')
            times[$build,$i]+=" $t"
            i=$((i + 1))
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
i=0
for q in "$@"; do
    b=$(echo "${times[before,$i]}" | median)
    a=$(echo "${times[after,$i]}" | median)
    awk -v q="$q" -v b="$b" -v a="$a" \
        'BEGIN { printf "%s\n  before %8.3f ms  after %8.3f ms  before/after %.2fx\n", q, b, a, b / a }'
    i=$((i + 1))
done
