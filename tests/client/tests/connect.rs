//! Drives an installed sroar_pg through the `postgres` client crate.
//! scripts/test.sh starts a throwaway cluster and sets SROAR_PG_PORT.

use postgres::{Client, NoTls};

fn connect() -> Client {
    let port = std::env::var("SROAR_PG_PORT").unwrap_or_else(|_| "15433".into());
    let url = format!("host=127.0.0.1 port={port} user=postgres dbname=postgres");
    let mut client = Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to {url} (run scripts/test.sh): {e}"));
    client
        .batch_execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")
        .expect("CREATE EXTENSION sroar_pg");
    client
}

#[test]
fn version_reports_format_1() {
    let mut client = connect();
    let row = client.query_one("SELECT sroar_version()", &[]).unwrap();
    let v: String = row.get(0);
    assert!(v.contains("format version 1"), "{v}");
}
