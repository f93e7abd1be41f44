#!/usr/bin/env bash
# benches/results/library-avx2.md: the realdata tables with every library held
# to AVX2, on any x86-64 machine with AVX2 (an AVX-512 one too): sroar by
# SROAR_SIMD, CRoaring by building it without its AVX-512 kernels, roaring-rs
# by turning off fearless_simd's AVX-512 dispatch. Its own target directory
# keeps these builds apart from the default ones. Extra arguments go to
# criterion (a filter, for example).
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Absolute: criterion writes its results under CARGO_TARGET_DIR from the
# bench's own directory (crates/sroar), where a relative path points elsewhere.
export CARGO_TARGET_DIR="$PWD/target/avx2" SROAR_SIMD=avx2
export CFLAGS="-DCROARING_COMPILER_SUPPORTS_AVX512=0" RUSTFLAGS="--cfg disable_dispatch_avx512"
cargo bench -p sroar --bench realdata -- --warm-up-time 0.1 --measurement-time 0.5 --nresamples 1000 --noplot "$@"
python3 crates/sroar/benches/summarize.py --target "$CARGO_TARGET_DIR" > benches/results/library-avx2.md
