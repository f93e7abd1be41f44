#!/usr/bin/env bash
# Cross-compiles crates/sroar for aarch64 and runs its tests under qemu, so the NEON
# tier is tested on an x86-64 machine (scripts/test.sh runs this as one step).
#
#   scripts/aarch64.sh                 install what is missing, build, run the tests
#   scripts/aarch64.sh --install-only  only the Debian packages
#   scripts/aarch64.sh --help          this text
#
# The toolchain is Debian's: rustup's x86-64 toolchain has no aarch64 standard library
# offline, while `rustc-web` with `libstd-rust-web-dev:arm64` brings a matching pair
# (rustc 1.96 at /usr/bin/rustc; rustup's `rustc` stays first on PATH, so RUSTC picks
# Debian's for these builds only). The dev-dependencies compile C (CRoaring, zlib)
# for the target, hence the cross gcc. Idempotent: installed packages are skipped and
# the build under target/aarch64 is reused.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
parse_flags "--install-only" "$@"

TARGET=aarch64-unknown-linux-gnu
APT_PACKAGES=(rustc-web libstd-rust-web-dev:arm64 libc6:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    qemu-user)

# Emulation is slow: the kernel tests (the NEON code itself) run their full property
# case counts, the other tests (model and ops_model run the whole library on every
# tier: 5 minutes at 64 cases under qemu-aarch64 7.2 on 2 cores, 2.5 at 32) run
# MODEL_CASES cases. They run at their full counts natively, on every x86-64 tier, in
# test.sh's step 2; here they check that the library agrees with its model on the
# NEON tier, which the kernel tests have tested in full.
MODEL_CASES=${PROPTEST_CASES:-16}

install_aarch64_packages() {
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        say "Adding the arm64 architecture to dpkg"
        as_root dpkg --add-architecture arm64
    fi
    install_packages
}

install_aarch64_packages
[ -n "$flag_install_only" ] && exit 0

cd "$ROOT"
export RUSTC=/usr/bin/rustc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
# Run against the arm64 multiarch libc (libc6:arm64, which libstd-rust-web-dev:arm64
# needs anyway) at its usual paths. Not `-L /usr/aarch64-linux-gnu`: with that prefix
# ld.so comes from libc6-arm64-cross but libc.so.6 from libc6:arm64 (ld.so searches
# /lib/aarch64-linux-gnu, which qemu finds on the host), and when their versions
# differ every pthread_create spins forever.
RUNNER="qemu-aarch64 -L /"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=$RUNNER
# kernels_dispatch starts itself again as a child process; that goes through qemu too.
export SROAR_TEST_RUNNER=$RUNNER
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
# No native-CPU target flags here: the NEON tier is chosen at run time, and NEON is part
# of the aarch64 baseline anyway.
# One feature set for every build, so that the crate and its test binaries are
# compiled once (`internals` only opens the door to the kernels; the public API is
# the same).
CARGO_ARGS=(--locked -p sroar --target "$TARGET" --target-dir target/aarch64 --features internals)

# The benches are built with the tests, not checked apart: a check compiles every
# dependency (and CRoaring's C) a second time, in its own mode (1m45s fresh).
say "Building every test binary and the benches for $TARGET"
cargo test "${CARGO_ARGS[@]}" --lib --tests --benches --no-run

# Every test binary of the crate (not the doctests, which cargo does not run for another
# target): first the kernel tests (every kernel on every tier against scalar and a
# model) and tier selection, at their full case counts (~1 minute under qemu-aarch64
# 7.2); then the unit tests and the other test files, which run the whole library on
# the NEON tier (the default one there) and, for model and ops_model, on every tier,
# at PROPTEST_CASES=MODEL_CASES (~1.5 minutes).
say "Kernel tests under qemu-aarch64: kernels_tiers kernels_dispatch"
cargo test "${CARGO_ARGS[@]}" --test kernels_tiers --test kernels_dispatch
others=()
for f in crates/sroar/tests/*.rs; do
    name=$(basename "$f" .rs)
    case $name in kernels_tiers | kernels_dispatch) ;; *) others+=(--test "$name") ;; esac
done
say "Other tests under qemu-aarch64 (PROPTEST_CASES=$MODEL_CASES): unit tests ${others[*]}"
PROPTEST_CASES=$MODEL_CASES cargo test "${CARGO_ARGS[@]}" --lib "${others[@]}"
# kernels_tiers (report_tiers) and kernels_dispatch (detected_family) already fail on
# aarch64 unless the NEON tier was detected; this prints the tiers into the log.
say "Tiers detected under qemu-aarch64"
cargo test "${CARGO_ARGS[@]}" --test kernels_dispatch -- --exact detected_family --nocapture 2>&1 |
    grep 'available tiers'
