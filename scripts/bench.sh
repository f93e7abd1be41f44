#!/usr/bin/env bash
# The README's benchmark command: roaring64 against pg_roaringbitmap and int8[] on
# the workloads users run, side by side in one run, on a fresh throwaway cluster of
# its own (as test.sh does). BENCHMARKS.md says what each workload measures.
#
#   scripts/bench.sh                  the full run (about 50 minutes on 2 cores)
#   scripts/bench.sh --smoke          every workload on small data (about 3 minutes; CI runs it)
#   scripts/bench.sh --only GROUP,... some groups only, with or without --smoke (the
#                                     groups of BENCHMARKS.md; a wrong name lists them)
#   scripts/bench.sh --reps N         time each query N times (default 5, 2 with --smoke)
#   scripts/bench.sh --publish        also copy the results to benches/results/
#   scripts/bench.sh --scale bluesky  the follow graph at Bluesky's size (5.5M users,
#                                     164M follows; the edge table alone needs 16 GB)
#   scripts/bench.sh --help           this text
#
# It installs what is missing (as setup.sh does), builds pg_roaringbitmap 1.2 from
# ../shared/vendor when its tarball is there (scripts/pg_roaringbitmap.sh; without it
# that column is skipped, with a note), builds the runner (benches/runner), and
# writes target/bench/results.json, tables.md and summary.svg. It exits non-zero if
# a workload fails or a check fails (answers that disagree, a lost update).

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parse_flags "--smoke --only: --reps: --publish --scale:" "$@"
runner_flags=()
[ -n "$flag_smoke" ] && runner_flags+=(--smoke)
[ -n "$flag_only" ] && runner_flags+=(--only "$flag_only")
[ -n "$flag_reps" ] && runner_flags+=(--reps "$flag_reps")
[ -n "$flag_publish" ] && runner_flags+=(--publish)
case $flag_scale in
    "" | default | bluesky) ;;
    *) parse_error "--scale takes default or bluesky, not '$flag_scale'" ;;
esac
[ -n "$flag_scale" ] && runner_flags+=(--scale "$flag_scale")

install_prerequisites
install_extension
bash "$ROOT/scripts/pg_roaringbitmap.sh" ||
    echo "note: pg_roaringbitmap could not be built; the benchmark runs without it"

# The clients group measures the Python package too (benches/clients/read.py).
if SROAR_BENCH_PYTHON=$(python_package); then
    export SROAR_BENCH_PYTHON
else
    echo "note: the Python package could not be built; the Python clients are not measured"
    unset SROAR_BENCH_PYTHON
fi
# The smoke run times nothing worth keeping, so its runner is the dev build, which
# reuses the dependencies the runner's tests compiled (scripts/test.sh step 2) where
# a release build would compile them all again (about 2.5 minutes on a fresh
# machine). The extension under test is the release build either way.
if [ -n "$flag_smoke" ]; then
    profile=(--profile dev) runner=$ROOT/target/debug/sroar_bench
else
    profile=(--release) runner=$ROOT/target/release/sroar_bench
fi
say "Building the benchmark runner (${profile[*]})"
(cd "$ROOT" && cargo build "${profile[@]}" --locked --quiet -p sroar_bench)

DATA=$(cluster_dir .pgbench)
stop_cluster "$DATA" 2>/dev/null || true
PORT=${SROAR_PG_BENCH_PORT:-$(free_port 15434)}
if [ -n "$flag_smoke" ]; then
    MEM="shared_buffers = 256MB"
else
    MEM="shared_buffers = 2GB"
fi
# A quiet server: no JIT, no autovacuum, no checkpoints or commit flushes in the
# middle of a measurement (the cluster is thrown away).
SETTINGS="$MEM
work_mem = 64MB
maintenance_work_mem = 1GB
max_wal_size = 8GB
checkpoint_timeout = 30min
synchronous_commit = off
autovacuum = off
jit = off"
say "Benchmark cluster: $DATA on port $PORT"
start_cluster "$DATA" "$PORT" fresh "$SETTINGS"
trap 'stop_cluster "$DATA"' EXIT
pg "$PORT" -q -d postgres -c 'CREATE DATABASE sroar_bench'

"$runner" \
    --conn "host=127.0.0.1 port=$PORT user=postgres dbname=sroar_bench" \
    --pgbin "$PGBIN" --out "$ROOT/target/bench" "${runner_flags[@]}"
