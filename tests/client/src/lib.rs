//! Shared helpers of the client integration tests in `tests/`. They need a running
//! server with sroar_pg installed: scripts/test.sh starts one and sets SROAR_PG_PORT.

use std::sync::Once;

use postgres::{Client, NoTls};

/// A connection to the test server's `postgres` database, with sroar_pg created
/// (once per test binary: tests run in parallel threads).
pub fn connect() -> Client {
    static CREATE: Once = Once::new();
    let port = std::env::var("SROAR_PG_PORT").unwrap_or_else(|_| "15433".into());
    let url = format!("host=127.0.0.1 port={port} user=postgres dbname=postgres");
    let mut client = Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to {url} (run scripts/test.sh): {e}"));
    CREATE.call_once(|| {
        client
            .batch_execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")
            .expect("CREATE EXTENSION sroar_pg");
    });
    client
}
