//! sroar_pg: the `roaring64` PostgreSQL type, a thin pgrx layer over the `sroar` crate.
//!
//! The whole public SQL surface is written by hand in `sql/sroar_pg.sql`; the Rust
//! functions here are its C-language entry points (`#[pg_extern(sql = false)]`), so
//! what users see is in one file that is easy to read, as in contrib/intarray.
//!
//! Data flows one way: SQL → `datum` (read the argument in place) → one `sroar` call →
//! `datum` (write the result once). `int8` holds the only translation between SQL's
//! signed order and the crate's u64 order; `errors` holds every user-facing error.

use pgrx::{GucContext, GucFlags, GucRegistry};

::pgrx::pg_module_magic!(name, version);

mod aggregates;
mod datum;
mod errors;
mod fmgr;
mod functions;
mod int8;
mod io;
mod meta;
mod opclass;
mod text;
mod value_cache;

pgrx::extension_sql_file!("../sql/sroar_pg.sql", name = "sroar_pg_surface", finalize);

/// Lets statement_timeout and cancel requests stop long loops inside the core crate.
pub(crate) fn check_for_interrupts() {
    pgrx::check_for_interrupts!();
}

#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    sroar::set_interrupt_hook(check_for_interrupts);
    GucRegistry::define_enum_guc(
        c"sroar.output_format",
        c"Text form of roaring64 values: array ({1,2,3}) or hex (\\x of the native bytes).",
        c"hex is compact and exact; use it where values travel as text, such as Citus workers shipping aggregate states.",
        &io::OUTPUT_FORMAT,
        GucContext::Userset,
        GucFlags::default(),
    );
}

/// Required by `cargo pgrx test`: one-off setup and postgresql.conf settings.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
