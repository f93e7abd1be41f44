//! sroar_pg: the `roaring64` PostgreSQL type, a thin pgrx layer over the `sroar` crate.
//!
//! The whole public SQL surface is written by hand in `sql/sroar_pg.sql`; the Rust
//! functions here are its C-language entry points (`#[pg_extern(sql = false)]`), so
//! what users see is in one file that is easy to read, as in contrib/intarray.

::pgrx::pg_module_magic!(name, version);

mod meta;

pgrx::extension_sql_file!("../sql/sroar_pg.sql", name = "sroar_pg_surface", finalize);

/// Required by `cargo pgrx test`: one-off setup and postgresql.conf settings.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
