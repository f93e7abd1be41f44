//! The connection to the benchmark cluster and the measurements read from it.

use std::time::Instant;

use postgres::types::ToSql;
use postgres::{Client, NoTls};

/// No measured statement may run longer: a baseline that would (core `int8[] &&`
/// compares every pair of elements) is recorded as taking more than this.
pub const TIMEOUT_S: u32 = 60;

pub struct Db {
    pub client: Client,
    pub conn: String,
    /// pg_roaringbitmap is installed (CREATE EXTENSION roaringbitmap succeeded).
    pub has_rb64: bool,
}

impl Db {
    pub fn connect(conn: &str) -> Db {
        let mut client = Client::connect(conn, NoTls)
            .unwrap_or_else(|e| panic!("cannot connect to {conn}: {e}"));
        client
            .batch_execute("CREATE EXTENSION IF NOT EXISTS sroar_pg")
            .expect("CREATE EXTENSION sroar_pg");
        let has_rb64 = client
            .batch_execute("CREATE EXTENSION IF NOT EXISTS roaringbitmap")
            .is_ok();
        client
            .batch_execute(&format!("SET statement_timeout = '{TIMEOUT_S}s'"))
            .expect("set statement_timeout");
        Db {
            client,
            conn: conn.to_owned(),
            has_rb64,
        }
    }

    /// A second connection to the same database.
    pub fn another(&self) -> Client {
        Client::connect(&self.conn, NoTls).expect("a second connection")
    }

    pub fn exec(&mut self, sql: &str) {
        self.client
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}\n{e:?}"));
    }

    /// VACUUM ANALYZE of each table (VACUUM cannot share a batch with other
    /// statements: a batch runs as one transaction).
    pub fn vacuum(&mut self, tables: &[&str]) {
        for t in tables {
            self.exec(&format!("VACUUM ANALYZE {t}"));
        }
    }

    pub fn i64(&mut self, sql: &str) -> i64 {
        self.client
            .query_one(sql, &[])
            .unwrap_or_else(|e| panic!("{sql}\n{e:?}"))
            .get(0)
    }

    pub fn query_one(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> postgres::Row {
        self.client
            .query_one(sql, params)
            .unwrap_or_else(|e| panic!("{sql}\n{e:?}"))
    }

    /// Server-side execution time of `sql`, in ms: EXPLAIN ANALYZE's "Execution
    /// Time", with per-node timing off so the clock is read once. None when it ran
    /// into the session's statement_timeout ([`TIMEOUT_S`]). Read from the text
    /// form: the JSON form of a plan nests a level per join, and a 90-way join
    /// passes what a JSON parser accepts.
    pub fn execution_ms(&mut self, sql: &str) -> Option<f64> {
        let explain = format!("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) {sql}");
        let rows = match self.client.query(&explain, &[]) {
            Ok(rows) => rows,
            Err(e) if e.code() == Some(&postgres::error::SqlState::QUERY_CANCELED) => return None,
            Err(e) => panic!("{sql}\n{e:?}"),
        };
        let ms = rows.iter().find_map(|r| {
            let line: &str = r.get(0);
            line.strip_prefix("Execution Time: ")?
                .strip_suffix(" ms")?
                .parse::<f64>()
                .ok()
        });
        Some(ms.unwrap_or_else(|| panic!("no Execution Time for {sql}")))
    }

    /// Wall time of a statement sent from here, in ms (for DDL and COPY).
    pub fn wall_ms(&mut self, sql: &str) -> f64 {
        let t = Instant::now();
        self.exec(sql);
        t.elapsed().as_secs_f64() * 1e3
    }

    /// The serving backend's peak resident memory (VmHWM), in kB. The runner runs
    /// on the server's machine (scripts/bench.sh starts the cluster).
    pub fn backend_peak_kb(c: &mut Client) -> u64 {
        let pid: i32 = c.query_one("SELECT pg_backend_pid()", &[]).unwrap().get(0);
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
            .unwrap_or(0)
    }
}
