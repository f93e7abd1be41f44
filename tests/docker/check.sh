#!/usr/bin/env bash
# What can be checked of the Docker image without a Docker engine, for every major:
#   - scripts/package.sh gathers every installed file of the extension, and its Debian
#     package holds exactly those, in Debian's directories for the major, which are
#     also the official postgres:NN-bookworm image's (the image gets nothing else from
#     the build stage);
#   - the Dockerfile takes the major as PG_MAJOR and installs that package into the
#     official image of that major;
#   - the image has no trust-everyone default: it keeps the official entrypoint;
#   - its init script creates a working extension in a new database.
#
#   tests/docker/check.sh PORT   (a running test cluster of the selected major, with
#                                 sroar_pg installed)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

PORT=$1
OUT=$ROOT/target/package-$PG_MAJOR
LIB=$($PG_CONFIG --pkglibdir)
EXT=$($PG_CONFIG --sharedir)/extension
rm -rf "$OUT"
bash "$ROOT/scripts/package.sh" --out "$OUT" --no-wheel --pg "$PG_MAJOR" >/dev/null

installed=$( (cd "$LIB" && ls sroar_pg*.so; cd "$EXT" && ls sroar_pg.control sroar_pg--*.sql) |
    grep -v -- '--0\.0\.0' | sort)
packaged=$( (cd "$OUT/lib" && ls; cd "$OUT/extension" && ls) | sort)
if [ "$installed" != "$packaged" ]; then
    echo "scripts/package.sh gathers [$packaged], but the installed files are [$installed]" >&2
    exit 1
fi
deb=$(ls "$OUT"/postgresql-"$PG_MAJOR"-sroar-pg_*_amd64.deb)
in_deb=$(dpkg-deb -c "$deb" | awk '{print $NF}' | grep -v '/$' | sort)
expected=$( (cd "$OUT/lib" && ls | sed "s|^|./usr/lib/postgresql/$PG_MAJOR/lib/|";
    cd "$OUT/extension" && ls | sed "s|^|./usr/share/postgresql/$PG_MAJOR/extension/|") | sort)
if [ "$in_deb" != "$expected" ]; then
    echo "$deb holds [$in_deb], expected [$expected]" >&2
    exit 1
fi
dpkg-deb -f "$deb" Depends | grep -q "postgresql-$PG_MAJOR" ||
    { echo "$deb does not depend on postgresql-$PG_MAJOR" >&2; exit 1; }

for line in '^ARG PG_MAJOR=15$' '^FROM postgres:\${PG_MAJOR}-bookworm$' \
    'package.sh --out /out --no-wheel --pg "\$PG_MAJOR"' \
    '^RUN dpkg -i /tmp/postgresql-\${PG_MAJOR}-sroar-pg_\*_amd64.deb'; do
    grep -q -- "$line" "$ROOT/Dockerfile" || { echo "Dockerfile: no line matching $line" >&2; exit 1; }
done
if grep -v '^#' "$ROOT/Dockerfile" | grep -qE '^(ENTRYPOINT|CMD)|POSTGRES_HOST_AUTH_METHOD|trust'; then
    echo "Dockerfile overrides the official entrypoint or its authentication" >&2
    exit 1
fi

pg "$PORT" -q -d postgres -c "DROP DATABASE IF EXISTS sroar_image" -c "CREATE DATABASE sroar_image"
pg "$PORT" -q -d sroar_image -f "$ROOT/scripts/docker-initdb.sql"
got=$(pg "$PORT" -qAt -d sroar_image -c "SELECT rb_cardinality(rb_build(ARRAY[1, 2, 3]))")
pg "$PORT" -q -d postgres -c "DROP DATABASE sroar_image"
[ "$got" = 3 ] || { echo "the init script's extension answered [$got]" >&2; exit 1; }
echo "image recipe (PostgreSQL $PG_MAJOR): $(echo "$packaged" | wc -l) files packaged, in the Debian package where postgres:$PG_MAJOR-bookworm looks; init script works"
