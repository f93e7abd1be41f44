//! Test data: the real-world datasets (../shared/realdata), each also spread into
//! 64-bit space (bitmap i shifted by i << 36), loaded into one table per dataset
//! with the same sets as roaring64, roaringbitmap64 (when installed) and int8[];
//! and binary COPY encoding shared by the loaders.

use std::io::{Read, Write};
use std::path::Path;

use roaring::RoaringTreemap;

use crate::db::Db;

/// A loaded dataset: table `table(id int, a int8[], r roaring64[, p roaringbitmap64])`.
pub struct Dataset {
    pub name: String,
    pub table: String,
    pub rows: u64,
    pub values: u64,
}

/// The datasets a run uses: all twelve, or a small one for a smoke run.
pub fn names(realdata: &Path, smoke: bool) -> Vec<String> {
    if smoke {
        return vec!["wikileaks-noquotes".into()];
    }
    let mut names: Vec<String> = std::fs::read_dir(realdata)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".zip")
                        .map(String::from)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The bitmaps of one dataset, each sorted: one text file of comma-separated values
/// per bitmap inside the zip.
pub fn read_dataset(realdata: &Path, name: &str) -> Vec<Vec<u64>> {
    let file = std::fs::File::open(realdata.join(format!("{name}.zip")))
        .unwrap_or_else(|e| panic!("{name}.zip: {e}"));
    let mut zip = zip::ZipArchive::new(file).expect("a zip archive");
    let mut files: Vec<String> = zip
        .file_names()
        .filter(|f| f.ends_with(".txt"))
        .map(String::from)
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let mut text = String::new();
            zip.by_name(f).unwrap().read_to_string(&mut text).unwrap();
            let mut v: Vec<u64> = text
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().expect("an integer"))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

/// A binary COPY stream under construction (PostgreSQL's binary COPY format).
pub struct Copy {
    pub buf: Vec<u8>,
}

impl Copy {
    pub fn new() -> Copy {
        let mut buf = Vec::with_capacity(1 << 20);
        buf.extend_from_slice(b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0");
        Copy { buf }
    }

    pub fn row(&mut self, fields: u16) {
        self.buf.extend_from_slice(&fields.to_be_bytes());
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(&(b.len() as i32).to_be_bytes());
        self.buf.extend_from_slice(b);
    }

    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_be_bytes());
    }

    /// A one-dimensional int8[] without NULLs.
    pub fn int8_array(&mut self, values: impl ExactSizeIterator<Item = i64>) {
        let n = values.len();
        let ndim = i32::from(n > 0);
        let len = 12 + if n > 0 { 8 + 12 * n } else { 0 };
        self.buf.extend_from_slice(&(len as i32).to_be_bytes());
        self.buf.extend_from_slice(&ndim.to_be_bytes());
        self.buf.extend_from_slice(&0i32.to_be_bytes());
        self.buf.extend_from_slice(&20u32.to_be_bytes());
        if n > 0 {
            self.buf.extend_from_slice(&(n as i32).to_be_bytes());
            self.buf.extend_from_slice(&1i32.to_be_bytes());
            for v in values {
                self.buf.extend_from_slice(&8i32.to_be_bytes());
                self.buf.extend_from_slice(&v.to_be_bytes());
            }
        }
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.buf.extend_from_slice(&(-1i16).to_be_bytes());
        self.buf
    }
}

/// The native roaring64 bytes of a set of non-negative values.
pub fn native(values: &[u64]) -> Vec<u8> {
    sroar::Roaring::from_signed(values.iter().map(|&v| v as i64))
        .expect("fits")
        .into()
}

/// The standard 64-bit portable bytes of a set (CRoaring's and roaring-rs's format;
/// pg_roaringbitmap's roaringbitmap64 stores it, and roaring64's binary input reads it).
pub fn portable(values: &[u64]) -> Vec<u8> {
    let tree: RoaringTreemap = values.iter().copied().collect();
    let mut out = Vec::with_capacity(tree.serialized_size());
    tree.serialize_into(&mut out).expect("in memory");
    out
}

/// Sends a COPY stream, 1 MB at a time: the client sends what one write gives it as
/// one protocol message, and the server takes messages of up to 1 GB.
pub fn copy_in(db: &mut Db, sql: &str, data: &[u8]) {
    let mut w = db
        .client
        .copy_in(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    for chunk in data.chunks(1 << 20) {
        w.write_all(chunk).expect("COPY stream");
    }
    w.finish().unwrap_or_else(|e| panic!("{sql}: {e:?}"));
}

/// Creates and fills the table of `bitmaps`: (id, a int8[], r roaring64[, p]).
pub fn load(db: &mut Db, table: &str, bitmaps: &[Vec<u64>]) {
    let rb64 = db.has_rb64;
    db.exec(&format!(
        "DROP TABLE IF EXISTS {table};
         CREATE TABLE {table} (id int PRIMARY KEY, a int8[] NOT NULL, r roaring64 NOT NULL{})",
        if rb64 {
            ", p roaringbitmap64 NOT NULL"
        } else {
            ""
        }
    ));
    let mut copy = Copy::new();
    for (i, b) in bitmaps.iter().enumerate() {
        copy.row(if rb64 { 4 } else { 3 });
        copy.i32(i as i32);
        copy.int8_array(b.iter().map(|&v| v as i64));
        copy.bytes(&native(b));
        if rb64 {
            copy.bytes(&portable(b));
        }
    }
    let cols = if rb64 { "(id, a, r, p)" } else { "(id, a, r)" };
    copy_in(
        db,
        &format!("COPY {table} {cols} FROM STDIN (FORMAT binary)"),
        &copy.finish(),
    );
    db.vacuum(&[table]);
}

/// Loads a dataset and its 64-bit spread.
pub fn load_dataset(db: &mut Db, realdata: &Path, name: &str) -> [Dataset; 2] {
    let bitmaps = read_dataset(realdata, name);
    let values: u64 = bitmaps.iter().map(|b| b.len() as u64).sum();
    let base = format!("rd_{}", name.replace('-', "_"));
    load(db, &base, &bitmaps);
    let spread: Vec<Vec<u64>> = bitmaps
        .iter()
        .enumerate()
        .map(|(i, b)| b.iter().map(|&v| v + ((i as u64) << 36)).collect())
        .collect();
    load(db, &format!("{base}_64"), &spread);
    let rows = bitmaps.len() as u64;
    [
        Dataset {
            name: name.to_owned(),
            table: base.clone(),
            rows,
            values,
        },
        Dataset {
            name: format!("{name} (64-bit)"),
            table: format!("{base}_64"),
            rows,
            values,
        },
    ]
}

/// xorshift64*: deterministic data for the synthetic cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}
