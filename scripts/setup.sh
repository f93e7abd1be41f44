#!/usr/bin/env bash
# The README's first command: set up a fresh Debian 12 machine (root, or a user with
# sudo; Rust 1.95 present), build and install sroar_pg into PostgreSQL 15, start a
# throwaway cluster owned by `postgres`, load a small demo and open psql on it.
#
#   scripts/setup.sh                 everything, then psql (or the psql command, without a terminal)
#   scripts/setup.sh --no-psql       everything, then print the psql command
#   scripts/setup.sh --install-only  packages, cargo-pgrx and the extension; no cluster (Dockerfile)
#   scripts/setup.sh --serve DIR     run a cluster in DIR in the foreground on 0.0.0.0:5432 (Dockerfile)
#
# Idempotent: what is installed is skipped and the build is reused.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT=${SROAR_PG_PORT:-15432}
mode=${1:-}

serve() {
    local dir=$1
    if [ ! -f "$dir/PG_VERSION" ]; then
        as_root mkdir -p "$dir"
        as_root chown postgres: "$dir"
        local auth=trust
        if [ -n "${POSTGRES_PASSWORD:-}" ]; then
            auth=scram-sha-256
            printf '%s\n' "$POSTGRES_PASSWORD" | as_postgres tee "$dir/.pwfile" >/dev/null
        fi
        as_postgres "$PGBIN/initdb" -D "$dir" -U postgres -A "$auth" ${POSTGRES_PASSWORD:+--pwfile="$dir/.pwfile"} >/dev/null
        as_root rm -f "$dir/.pwfile"
        echo "host all all 0.0.0.0/0 $auth" | as_postgres tee -a "$dir/pg_hba.conf" >/dev/null
        echo "listen_addresses = '*'" | as_postgres tee -a "$dir/postgresql.conf" >/dev/null
    fi
    exec runuser -u postgres -- env -u RUST_BACKTRACE "$PGBIN/postgres" -D "$dir"
}

case "$mode" in
    --serve)
        serve "${2:?--serve needs a data directory}"
        ;;
    --install-only)
        install_prerequisites
        install_extension
        exit 0
        ;;
    "" | --no-psql) ;;
    *)
        echo "usage: $0 [--no-psql | --install-only | --serve DIR]" >&2
        exit 2
        ;;
esac

install_prerequisites
install_extension

DATA=$(cluster_dir .pgdata)
say "Starting the throwaway cluster in $DATA on port $PORT"
start_cluster "$DATA" "$PORT"

say "Loading the demo into database sroar_demo"
pg "$PORT" -q -d postgres -c 'DROP DATABASE IF EXISTS sroar_demo' -c 'CREATE DATABASE sroar_demo'
pg "$PORT" -d sroar_demo -f "$ROOT/examples/demo.sql"

PSQL="$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres sroar_demo"
say "Ready. Connect with:  $PSQL"
echo "    The cluster keeps running; stop it with: runuser -u postgres -- $PGBIN/pg_ctl -D $DATA stop"
if [ "$mode" != --no-psql ] && [ -t 0 ] && [ -t 1 ]; then
    exec $PSQL
fi
