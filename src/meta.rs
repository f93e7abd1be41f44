//! Facts about the installed extension, for support questions and upgrade checks.

use sroar_pg_macros::sql_fn;

use crate::read::Stored;

/// The extension's version and the serialized format version it reads and writes.
#[sql_fn]
fn sroar_version() -> String {
    format!(
        "sroar_pg {} (format version {})",
        env!("CARGO_PKG_VERSION"),
        sroar::FORMAT_VERSION
    )
}

/// How a value is laid out: containers and bytes by kind, runs, format version.
#[sql_fn]
fn rb_stats(r: Stored) -> pgrx::JsonB {
    let s = r.view().stats();
    let kind = |k: &sroar::KindStats| {
        serde_json::json!({
            "containers": k.containers,
            "bytes": k.payload_bytes,
            "cardinality": k.cardinality,
        })
    };
    pgrx::JsonB(serde_json::json!({
        "cardinality": s.cardinality,
        "containers": s.containers,
        "bytes": s.total_bytes,
        "head_bytes": s.head_bytes,
        "array": kind(&s.array),
        "bitmap": kind(&s.bitmap),
        "run": kind(&s.run),
        "runs": s.runs,
        "format_version": s.version,
    }))
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn version_is_callable_from_sql() {
        let v = Spi::get_one::<String>("SELECT sroar_version()")
            .expect("SPI failed")
            .expect("NULL version");
        assert!(v.starts_with("sroar_pg "), "unexpected version text: {v}");
        let format = format!("(format version {})", sroar::FORMAT_VERSION);
        assert!(v.ends_with(&format), "unexpected version text: {v}");
        assert_eq!(sroar::FORMAT_VERSION, 3);
    }
}
