#!/usr/bin/env bash
# What can be checked of the Docker image without a Docker engine:
#   - scripts/package.sh gathers every installed file of the extension (the image gets
#     nothing else from the build stage);
#   - the Dockerfile copies them to this PostgreSQL's directories, which are also the
#     official postgres:15-bookworm image's (Debian's layout);
#   - the image has no trust-everyone default: it keeps the official entrypoint;
#   - its init script creates a working extension in a new database.
#
#   tests/docker/check.sh PORT   (a running test cluster with sroar_pg installed)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

PORT=$1
OUT=$ROOT/target/package
LIB=$($PG_CONFIG --pkglibdir)
EXT=$($PG_CONFIG --sharedir)/extension
rm -rf "$OUT"
bash "$ROOT/scripts/package.sh" --out "$OUT" --no-wheel >/dev/null

installed=$( (cd "$LIB" && ls sroar_pg*.so; cd "$EXT" && ls sroar_pg.control sroar_pg--*.sql) |
    grep -v -- '--0\.0\.0' | sort)
packaged=$( (cd "$OUT/lib" && ls; cd "$OUT/extension" && ls) | sort)
if [ "$installed" != "$packaged" ]; then
    echo "scripts/package.sh gathers [$packaged], but the installed files are [$installed]" >&2
    exit 1
fi
for dest in "$LIB/" "$EXT/"; do
    grep -q "^COPY --from=build /out/[a-z]*/ $dest\$" "$ROOT/Dockerfile" ||
        { echo "Dockerfile does not copy into $dest" >&2; exit 1; }
done
grep -q '^FROM postgres:15-bookworm$' "$ROOT/Dockerfile" || { echo "Dockerfile: not the official image" >&2; exit 1; }
if grep -v '^#' "$ROOT/Dockerfile" | grep -qE '^(ENTRYPOINT|CMD)|POSTGRES_HOST_AUTH_METHOD|trust'; then
    echo "Dockerfile overrides the official entrypoint or its authentication" >&2
    exit 1
fi

pg "$PORT" -q -d postgres -c "DROP DATABASE IF EXISTS sroar_image" -c "CREATE DATABASE sroar_image"
pg "$PORT" -q -d sroar_image -f "$ROOT/scripts/docker-initdb.sql"
got=$(pg "$PORT" -qAt -d sroar_image -c "SELECT rb_cardinality(rb_build(ARRAY[1, 2, 3]))")
pg "$PORT" -q -d postgres -c "DROP DATABASE sroar_image"
[ "$got" = 3 ] || { echo "the init script's extension answered [$got]" >&2; exit 1; }
echo "image recipe: $(echo "$packaged" | wc -l) files packaged and copied where PostgreSQL 15 looks; init script works"
