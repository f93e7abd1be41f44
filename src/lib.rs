//! sroar_pg: the `roaring64` PostgreSQL type, a thin pgrx layer over the `sroar` crate.
//!
//! The whole public SQL surface is written by hand in `sql/sroar_pg.sql`; the Rust
//! functions here are its C-language entry points, so what users see is in one file
//! that is easy to read, as in contrib/intarray. Every entry point is a plain Rust
//! function under `#[sql_fn]` (crates/sroar_pg_macros), which generates the C
//! function that reads its arguments by position and returns its result.
//!
//! Data flows one way: SQL → `read` (how much of a stored argument to read) → one
//! `sroar` call → `pg` (write the result once). `pg` is the only module that touches
//! PostgreSQL's memory and C interfaces; `int8` holds the only translation between
//! SQL's signed order and the crate's u64 order; `errors` holds every user-facing
//! error.

::pgrx::pg_module_magic!(name, version);

mod aggregates;
mod errors;
mod functions;
mod int8;
mod io;
mod meta;
mod opclass;
mod pg;
mod planner;
mod read;
mod settings;

pgrx::extension_sql_file!("../sql/sroar_pg.sql", name = "sroar_pg_surface", finalize);

#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    sroar::set_interrupt_hook(pg::check_for_interrupts);
    pg::release_kept_buffers_at_transaction_end();
    settings::register();
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
