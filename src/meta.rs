//! Facts about the installed extension, for support questions and upgrade checks.

use pgrx::prelude::*;

/// The extension's version and the serialized format version it reads and writes.
#[pg_extern(sql = false)]
fn sroar_version() -> String {
    format!(
        "sroar_pg {} (format version {})",
        env!("CARGO_PKG_VERSION"),
        sroar::format::VERSION
    )
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn version_is_callable_from_sql() {
        let v = Spi::get_one::<String>("SELECT sroar_version()")
            .expect("SPI failed")
            .expect("NULL version");
        assert!(v.starts_with("sroar_pg "), "unexpected version text: {v}");
        assert!(
            v.contains("format version 1"),
            "unexpected version text: {v}"
        );
    }
}
