//! The real-roaring-datasets: unpacked once from `shared/realdata/*.zip` into
//! `target/realdata/<name>/`, then parsed into one sorted `Vec<u64>` per bitmap.
//!
//! The zips are looked up in `$SROAR_REALDATA`, else in `shared/realdata` beside
//! the workspace (`../shared/realdata` from the workspace root).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The twelve datasets, in the order of `shared/realdata/README.md`.
pub const NAMES: [&str; 12] = [
    "census-income",
    "census-income_srt",
    "census1881",
    "census1881_srt",
    "dimension_003",
    "dimension_008",
    "dimension_033",
    "uscensus2000",
    "weather_sept_85",
    "weather_sept_85_srt",
    "wikileaks-noquotes",
    "wikileaks-noquotes_srt",
];

/// Suffix of the 64-bit variant of a dataset, whose bitmap `i` is shifted by `i << 36`.
pub const SPREAD_SUFFIX: &str = "@64";

fn workspace_root() -> PathBuf {
    // crates/sroar -> the workspace root.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn zip_dir() -> PathBuf {
    match std::env::var_os("SROAR_REALDATA") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/realdata"),
    }
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("target"),
    }
}

/// Unpacks `<name>.zip` into `target/realdata/<name>/` unless a previous run did,
/// and returns that folder.
fn unpack(name: &str) -> io::Result<PathBuf> {
    let out = target_dir().join("realdata").join(name);
    let done = out.join(".unpacked");
    if done.exists() {
        return Ok(out);
    }
    let zip_path = zip_dir().join(format!("{name}.zip"));
    let file = fs::File::open(&zip_path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("{}: {e} (set SROAR_REALDATA)", zip_path.display()),
        )
    })?;
    let mut archive = zip::ZipArchive::new(file).map_err(io::Error::other)?;
    fs::create_dir_all(&out)?;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(io::Error::other)?;
        // Flat archives: keep the file name only, never a path from the archive.
        let Some(file_name) = entry
            .enclosed_name()
            .and_then(|p| p.file_name().map(PathBuf::from))
        else {
            continue;
        };
        if entry.is_dir() {
            continue;
        }
        let mut dst = fs::File::create(out.join(file_name))?;
        io::copy(&mut entry, &mut dst)?;
    }
    fs::File::create(done)?;
    Ok(out)
}

/// The number in `name.csv<N>.txt`, to keep the bitmaps in their published order.
fn file_index(path: &Path) -> u64 {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let digits: String = name
        .trim_end_matches(".txt")
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().unwrap_or(u64::MAX)
}

fn parse(text: &str, path: &Path) -> Vec<u64> {
    let values: Vec<u64> = text
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .unwrap_or_else(|e| panic!("{}: bad value {s:?}: {e}", path.display()))
        })
        .collect();
    assert!(
        values.windows(2).all(|w| w[0] < w[1]),
        "{}: values are not strictly increasing",
        path.display()
    );
    values
}

/// The bitmaps of dataset `name` (one of [`NAMES`], optionally with
/// [`SPREAD_SUFFIX`]), each a strictly increasing list of values.
pub fn load(name: &str) -> io::Result<Vec<Vec<u64>>> {
    let (base, spread) = match name.strip_suffix(SPREAD_SUFFIX) {
        Some(base) => (base, true),
        None => (name, false),
    };
    let dir = unpack(base)?;
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort_by_key(|p| (file_index(p), p.clone()));
    let mut bitmaps = Vec::with_capacity(files.len());
    for (i, path) in files.iter().enumerate() {
        let mut values = parse(&fs::read_to_string(path)?, path);
        if spread {
            let shift = (i as u64) << 36;
            values.iter_mut().for_each(|v| *v += shift);
        }
        bitmaps.push(values);
    }
    Ok(bitmaps)
}

/// All dataset names: the twelve, then their 64-bit spread variants; restricted to
/// the comma-separated names in `$SROAR_BENCH_DATASETS` when it is set (so a
/// filtered run does not load every dataset).
pub fn selected() -> Vec<String> {
    let all = NAMES
        .iter()
        .map(|n| n.to_string())
        .chain(NAMES.iter().map(|n| format!("{n}{SPREAD_SUFFIX}")));
    match std::env::var("SROAR_BENCH_DATASETS") {
        Ok(list) if !list.trim().is_empty() => {
            let wanted: Vec<&str> = list.split(',').map(str::trim).collect();
            all.filter(|n| wanted.contains(&n.as_str())).collect()
        }
        _ => all.collect(),
    }
}
