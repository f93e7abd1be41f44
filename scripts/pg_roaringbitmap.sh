#!/usr/bin/env bash
# Builds pg_roaringbitmap 1.2.0 (types roaringbitmap and roaringbitmap64, the extension
# users would otherwise pick) from ../shared/vendor and installs it into the selected PostgreSQL
# major (15, or SROAR_PG_MAJOR) that the other scripts use, so that benchmarks and interop tests can compare against it.
#
#   scripts/pg_roaringbitmap.sh          build and install (skipped when installed)
#   scripts/pg_roaringbitmap.sh --check  exit 0 when installed, 1 when not (no build)
#   scripts/pg_roaringbitmap.sh --help   this text
#
# The build lives under target/vendor/ (ignored); PGXS takes a few seconds. Where the
# vendor tarball is absent, it says so and exits 1: callers treat the peer as missing.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_flags "--check" "$@"

VERSION=1.2.0
TARBALL=${SROAR_VENDOR:-$ROOT/../shared/vendor}/pg_roaringbitmap-$VERSION.tar.gz
SHAREDIR=$($PG_CONFIG --sharedir)
CONTROL=$SHAREDIR/extension/roaringbitmap.control

installed() {
    [ -f "$CONTROL" ] && grep -q "default_version = '${VERSION%.*}'" "$CONTROL" &&
        [ -f "$($PG_CONFIG --pkglibdir)/roaringbitmap.so" ]
}

if [ -n "$flag_check" ]; then
    installed
    exit
fi

if installed; then
    say "pg_roaringbitmap $VERSION: present"
    exit 0
fi
if [ ! -f "$TARBALL" ]; then
    echo "pg_roaringbitmap: $TARBALL not found; not installed" >&2
    exit 1
fi

say "Building pg_roaringbitmap $VERSION from $TARBALL"
BUILD=$ROOT/target/vendor
mkdir -p "$BUILD"
rm -rf "$BUILD/pg_roaringbitmap-$VERSION"
tar xzf "$TARBALL" -C "$BUILD"
pgxs_host_flags
make -s -C "$BUILD/pg_roaringbitmap-$VERSION" "${PGXS_HOST_FLAGS[@]}" >/dev/null
as_root make -s -C "$BUILD/pg_roaringbitmap-$VERSION" install "${PGXS_HOST_FLAGS[@]}" >/dev/null
installed
say "pg_roaringbitmap $VERSION installed"
