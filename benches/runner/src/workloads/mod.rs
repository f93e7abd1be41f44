//! The workloads, grouped as the report groups them. Each group lists its steps;
//! `plan` puts them in the order they run.

mod clients;
mod datasets;
mod follow;
mod gin;
mod group_by;
mod ingest;
mod many;
mod pgbench;
mod planner;
mod point_reads;
mod storage;
mod writes;

use crate::{step, Config, Step};

/// Groups, in report order; `--only` takes these names.
pub const GROUPS: &[&str] = &[
    "aggregates",
    "builds",
    "pairwise",
    "one_set",
    "many",
    "point_reads",
    "group_by",
    "gin",
    "planner",
    "storage",
    "ingest",
    "writes",
    "follow_graph",
    "pgbench",
    "clients",
];

pub fn plan(cfg: &Config) -> Vec<Step> {
    let mut steps = Vec::new();
    let realdata = cfg.realdata();
    for name in crate::data::names(&realdata, cfg.smoke) {
        let dir = realdata.clone();
        steps.push(step("data", format!("load {name}"), move |ctx| {
            let loaded = crate::data::load_dataset(&mut ctx.db, &dir, &name);
            ctx.note(&format!(
                "loaded {name}: {} bitmaps, {} values (and its 64-bit spread)",
                loaded[0].rows, loaded[0].values
            ));
            ctx.datasets.extend(loaded);
        }));
    }
    steps.extend(datasets::steps(cfg));
    steps.extend(many::steps(cfg));
    steps.extend(point_reads::steps(cfg));
    steps.extend(group_by::steps(cfg));
    steps.extend(gin::steps(cfg));
    steps.extend(planner::steps(cfg));
    steps.extend(storage::steps(cfg));
    steps.extend(ingest::steps(cfg));
    steps.extend(writes::steps(cfg));
    steps.extend(follow::steps(cfg));
    steps.extend(pgbench::steps(cfg));
    steps.extend(clients::steps(cfg));
    steps
}
