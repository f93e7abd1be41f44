//! Integration tests live in `tests/`; they need a running server (see scripts/test.sh).
