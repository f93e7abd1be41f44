//! Writes the seed corpora into `corpus/<target>/` (beside this crate's Cargo.toml):
//!
//! ```text
//! cd crates/sroar/fuzz && cargo run --example seed_corpus
//! ```
//!
//! Seeds are valid buffers of every container kind (`src/seeds.rs`); the output is
//! the same on every run. Existing corpus files are kept.

use std::fs;
use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let corpora = [
        ("view_ops", sroar_fuzz::seeds::view_ops()),
        ("portable", sroar_fuzz::seeds::portable()),
        ("structured", sroar_fuzz::seeds::structured()),
    ];
    for (target, seeds) in corpora {
        let dir = root.join(target);
        fs::create_dir_all(&dir)?;
        for (name, bytes) in &seeds {
            fs::write(dir.join(format!("seed-{name}")), bytes)?;
        }
        println!("{}: {} seeds", dir.display(), seeds.len());
    }
    Ok(())
}
