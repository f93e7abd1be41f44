//! A deterministic power-law follow graph, and its loading into PostgreSQL twice:
//! as `users(uid, followers roaring64, following roaring64)` by binary COPY of
//! native roaring64 bytes, and as an edge table `follows(actor, target)` with the
//! two btree indexes its questions need; and (`firehose`) a stream of follow events
//! applied to both while the questions run. See README.md.

use std::io::Write;
use std::time::{Duration, Instant};

use postgres::Client;

pub mod firehose;

/// The graph: for each user (uid 1..=n), the sorted uids it follows.
pub struct Graph {
    pub following: Vec<Vec<u32>>,
}

/// splitmix64: a small deterministic generator, seeded per user so the graph does
/// not depend on the order users are generated in.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub(crate) fn uniform(state: &mut u64) -> f64 {
    (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64
}

/// The shape of a generated graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// The scale of the Pareto out-degree (shape 1.5): its mean is three times this.
    pub degree_scale: f64,
    /// Targets are uid `1 + n u^power`: the larger, the more follows go to the most
    /// followed users.
    pub target_power: f64,
}

impl Shape {
    /// The shape named `default` or `bluesky`.
    pub fn named(name: &str) -> Option<Shape> {
        match name {
            "default" => Some(Shape::DEFAULT),
            "bluesky" => Some(Shape::BLUESKY),
            _ => None,
        }
    }

    /// The example's default: about 30 follows per user, uid 1 followed by about 1%
    /// of the users at a million.
    pub const DEFAULT: Shape = Shape {
        degree_scale: 10.0,
        target_power: 3.0,
    };

    /// Bluesky's follow graph as GraphD keeps it: 5.5M users with 164M follows, the
    /// largest follower set near 876k (at `users` = 5,500,000).
    pub const BLUESKY: Shape = Shape {
        degree_scale: BLUESKY_DEGREE_SCALE,
        target_power: BLUESKY_TARGET_POWER,
    };
}

// Tuned with the ignored test `shape_figures` at 5,500,000 users: 164,083,439 follows,
// the largest follower set 878,110 (the default shape gives 158.9M and 686k).
const BLUESKY_DEGREE_SCALE: f64 = 10.33;
const BLUESKY_TARGET_POWER: f64 = 3.16;

/// How many users one user follows: Pareto with shape 1.5 (mean three times the
/// scale), capped at 10,000, so most follow a few dozen and a few follow thousands.
fn out_degree(state: &mut u64, users: u32, scale: f64) -> u32 {
    let u = 1.0 - uniform(state);
    let d = scale / u.powf(1.0 / 1.5);
    (d as u32).clamp(1, 10_000).min(users.saturating_sub(1))
}

/// A target: uid `1 + n u^power` for uniform u, so low uids are followed most (the
/// in-degree follows a power law; uid 1 is the celebrity).
fn target_shaped(state: &mut u64, users: u32, power: f64) -> u32 {
    let u = uniform(state);
    1 + ((users as f64) * u.powf(power)) as u32 % users
}

/// [`target_shaped`] with the default power (the firehose draws its targets so).
pub(crate) fn target(state: &mut u64, users: u32) -> u32 {
    let u = uniform(state);
    1 + ((users as f64) * u * u * u) as u32 % users
}

/// Generates the graph of `users` users (about 30 follows each on average).
pub fn generate(users: u32) -> Graph {
    generate_shaped(users, Shape::DEFAULT)
}

/// Generates the graph of `users` users with the given shape.
pub fn generate_shaped(users: u32, shape: Shape) -> Graph {
    let mut following = Vec::with_capacity(users as usize);
    for uid in 1..=users {
        let mut state = 0x5eed_0000_0000_0000 ^ u64::from(uid);
        let d = out_degree(&mut state, users, shape.degree_scale) as usize;
        let mut out = Vec::with_capacity(d);
        let mut tries = 0;
        while out.len() < d && tries < 4 * d {
            let t = if shape == Shape::DEFAULT {
                target(&mut state, users)
            } else {
                target_shaped(&mut state, users, shape.target_power)
            };
            if t != uid {
                out.push(t);
            }
            tries += 1;
            if out.len() == d {
                out.sort_unstable();
                out.dedup();
            }
        }
        out.sort_unstable();
        out.dedup();
        following.push(out);
    }
    Graph { following }
}

impl Graph {
    pub fn users(&self) -> u32 {
        self.following.len() as u32
    }

    pub fn edges(&self) -> u64 {
        self.following.iter().map(|f| f.len() as u64).sum()
    }

    /// For each user, the sorted uids that follow it.
    pub fn followers(&self) -> Vec<Vec<u32>> {
        let mut followers = vec![Vec::new(); self.following.len()];
        for (i, out) in self.following.iter().enumerate() {
            for &t in out {
                followers[t as usize - 1].push(i as u32 + 1);
            }
        }
        followers
    }
}

/// The native roaring64 bytes of a set of uids (int8 values, stored sign-toggled).
fn native(uids: &[u32]) -> Vec<u8> {
    sroar::Roaring::from_signed(uids.iter().map(|&u| i64::from(u)))
        .expect("a follow set fits")
        .into()
}

const COPY_HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// What a load took: wall time and the bytes sent.
pub struct Load {
    pub elapsed: Duration,
    pub bytes: u64,
}

/// Creates `users` (if missing) and fills it by one binary COPY of native bytes.
pub fn load_users(c: &mut Client, g: &Graph) -> Result<Load, postgres::Error> {
    // 5% of each page is left free so that the firehose's updates stay on their page
    // (HOT: no new index entry, and the old version is pruned without vacuum). At a
    // million users it keeps the table within 3% of its size over the stream, where a
    // full table grew by half; 10% did no better and would take Bluesky's scale past
    // 1.6 GB.
    c.batch_execute(
        "DROP TABLE IF EXISTS users;
         CREATE TABLE users (uid int8 PRIMARY KEY, followers roaring64 NOT NULL,
                             following roaring64 NOT NULL) WITH (fillfactor = 95)",
    )?;
    let followers = g.followers();
    let start = Instant::now();
    let mut w = c.copy_in("COPY users FROM STDIN (FORMAT binary)")?;
    let mut buf = Vec::with_capacity(1 << 20);
    buf.extend_from_slice(COPY_HEADER);
    let mut bytes = 0u64;
    for (i, out) in g.following.iter().enumerate() {
        let (fol, ing) = (native(&followers[i]), native(out));
        buf.extend_from_slice(&3i16.to_be_bytes());
        buf.extend_from_slice(&8i32.to_be_bytes());
        buf.extend_from_slice(&(i as i64 + 1).to_be_bytes());
        for set in [&fol, &ing] {
            buf.extend_from_slice(&(set.len() as i32).to_be_bytes());
            buf.extend_from_slice(set);
        }
        if buf.len() > 1 << 20 {
            bytes += buf.len() as u64;
            w.write_all(&buf).expect("COPY stream");
            buf.clear();
        }
    }
    buf.extend_from_slice(&(-1i16).to_be_bytes());
    bytes += buf.len() as u64;
    w.write_all(&buf).expect("COPY stream");
    w.finish()?;
    c.batch_execute("ANALYZE users")?;
    Ok(Load {
        elapsed: start.elapsed(),
        bytes,
    })
}

/// Creates `top_following(rank, uid)`: the 1% of users who follow the most, ranked
/// (ties by uid), for the scripts that draw A among them (`common_count_top.*.sql`).
/// The generator draws out-degrees independently of uids, so a uid range cannot.
pub fn rank_following(c: &mut Client, users: u32) -> Result<(), postgres::Error> {
    c.batch_execute(&format!(
        "DROP TABLE IF EXISTS top_following;
         CREATE TABLE top_following AS
           SELECT row_number() OVER (ORDER BY rb_cardinality(following) DESC, uid) AS rank, uid
           FROM users ORDER BY rank LIMIT {};
         ALTER TABLE top_following ADD PRIMARY KEY (rank);
         ANALYZE top_following",
        users / 100 + 1
    ))
}

/// How [`prewarm`] reads a table in: into shared buffers, or into the kernel's cache
/// only (for tables larger than shared buffers, which would push each other out).
#[derive(Clone, Copy)]
pub enum Prewarm {
    Buffer,
    Read,
}

/// Reads `table`, its TOAST table and their indexes in with pg_prewarm (contrib), as
/// a live server holds its hot table; nothing when the server does not have the
/// module.
pub fn prewarm(c: &mut Client, table: &str, mode: Prewarm) -> Result<(), postgres::Error> {
    let available: i64 = c
        .query_one(
            "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_prewarm'",
            &[],
        )?
        .get(0);
    if available == 0 {
        return Ok(());
    }
    let mode = match mode {
        Prewarm::Buffer => "buffer",
        Prewarm::Read => "read",
    };
    c.batch_execute(&format!(
        "CREATE EXTENSION IF NOT EXISTS pg_prewarm;
         WITH t AS (SELECT '{table}'::regclass AS heap,
                           (SELECT reltoastrelid FROM pg_class WHERE oid = '{table}'::regclass) AS toast)
         SELECT pg_prewarm(oid, '{mode}') FROM pg_class, t
          WHERE oid IN (heap, toast)
             OR oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (heap, toast))"
    ))
}

/// Creates the edge table `follows(actor, target)` and fills it by binary COPY,
/// then builds the two indexes its questions use; the time includes them.
pub fn load_edges(c: &mut Client, g: &Graph) -> Result<Load, postgres::Error> {
    c.batch_execute(
        "DROP TABLE IF EXISTS follows;
         CREATE TABLE follows (actor int8 NOT NULL, target int8 NOT NULL)",
    )?;
    let start = Instant::now();
    let mut w = c.copy_in("COPY follows FROM STDIN (FORMAT binary)")?;
    let mut buf = Vec::with_capacity(1 << 20);
    buf.extend_from_slice(COPY_HEADER);
    let mut bytes = 0u64;
    for (i, out) in g.following.iter().enumerate() {
        for &t in out {
            buf.extend_from_slice(&2i16.to_be_bytes());
            buf.extend_from_slice(&8i32.to_be_bytes());
            buf.extend_from_slice(&(i as i64 + 1).to_be_bytes());
            buf.extend_from_slice(&8i32.to_be_bytes());
            buf.extend_from_slice(&i64::from(t).to_be_bytes());
        }
        if buf.len() > 1 << 20 {
            bytes += buf.len() as u64;
            w.write_all(&buf).expect("COPY stream");
            buf.clear();
        }
    }
    buf.extend_from_slice(&(-1i16).to_be_bytes());
    bytes += buf.len() as u64;
    w.write_all(&buf).expect("COPY stream");
    w.finish()?;
    c.batch_execute(
        "ALTER TABLE follows ADD PRIMARY KEY (actor, target);
         CREATE INDEX follows_target_actor ON follows (target, actor);
         ANALYZE follows",
    )?;
    Ok(Load {
        elapsed: start.elapsed(),
        bytes,
    })
}

/// The questions' pgbench scripts (pgbench/<question>.<representation>.sql), the one
/// place their SQL is written: (question, representation, script). Representations
/// are `roaring64` (table `users`), `edges` (table `follows`), and for the first
/// question `roaringbitmap64` (`users_p`) and `int8array` (`users_a`).
pub const SCRIPTS: &[(&str, &str, &str)] = &[
    (
        "common_count",
        "roaring64",
        include_str!("../pgbench/common_count.roaring64.sql"),
    ),
    (
        "common_count",
        "edges",
        include_str!("../pgbench/common_count.edges.sql"),
    ),
    (
        "common_count",
        "roaringbitmap64",
        include_str!("../pgbench/common_count.roaringbitmap64.sql"),
    ),
    (
        "common_count",
        "int8array",
        include_str!("../pgbench/common_count.int8array.sql"),
    ),
    (
        "common_first_100",
        "roaring64",
        include_str!("../pgbench/common_first_100.roaring64.sql"),
    ),
    (
        "common_first_100",
        "edges",
        include_str!("../pgbench/common_first_100.edges.sql"),
    ),
    (
        "mutual_count",
        "roaring64",
        include_str!("../pgbench/mutual_count.roaring64.sql"),
    ),
    (
        "mutual_count",
        "edges",
        include_str!("../pgbench/mutual_count.edges.sql"),
    ),
    (
        "follower_count",
        "roaring64",
        include_str!("../pgbench/follower_count.roaring64.sql"),
    ),
    (
        "follower_count",
        "edges",
        include_str!("../pgbench/follower_count.edges.sql"),
    ),
    (
        "reach",
        "roaring64",
        include_str!("../pgbench/reach.roaring64.sql"),
    ),
    ("reach", "edges", include_str!("../pgbench/reach.edges.sql")),
];

/// A script's statement as a query for a client: comments and `\set` lines dropped,
/// `:a` and `:b` become `$1` and `$2`.
pub fn statement(script: &str) -> String {
    script
        .lines()
        .filter(|l| !l.starts_with("--") && !l.starts_with('\\'))
        .collect::<Vec<_>>()
        .join(" ")
        .replace(":a", "$1")
        .replace(":b", "$2")
        .trim_end_matches(';')
        .to_owned()
}

/// The script of a question in a representation.
pub fn script(question: &str, representation: &str) -> Option<&'static str> {
    SCRIPTS
        .iter()
        .find(|(q, r, _)| *q == question && *r == representation)
        .map(|(_, _, s)| *s)
}

/// The questions answered in both `roaring64` and `edges` form, in order.
pub const QUESTIONS: [&str; 5] = [
    "common_count",
    "common_first_100",
    "mutual_count",
    "follower_count",
    "reach",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_is_deterministic_and_shaped() {
        let g = generate(10_000);
        assert_eq!(g.users(), 10_000);
        let again = generate(10_000);
        assert_eq!(g.following, again.following);
        // About 30 follows per user; nobody follows themselves; sets are sorted.
        let per_user = g.edges() as f64 / 10_000.0;
        assert!(
            (20.0..40.0).contains(&per_user),
            "{per_user} follows per user"
        );
        for (i, out) in g.following.iter().enumerate() {
            assert!(out.windows(2).all(|w| w[0] < w[1]));
            assert!(!out.contains(&(i as u32 + 1)));
        }
        // Power law: uid 1 has far more followers than the median user.
        let followers = g.followers();
        let mut counts: Vec<usize> = followers.iter().map(Vec::len).collect();
        let top = counts[0];
        counts.sort_unstable();
        assert!(top > 50 * counts[counts.len() / 2].max(1), "{top}");
        assert_eq!(counts.iter().sum::<usize>() as u64, g.edges());
    }

    /// Prints a shape's figures: SHAPE_USERS, SHAPE_SCALE, SHAPE_POWER.
    #[test]
    #[ignore]
    fn shape_figures() {
        let env = |k: &str, d: f64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let users = env("SHAPE_USERS", 5_500_000.0) as u32;
        let shape = Shape {
            degree_scale: env("SHAPE_SCALE", 10.0),
            target_power: env("SHAPE_POWER", 3.0),
        };
        let g = generate_shaped(users, shape);
        let top = g.followers().iter().map(Vec::len).max().unwrap_or(0);
        println!(
            "{shape:?}: {} users, {} follows, largest follower set {top}",
            g.users(),
            g.edges()
        );
    }

    #[test]
    fn every_question_has_both_forms_as_client_statements() {
        for q in QUESTIONS {
            for r in ["roaring64", "edges"] {
                let s = statement(script(q, r).unwrap());
                assert!(s.starts_with("SELECT") && s.contains("$1"), "{q}.{r}: {s}");
                // No pgbench variable or meta-command is left (a `::` cast is SQL).
                let vars = s.replace("::", "");
                assert!(!vars.contains(':') && !s.contains('\\'), "{q}.{r}: {s}");
            }
        }
    }
}
