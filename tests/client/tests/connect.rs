//! Drives an installed sroar_pg through the `postgres` client crate.
//! scripts/test.sh starts a throwaway cluster and sets SROAR_PG_PORT.

use sroar_pg_client_tests::connect;

#[test]
fn version_reports_format_2() {
    let mut client = connect();
    let row = client.query_one("SELECT sroar_version()", &[]).unwrap();
    let v: String = row.get(0);
    assert!(v.contains("format version 3"), "{v}");
}
