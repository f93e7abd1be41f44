#!/usr/bin/env bash
# The Debian package for PostgreSQL 15, as an administrator uses it, in a clean
# Debian 12 root (not the host, where test.sh installs the same files by hand):
#   1. scripts/package.sh --pg 15 builds postgresql-15-sroar-pg_<version>_amd64.deb
#   2. a bookworm root made by debootstrap with Debian's postgresql-15 (cached as a
#      tarball under target/debroot/ after the first run) gets it with `dpkg -i`
#   3. a fresh cluster there runs CREATE EXTENSION sroar_pg and a smoke query
#   4. `dpkg -r` removes it, and none of the files it installed is left
#   5. META.json passes PGXN's rules (tests/package/meta.py)
# Needs root (debootstrap, chroot, mount).
#
#   tests/package/check.sh          the steps above
#   tests/package/check.sh --help   this text
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
parse_flags "" "$@"
[ "$(id -u)" = 0 ] || { echo "tests/package/check.sh needs root (debootstrap, chroot)" >&2; exit 1; }

OUT=$ROOT/target/packages
bash "$ROOT/scripts/package.sh" --pg 15 --no-wheel --out "$OUT" >/dev/null
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n 1)
DEB=$OUT/postgresql-15-sroar-pg_${VERSION}_amd64.deb
[ -f "$DEB" ] || { echo "package.sh did not build $DEB" >&2; exit 1; }

CACHE=$ROOT/target/debroot/bookworm-postgresql-15.tar
if [ ! -f "$CACHE" ]; then
    command -v debootstrap >/dev/null || as_root apt-get install -y -qq --no-install-recommends debootstrap
    say "Making a Debian 12 root with postgresql-15 (debootstrap, once)"
    fresh=$(mktemp -d)
    debootstrap --variant=minbase --include=postgresql-15 bookworm "$fresh" \
        http://deb.debian.org/debian >"$ROOT/target/debootstrap.log" 2>&1 ||
        { tail -n 20 "$ROOT/target/debootstrap.log" >&2; rm -rf "$fresh"; exit 1; }
    mkdir -p "$(dirname "$CACHE")"
    tar -C "$fresh" -cf "$CACHE.tmp" . && mv "$CACHE.tmp" "$CACHE"
    rm -rf "$fresh"
fi

R=$(mktemp -d)
cleanup() {
    umount "$R/proc" "$R/dev/shm" 2>/dev/null || true
    rm -rf "$R"
}
trap cleanup EXIT
tar -C "$R" -xf "$CACHE"
chmod 755 "$R" # the root's `/` (mktemp's mode came with the tarball): postgres goes through it
mount -t proc proc "$R/proc"
mkdir -p "$R/dev/shm"
mount -t tmpfs tmpfs "$R/dev/shm"
in_root() {
    chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

say "dpkg -i $(basename "$DEB")"
cp "$DEB" "$R/tmp/"
in_root dpkg -i "/tmp/$(basename "$DEB")" >/dev/null
mapfile -t files < <(in_root dpkg -L postgresql-15-sroar-pg | while read -r f; do
    [ -f "$R$f" ] && echo "$f"
done)
[ "${#files[@]}" -ge 3 ] || { echo "the package installed ${#files[@]} files" >&2; exit 1; }
printf '  %s\n' "${files[@]}"

say "CREATE EXTENSION sroar_pg in a fresh cluster of the root"
BIN=/usr/lib/postgresql/15/bin
in_root runuser -u postgres -- $BIN/initdb -D /tmp/pkgtest -A trust -U postgres >/dev/null
in_root runuser -u postgres -- $BIN/pg_ctl -D /tmp/pkgtest -w -l /tmp/pkgtest.log \
    -o "-c listen_addresses= -k /tmp -p 5499" start >/dev/null
answer=$(in_root runuser -u postgres -- /usr/bin/psql -h /tmp -p 5499 -U postgres -XAtq \
    -c "CREATE EXTENSION sroar_pg" \
    -c "SELECT rb_cardinality('{1,2,3,-5}'::roaring64 | rb_build(ARRAY[7, 2]::int8[]))") || true
in_root runuser -u postgres -- $BIN/pg_ctl -D /tmp/pkgtest -w stop >/dev/null
[ "$answer" = 5 ] || { echo "smoke query: expected 5, got '$answer'" >&2; cat "$R/tmp/pkgtest.log" >&2; exit 1; }
echo "  smoke query: $answer"

say "dpkg -r postgresql-15-sroar-pg"
in_root dpkg -r postgresql-15-sroar-pg >/dev/null
left=0
for f in "${files[@]}"; do
    if [ -e "$R$f" ]; then
        echo "left behind: $f" >&2
        left=$((left + 1))
    fi
done
[ "$left" = 0 ] || exit 1
python3 "$ROOT/tests/package/meta.py"
echo "package check: installed ${#files[@]} files, CREATE EXTENSION and a query worked, dpkg -r left nothing"
