#!/usr/bin/env bash
# The upgrade path (README, "Versions and upgrades"): for each earlier release, the
# extension installed at that release and brought up with ALTER EXTENSION sroar_pg
# UPDATE must hold exactly the objects of a fresh install (tests/upgrade/objects.sql).
#
#   tests/upgrade/check.sh PORT   (a running test cluster with sroar_pg installed)
#
# Earlier releases are the frozen install scripts sql/releases/sroar_pg--A.sql; the
# update scripts sql/sroar_pg--A--B.sql lead from each to the current version. Until
# a second release exists, the check runs on a generated pair as well: version
# 0.0.0, the current script without its newest objects (those matching NEWEST
# below), and an update script that adds them, so the machinery is tested from the
# first release on.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

PORT=$1
EXT=$($PG_CONFIG --sharedir)/extension
CURRENT=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$EXT/sroar_pg.control")
SCRIPT=$EXT/sroar_pg--$CURRENT.sql
NEWEST='rb_first|rb_last|rb_after|rb_before|rb_iterate_ordered|rb_(or|and|xor)(_cardinality)?_many_wrapper|rb_and_cardinality_each|portable32'
WORK=$ROOT/target/upgrade
rm -rf "$WORK"
mkdir -p "$WORK"

# Splits the current script into the 0.0.0 stand-in and its update script: a
# statement (lines up to one ending in ';') goes to the update when it names one of
# the newest objects, and a COMMENT goes where the statement before it went.
awk -v newest="$NEWEST" -v prev="$WORK/sroar_pg--0.0.0.sql" -v upd="$WORK/sroar_pg--0.0.0--$CURRENT.sql" '
    in_block { print > prev; if ($0 ~ /\*\//) in_block = 0; next }
    stmt == "" && /^[[:space:]]*\/\*/ { print > prev; if ($0 !~ /\*\//) in_block = 1; next }
    stmt == "" && /^[[:space:]]*(--.*)?$/ { print > prev; next }
    { stmt = stmt $0 "\n" }
    /;[[:space:]]*$/ {
        if (stmt ~ /^COMMENT ON/) to_upd = last_upd; else to_upd = (stmt ~ newest)
        if (to_upd) printf "%s", stmt > upd; else printf "%s", stmt > prev
        last_upd = to_upd
        stmt = ""
    }
    END { printf "%s", stmt > prev }' "$SCRIPT"

objects() {
    pg "$PORT" -qAt -d "$1" -f "$ROOT/tests/upgrade/objects.sql"
}

check_from() {
    local from=$1 db=sroar_upgrade
    pg "$PORT" -q -d postgres -c "DROP DATABASE IF EXISTS ${db}_fresh" -c "DROP DATABASE IF EXISTS $db" \
        -c "CREATE DATABASE $db" -c "CREATE DATABASE ${db}_fresh"
    pg "$PORT" -q -d "${db}_fresh" -c "CREATE EXTENSION sroar_pg"
    pg "$PORT" -q -d "$db" -c "CREATE EXTENSION sroar_pg VERSION '$from'" \
        -c "ALTER EXTENSION sroar_pg UPDATE" >/dev/null
    local version
    version=$(pg "$PORT" -qAt -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'sroar_pg'")
    objects "${db}_fresh" >"$WORK/fresh.txt"
    objects "$db" >"$WORK/from-$from.txt"
    pg "$PORT" -q -d postgres -c "DROP DATABASE $db" -c "DROP DATABASE ${db}_fresh"
    if [ "$version" != "$CURRENT" ]; then
        echo "from $from: ALTER EXTENSION UPDATE reached $version, not $CURRENT" >&2
        return 1
    fi
    if ! diff -u "$WORK/fresh.txt" "$WORK/from-$from.txt"; then
        echo "from $from: the updated extension differs from a fresh install (above)" >&2
        return 1
    fi
    echo "from $from to $CURRENT: $(wc -l <"$WORK/fresh.txt") objects, identical to a fresh install"
}

failed=0
# A released version's surface is frozen: once sql/releases/ holds the current
# version's script, a change to sql/sroar_pg.sql needs a new version and an update
# script, or databases that installed the release would silently differ from new ones.
if [ -e "$ROOT/sql/releases/sroar_pg--$CURRENT.sql" ] &&
    ! diff -u "$ROOT/sql/releases/sroar_pg--$CURRENT.sql" "$ROOT/sql/sroar_pg.sql" >&2; then
    echo "sql/sroar_pg.sql differs from the released $CURRENT (above): raise the version in" \
        "Cargo.toml and add sql/sroar_pg--$CURRENT--<new>.sql" >&2
    failed=1
fi
# The generated pair, installed beside the real scripts for the length of the check.
as_root cp "$WORK/sroar_pg--0.0.0.sql" "$WORK/sroar_pg--0.0.0--$CURRENT.sql" "$EXT/"
trap 'as_root rm -f "$EXT/sroar_pg--0.0.0.sql" "$EXT/sroar_pg--0.0.0--$CURRENT.sql"' EXIT
check_from 0.0.0 || failed=1
for frozen in "$ROOT"/sql/releases/sroar_pg--*.sql; do
    [ -e "$frozen" ] || continue
    from=$(basename "$frozen" .sql)
    from=${from#sroar_pg--}
    [ "$from" = "$CURRENT" ] && continue
    as_root cp "$frozen" "$EXT/"
    check_from "$from" || failed=1
done
exit $failed
