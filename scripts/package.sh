#!/usr/bin/env bash
# Gathers the installed extension's files into DIR, as an image or a package needs
# them (the Dockerfile's build stage):
#
#   scripts/package.sh --out DIR   DIR/lib: sroar_pg.so
#                                  DIR/extension: sroar_pg.control and the SQL scripts
#                                  DIR/python: the Python package's wheel (python/, an
#                                  abi3 wheel for CPython 3.9+), built with maturin
#   scripts/package.sh --out DIR --no-wheel   the server's files only (the Dockerfile)
#   scripts/package.sh --help      this text
#
# Run after scripts/setup.sh (or install_extension); fails if a file is missing.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parse_flags "--out: --no-wheel" "$@"
[ -n "$flag_out" ] || parse_error "--out DIR is required"
DEST=$flag_out
LIB=$($PG_CONFIG --pkglibdir)
EXT=$($PG_CONFIG --sharedir)/extension
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n 1)

mkdir -p "$DEST/lib" "$DEST/extension"
cp "$LIB/sroar_pg.so" "$DEST/lib/"
cp "$EXT/sroar_pg.control" "$EXT/sroar_pg--$VERSION.sql" "$DEST/extension/"
for update in "$ROOT"/sql/sroar_pg--*--*.sql; do
    [ -e "$update" ] && cp "$update" "$DEST/extension/"
done
grep -q "default_version = '$VERSION'" "$DEST/extension/sroar_pg.control"
if [ -z "$flag_no_wheel" ]; then
    python_package >/dev/null
    mkdir -p "$DEST/python"
    cp "$ROOT"/target/wheels/sroar-*.whl "$DEST/python/"
fi
echo "sroar_pg $VERSION: $(find "$DEST" -type f | wc -l) files in $DEST"
