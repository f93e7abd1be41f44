#!/usr/bin/env bash
# sroar_pg on Citus 13.2.2 (the newest Citus for PostgreSQL 15), built from
# ../shared/vendor, on a coordinator and two workers on loopback. Citus 13 supports
# PostgreSQL 15, 16 and 17 (not 18): --pg N picks one (15 by default).
#
#   scripts/citus.sh           build and install Citus (skipped when installed)
#   scripts/citus.sh --test    then the distributed suite: tests/citus/sql against
#                              tests/citus/expected, run by pg_regress on the coordinator
#   scripts/citus.sh --bench   then distributed against local times, and the bytes partial
#                              aggregate states take on the wire (benches/citus.sql)
#   scripts/citus.sh --pg N    any of the above against PostgreSQL N (15, 16 or 17)
#   scripts/citus.sh --help    this text
#
# The build is cached per major under target/vendor/ (ignored): a second run only
# reinstalls it. The three servers live under .pgtest/citus-<major>/ (ignored) on free ports from 15450, and
# are stopped at the end whatever happened. The release build of sroar_pg must be
# installed (scripts/test.sh does it first; alone, run scripts/setup.sh once).

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_flags "--test --bench --pg:" "$@"
[ -z "$flag_pg" ] || select_major "$flag_pg"
case $PG_MAJOR in
    15 | 16 | 17) ;;
    *) parse_error "Citus 13 does not support PostgreSQL $PG_MAJOR (15, 16 and 17 only)" ;;
esac

VERSION=13.2.2
VENDOR=${SROAR_VENDOR:-$ROOT/../shared/vendor}
TARBALL=$VENDOR/citus-$VERSION.tar.gz
PATCH=$VENDOR/citus-$VERSION-pg15.20-compat.patch
BUILD=$ROOT/target/vendor/citus-$VERSION-pg$PG_MAJOR
# Headers Citus includes; libcurl (usage statistics) is configured out.
CITUS_PACKAGES=(liblz4-dev libzstd-dev libkrb5-dev)
DB=citus_regress

# Debian 13's PostgreSQL 17 was configured against a C library that has strlcpy and
# strlcat (glibc 2.38), so its headers do not declare PostgreSQL's own; this host's
# glibc 2.36 has neither. Citus, built here, gets their declarations (as compiler
# flags), and finds them at run time in the trixie C library its server runs on.
host_libc_compat() {
    grep -q '^#define HAVE_DECL_STRLCPY 1' "$($PG_CONFIG --includedir-server)/pg_config.h" || return 0
    printf '#include <string.h>\nint main(void) { char b[2]; return (int) strlcpy(b, "a", 2); }\n' |
        gcc -x c -Werror=implicit-function-declaration -o /dev/null - 2>/dev/null && return 0
    printf '#include <stddef.h>\nsize_t strlcpy(char *, const char *, size_t);\nsize_t strlcat(char *, const char *, size_t);\n' \
        >"$BUILD/host-libc-compat.h"
    echo "-include $BUILD/host-libc-compat.h"
}

citus_installed() {
    [ -f "$($PG_CONFIG --pkglibdir)/citus.so" ] &&
        grep -qs "default_version = '${VERSION%.*}" "$($PG_CONFIG --sharedir)/extension/citus.control"
}

install_citus() {
    if citus_installed; then
        say "Citus $VERSION: present"
        return 0
    fi
    if [ ! -f "$TARBALL" ]; then
        echo "citus: $TARBALL not found" >&2
        return 1
    fi
    APT_PACKAGES=("${CITUS_PACKAGES[@]}")
    install_packages
    if [ ! -f "$BUILD/src/backend/distributed/citus.so" ]; then
        say "Building Citus $VERSION from $TARBALL (about a minute on 2 cores)"
        rm -rf "$BUILD" "$(dirname "$BUILD")/citus-$VERSION"
        mkdir -p "$(dirname "$BUILD")"
        tar xzf "$TARBALL" -C "$(dirname "$BUILD")"
        mv "$(dirname "$BUILD")/citus-$VERSION" "$BUILD"
        patch -s -d "$BUILD" -p1 <"$PATCH"
        (cd "$BUILD" && PG_CONFIG=$PG_CONFIG ./configure --without-libcurl >configure.log)
        make -s -C "$BUILD" -j2 with_llvm=no COPT="$(host_libc_compat)" >"$BUILD/make.log" 2>&1 ||
            { tail -n 30 "$BUILD/make.log"; return 1; }
    fi
    as_root make -s -C "$BUILD" install with_llvm=no >/dev/null 2>&1
    citus_installed
    say "Citus $VERSION installed"
}

NODES=(coordinator worker1 worker2)
declare -A PORTS=()

# Stops the nodes; after a run that passed, also removes their data (about 5.6 GB for
# the three, per major: test.sh runs three majors on one disk). A failed run keeps it
# for a look.
stop_nodes() {
    local status=$? node
    for node in "${NODES[@]}"; do
        stop_cluster "$(cluster_dir ".pgtest/citus-$PG_MAJOR/$node")"
    done
    [ "$status" = 0 ] && as_root rm -rf "$(cluster_dir ".pgtest/citus-$PG_MAJOR")"
    return "$status"
}

# A fresh coordinator and two workers, each with citus and sroar_pg in database $DB.
start_nodes() {
    local node port=15450 dir
    for node in "${NODES[@]}"; do
        dir=$(cluster_dir ".pgtest/citus-$PG_MAJOR/$node")
        stop_cluster "$dir"
        port=$(free_port "$port")
        PORTS[$node]=$port
        start_cluster "$dir" "$port" fresh "shared_preload_libraries = 'citus'
max_connections = 200
max_worker_processes = 16" || { tail -n 20 "$dir/server.log"; return 1; }
        pg "$port" -q -d postgres -c "CREATE DATABASE $DB"
        pg "$port" -q -d "$DB" -c "CREATE EXTENSION citus" -c "CREATE EXTENSION sroar_pg"
        port=$((port + 1))
    done
    local c=${PORTS[coordinator]}
    pg "$c" -q -d "$DB" -c "SELECT citus_set_coordinator_host('127.0.0.1', $c)" >/dev/null
    for node in worker1 worker2; do
        pg "$c" -q -d "$DB" -c "SELECT citus_add_node('127.0.0.1', ${PORTS[$node]})" >/dev/null
    done
    say "Citus cluster: coordinator on ${PORTS[coordinator]}, workers on ${PORTS[worker1]} and ${PORTS[worker2]}"
}

run_suite() {
    local out=$ROOT/target/citus-regress-$PG_MAJOR
    rm -rf "$out"
    mkdir -p "$out"
    # Server-side COPY files go where the servers' user can write.
    local files
    files=$(cluster_dir .pgtest/citus-$PG_MAJOR/files)
    as_root mkdir -p "$files"
    as_root chown postgres: "$files"
    mapfile -t tests < <(cd "$ROOT/tests/citus/sql" && ls -1 *.sql | sed 's/\.sql$//' | sort)
    SROAR_CITUS_FILES=$files "$PG_REGRESS" --host=127.0.0.1 --port="${PORTS[coordinator]}" \
        --user=postgres --bindir="$PGBIN" --inputdir="$ROOT/tests/citus" --outputdir="$out" \
        --use-existing --dbname="$DB" "${tests[@]}" ||
        { [ -f "$out/regression.diffs" ] && head -n 200 "$out/regression.diffs"; return 1; }
}

# The partial states of the design before roaring64_state travel as roaring64's text:
# measured in array form, then with sroar.output_format = hex on the workers (which on
# PostgreSQL 15 needs the library loaded in the session that runs ALTER SYSTEM).
workers_output_format() {
    local node
    for node in worker1 worker2; do
        pg "${PORTS[$node]}" -q -d "$DB" -c "LOAD 'sroar_pg'" \
            -c "ALTER SYSTEM SET sroar.output_format = $1" -c "SELECT pg_reload_conf()" >/dev/null
    done
    sleep 1
}

run_bench() {
    local c=${PORTS[coordinator]}
    pg "$c" -d "$DB" -f "$ROOT/benches/citus.sql"
    pg "$c" -d "$DB" -c "SELECT * FROM bench_run('array')"
    workers_output_format hex
    pg "$c" -d "$DB" -c "SELECT * FROM bench_run('hex')"
    workers_output_format "'array'"
}

PGXS=$($PG_CONFIG --pgxs)
PG_REGRESS=$(dirname "$PGXS")/../test/regress/pg_regress

install_citus
if [ -n "$flag_test" ] || [ -n "$flag_bench" ]; then
    trap stop_nodes EXIT
    stop_nodes
    start_nodes
    if [ -n "$flag_test" ]; then run_suite; fi
    if [ -n "$flag_bench" ]; then run_bench; fi
fi
