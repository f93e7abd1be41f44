//! Storage: bytes per stored value for sets of a few sizes, and the on-disk size of
//! each dataset's table, for roaring64, roaringbitmap64, the portable format in a
//! bytea, and int8[]; and roaring64 compressed (STORAGE extended, pglz) against its
//! default (external: uncompressed, so that TOAST slices can be read).

use crate::measure::{Record, ARR, R64, RB64};
use crate::{step, Config, Ctx, Step};

pub const PORTABLE: &str = "portable bytea";
/// roaring64 with STORAGE extended (pglz) instead of its default external.
const R64_PGLZ: &str = "roaring64 (pglz)";
const SIZES: &[u64] = &[0, 1, 2, 5, 10, 100, 1000, 100_000];

pub fn steps(cfg: &Config) -> Vec<Step> {
    let _ = cfg;
    vec![
        step("storage", "bytes per value", per_value),
        step("storage", "bytes per dataset", per_dataset),
    ]
}

/// pg_column_size of each form as stored in a table (short varlena headers apply to
/// small values there), for the elements i * 7919, i = 1..n.
fn per_value(ctx: &mut Ctx) {
    let rb64 = ctx.db.has_rb64;
    ctx.db.exec(&format!(
        "DROP TABLE IF EXISTS storage_sizes;
         CREATE TABLE storage_sizes (n int8, r roaring64, b bytea, a int8[]{});",
        if rb64 { ", p roaringbitmap64" } else { "" }
    ));
    for &n in SIZES {
        let arr = format!("ARRAY(SELECT i * 7919 FROM generate_series(1::int8, {n}) i)");
        ctx.db.exec(&format!(
            "INSERT INTO storage_sizes (n, r, b, a{}) SELECT {n}, rb_build(x), rb_to_portable(rb_build(x)), x{}
               FROM (SELECT {arr} AS x) s",
            if rb64 { ", p" } else { "" },
            if rb64 { ", rb64_build(x)" } else { "" }
        ));
    }
    for &n in SIZES {
        let row = ctx.db.query_one(
            &format!(
                "SELECT pg_column_size(r)::int8, pg_column_size(b)::int8, pg_column_size(a)::int8, {}
                   FROM storage_sizes WHERE n = {n}",
                if rb64 { "pg_column_size(p)::int8" } else { "0::int8" }
            ),
            &[],
        );
        let case = format!("{n} elements");
        let mut recs =
            vec![Record::new("storage/bytes_per_value", &case, R64)
                .bytes(row.get::<_, i64>(0) as u64)];
        if rb64 {
            recs.push(
                Record::new("storage/bytes_per_value", &case, RB64)
                    .bytes(row.get::<_, i64>(3) as u64),
            );
        }
        recs.push(
            Record::new("storage/bytes_per_value", &case, PORTABLE)
                .bytes(row.get::<_, i64>(1) as u64),
        );
        recs.push(
            Record::new("storage/bytes_per_value", &case, ARR).bytes(row.get::<_, i64>(2) as u64),
        );
        ctx.add(recs);
    }
}

/// pg_total_relation_size of a one-column copy of each dataset per form.
fn per_dataset(ctx: &mut Ctx) {
    let datasets: Vec<(String, String, u64)> = ctx
        .datasets
        .iter()
        .map(|d| (d.name.clone(), d.table.clone(), d.rows))
        .collect();
    for (name, t, rows) in datasets {
        let mut forms = vec![
            (R64, "r"),
            (R64_PGLZ, "r"),
            (PORTABLE, "rb_to_portable(r)"),
            (ARR, "a"),
        ];
        if ctx.db.has_rb64 {
            forms.insert(1, (RB64, "p"));
        }
        let mut recs = Vec::new();
        for (system, expr) in forms {
            ctx.db.exec(&format!(
                "DROP TABLE IF EXISTS storage_one; CREATE TABLE storage_one AS SELECT {expr} AS x FROM {t} LIMIT 0;
                 {}
                 INSERT INTO storage_one SELECT {expr} FROM {t}",
                if system == R64_PGLZ { "ALTER TABLE storage_one ALTER x SET STORAGE extended;" } else { "" }
            ));
            ctx.db.vacuum(&["storage_one"]);
            let bytes = ctx.db.i64("SELECT pg_total_relation_size('storage_one')") as u64;
            recs.push(
                Record::new("storage/table_bytes", &name, system)
                    .bytes(bytes)
                    .rows(rows),
            );
        }
        ctx.db.exec("DROP TABLE storage_one");
        ctx.add(recs);
    }
}
