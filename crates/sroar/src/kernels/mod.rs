//! Slice kernels (scalar and SIMD tiers) used by the container operations.
//!
//! This module is intentionally empty: it is being written separately and will be
//! filled in by its own change.
