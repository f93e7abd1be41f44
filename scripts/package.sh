#!/usr/bin/env bash
# Builds what an administrator installs, for the selected PostgreSQL major (15 by
# default, --pg N for another, --pg all for every supported one), into DIR:
#
#   DIR/postgresql-NN-sroar-pg_<version>_amd64.deb   a Debian package (dpkg-deb): the
#       library and the SQL scripts in Debian's directories for that major
#       (/usr/lib/postgresql/NN/lib, /usr/share/postgresql/NN/extension); depends on
#       postgresql-NN
#   DIR/sroar_pg-<version>-pgNN-linux-amd64.tar.gz   the same files as lib/ and
#       extension/, for other systems (copy them into `pg_config --pkglibdir` and
#       `pg_config --sharedir`/extension)
#   DIR/lib, DIR/extension   those files unpacked (one major only: the Dockerfile's build
#       stage)
#   DIR/python               the Python package's wheel (python/, an abi3 wheel for
#       CPython 3.9+), built with maturin
#
#   scripts/package.sh --out DIR [--pg N|all] [--no-wheel]
#   scripts/package.sh --help      this text
#
# Every .so is built on this Debian 12 host (install_extension), so that it loads
# wherever Debian 12's C library or a newer one is: postgres:NN-bookworm images too.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parse_flags "--out: --no-wheel --pg:" "$@"
[ -n "$flag_out" ] || parse_error "--out DIR is required"
if [ "$flag_pg" = all ]; then
    MAJORS=("${PG_MAJORS[@]}")
else
    [ -z "$flag_pg" ] || select_major "$flag_pg"
    MAJORS=("$PG_MAJOR")
fi
DEST=$(mkdir -p "$flag_out" && cd "$flag_out" && pwd)
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n 1)

# The installed files of the selected major, into $1/lib and $1/extension.
gather() {
    local into=$1 lib ext
    lib=$($PG_CONFIG --pkglibdir)
    ext=$($PG_CONFIG --sharedir)/extension
    mkdir -p "$into/lib" "$into/extension"
    cp "$lib/sroar_pg.so" "$into/lib/"
    # The release build keeps line tables for profiles; a package does not need them.
    strip --strip-debug "$into/lib/sroar_pg.so"
    cp "$ext/sroar_pg.control" "$ext/sroar_pg--$VERSION.sql" "$into/extension/"
    for update in "$ROOT"/sql/sroar_pg--*--*.sql; do
        [ -e "$update" ] && cp "$update" "$into/extension/"
    done
    grep -q "default_version = '$VERSION'" "$into/extension/sroar_pg.control"
}

# postgresql-NN-sroar-pg_<version>_amd64.deb from the files gathered in $1.
debian_package() {
    local files=$1 tree name
    name=postgresql-$PG_MAJOR-sroar-pg
    tree=$(mktemp -d)
    mkdir -p "$tree/DEBIAN" "$tree/usr/lib/postgresql/$PG_MAJOR/lib" \
        "$tree/usr/share/postgresql/$PG_MAJOR/extension"
    cp "$files"/lib/* "$tree/usr/lib/postgresql/$PG_MAJOR/lib/"
    cp "$files"/extension/* "$tree/usr/share/postgresql/$PG_MAJOR/extension/"
    chmod -R u=rwX,go=rX "$tree"
    cat >"$tree/DEBIAN/control" <<CONTROL
Package: $name
Version: $VERSION
Architecture: amd64
Maintainer: sroar_pg developers <sroar-pg@users.noreply.github.com>
Depends: postgresql-$PG_MAJOR, libc6 (>= 2.34), libgcc-s1
Section: database
Priority: optional
Installed-Size: $(du -sk "$tree/usr" | cut -f1)
Description: roaring64: 64-bit roaring bitmaps for PostgreSQL $PG_MAJOR
 sroar_pg adds the roaring64 type, a set of bigint stored as a 64-bit roaring
 bitmap whose stored bytes are the bitmap: every function reads the value in
 place. Run CREATE EXTENSION sroar_pg in a database to use it.
CONTROL
    dpkg-deb --root-owner-group --build "$tree" "$DEST/${name}_${VERSION}_amd64.deb" >/dev/null
    rm -rf "$tree"
}

install_prerequisites
for major in "${MAJORS[@]}"; do
    select_major "$major"
    export SROAR_PG_MAJOR=$major
    provide_postgres
    install_cargo_pgrx >/dev/null
    install_extension >/dev/null
    files=$(mktemp -d)
    gather "$files"
    debian_package "$files"
    tar -C "$files" -czf "$DEST/sroar_pg-$VERSION-pg$major-linux-amd64.tar.gz" lib extension
    if [ ${#MAJORS[@]} = 1 ]; then
        rm -rf "$DEST/lib" "$DEST/extension"
        cp -r "$files/lib" "$files/extension" "$DEST/"
    fi
    rm -rf "$files"
    echo "sroar_pg $VERSION for PostgreSQL $major: $DEST/postgresql-$major-sroar-pg_${VERSION}_amd64.deb," \
        "sroar_pg-$VERSION-pg$major-linux-amd64.tar.gz"
done
if [ -z "$flag_no_wheel" ]; then
    python_package >/dev/null
    mkdir -p "$DEST/python"
    cp "$ROOT"/target/wheels/sroar-*.whl "$DEST/python/"
fi
