//! Shared helpers of the client integration tests in `tests/`. They need a running
//! server with sroar_pg installed: scripts/test.sh starts one and sets SROAR_PG_PORT.

use std::error::Error;
use std::sync::Once;

use postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use postgres::{Client, NoTls};

/// The port of the test server (SROAR_PG_PORT, 15433 by default).
pub fn port() -> String {
    std::env::var("SROAR_PG_PORT").unwrap_or_else(|_| "15433".into())
}

/// The connection string of database `dbname` on the test server, as user postgres.
pub fn conn_str(dbname: &str) -> String {
    format!(
        "host=127.0.0.1 port={} user=postgres dbname={dbname}",
        port()
    )
}

/// A connection to database `dbname` of the test server (no extension created).
pub fn connect_db(dbname: &str) -> Client {
    let url = conn_str(dbname);
    Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to {url} (run scripts/test.sh): {e}"))
}

/// A connection to the test server's `postgres` database, with sroar_pg created
/// (once per test binary: tests run in parallel threads).
pub fn connect() -> Client {
    static CREATE: Once = Once::new();
    let mut client = connect_db("postgres");
    CREATE.call_once(|| {
        client
            .batch_execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")
            .expect("CREATE EXTENSION sroar_pg");
    });
    client
}

/// Drops database `name` if it exists (closing its connections) and creates it empty.
pub fn recreate_db(name: &str) {
    let mut admin = connect_db("postgres");
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .unwrap_or_else(|e| panic!("drop database {name}: {e:?}"));
    admin
        .batch_execute(&format!("CREATE DATABASE \"{name}\" TEMPLATE template0"))
        .unwrap_or_else(|e| panic!("create database {name}: {e:?}"));
}

/// A connection to a brand-new database `name` with sroar_pg created in it.
pub fn fresh_db(name: &str) -> Client {
    recreate_db(name);
    let mut client = connect_db(name);
    client
        .batch_execute("CREATE EXTENSION sroar_pg")
        .unwrap_or_else(|e| panic!("CREATE EXTENSION sroar_pg in {name}: {e:?}"));
    client
}

/// Drops database `name` (closing its connections), if it exists.
pub fn drop_db(name: &str) {
    let mut admin = connect_db("postgres");
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .unwrap_or_else(|e| panic!("drop database {name}: {e:?}"));
}

/// The SQLSTATE of an error from the server, if it carries one.
pub fn sqlstate(e: &postgres::Error) -> Option<String> {
    e.code().map(|c| c.code().to_owned())
}

/// Raw bytes of any type, in the binary wire format: as a parameter they are sent
/// as they are (for any parameter type, so also roaring64); as a result column they
/// are the type's binary output (roaring64's send function).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raw(pub Vec<u8>);

impl ToSql for Raw {
    fn to_sql(
        &self,
        _ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }

    fn accepts(_ty: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Raw {
    fn from_sql(_ty: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(Raw(raw.to_vec()))
    }

    fn accepts(_ty: &Type) -> bool {
        true
    }
}

/// The text form of a set as roaring64 prints it: `{v1,v2,...}`, ascending.
pub fn array_text<'a>(values: impl IntoIterator<Item = &'a i64>) -> String {
    let mut s = String::from("{");
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&v.to_string());
    }
    s.push('}');
    s
}

/// Lower-case hex of bytes, without a prefix.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One-column binary COPY data holding the given field values.
pub fn copy_binary(fields: &[&[u8]]) -> Vec<u8> {
    let mut out = b"PGCOPY\n\xff\r\n\0".to_vec();
    out.extend_from_slice(&0u32.to_be_bytes()); // flags
    out.extend_from_slice(&0u32.to_be_bytes()); // header extension length
    for f in fields {
        out.extend_from_slice(&1u16.to_be_bytes());
        out.extend_from_slice(&(f.len() as u32).to_be_bytes());
        out.extend_from_slice(f);
    }
    out.extend_from_slice(&(-1i16).to_be_bytes());
    out
}

/// The field values of one-column binary COPY data.
pub fn parse_copy_binary(data: &[u8]) -> Vec<Vec<u8>> {
    let mut at = 11 + 4 + 4;
    let mut fields = Vec::new();
    loop {
        let n = i16::from_be_bytes([data[at], data[at + 1]]);
        at += 2;
        if n == -1 {
            return fields;
        }
        assert_eq!(n, 1, "one column per row");
        let len = u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        at += 4;
        fields.push(data[at..at + len].to_vec());
        at += len;
    }
}

/// Whether the server has contrib's amcheck for the btree structure checks. Only a
/// server known to lack contrib (SROAR_PG_NO_CONTRIB=1: scripts/test.sh sets it for
/// the PostgreSQL 16 wheel, which ships none) goes without; anywhere else amcheck is
/// required, so a check is never skipped by accident. Creates the extension.
pub fn amcheck(c: &mut Client) -> bool {
    if std::env::var("SROAR_PG_NO_CONTRIB").is_ok_and(|v| v == "1") {
        eprintln!("no contrib on this server: amcheck's btree checks are skipped");
        return false;
    }
    c.batch_execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        .unwrap_or_else(|e| panic!("CREATE EXTENSION amcheck: {e}"));
    true
}

/// Sends SIGKILL to a server process (as root, as in CI, or through sudo).
pub fn kill9(pid: i32) {
    let pid = pid.to_string();
    let ok = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .is_ok_and(|s| s.success())
        || std::process::Command::new("sudo")
            .args(["-n", "kill", "-KILL", &pid])
            .status()
            .is_ok_and(|s| s.success());
    assert!(
        ok,
        "cannot send SIGKILL to backend {pid} (run as root or with sudo)"
    );
}

/// A connection to database `dbname` once the server accepts them again after
/// crash recovery (within two minutes).
pub fn reconnect(dbname: &str) -> Client {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let err = match Client::connect(&conn_str(dbname), NoTls) {
            Ok(mut c) => match c.simple_query("SELECT 1") {
                Ok(_) => return c,
                Err(e) => e,
            },
            Err(e) => e,
        };
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not come back after the kill: {err:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
