//! User errors through a real client: each carries the SQLSTATE a PostgreSQL user
//! expects, never XX000 (a Rust panic reaching SQL), and the same connection keeps
//! working afterwards. scripts/test.sh starts the server and sets SROAR_PG_PORT.

use postgres::types::ToSql;
use postgres::Client;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sroar_pg_client_tests::{connect, sqlstate, Raw};

/// Runs `sql` expecting an error with SQLSTATE `code`, then checks that the
/// connection still answers.
fn expect_code(c: &mut Client, code: &str, sql: &str, params: &[&(dyn ToSql + Sync)], what: &str) {
    match c.query(sql, params) {
        Ok(rows) => panic!(
            "{what}: expected {code}, got {} rows from {sql}",
            rows.len()
        ),
        Err(e) => assert_eq!(sqlstate(&e).as_deref(), Some(code), "{what}: {sql}: {e}"),
    }
    alive(c);
}

fn alive(c: &mut Client) {
    let one: i32 = c
        .query_one("SELECT 1", &[])
        .expect("the connection works after the error")
        .get(0);
    assert_eq!(one, 1);
}

// ---------------------------------------------------------------------------
// Text input
// ---------------------------------------------------------------------------

#[test]
fn malformed_text_is_22p02() {
    let mut c = connect();
    let inputs = [
        "",
        " ",
        "{",
        "}",
        "{1",
        "{1,",
        "{,}",
        "{,1}",
        "{1,,2}",
        "{1 2}",
        "{a}",
        "{1}x",
        "{1} {2}",
        "1,2",
        "1",
        "[1,2]",
        "(1,2)",
        "{1.5}",
        "{1e3}",
        "{0x10}",
        "{--1}",
        "{+-1}",
        "{-}",
        "{+}",
        "{NULLX}",
        "{1;2}",
        "{{1}}",
        "{１}",
        "\u{a0}{1}",
        "{1}\u{0}",
        "\\x1",
        "\\xzz",
        "\\x0g",
        "\\x 53",
        "\\",
        "x53523634",
    ];
    for input in inputs {
        if input.contains('\0') {
            continue; // a text parameter cannot hold NUL
        }
        expect_code(
            &mut c,
            "22P02",
            "SELECT $1::text::roaring64",
            &[&input],
            input,
        );
    }
    // A literal goes through the same input function.
    expect_code(
        &mut c,
        "22P02",
        "SELECT '{1,,2}'::roaring64",
        &[],
        "literal",
    );
    expect_code(&mut c, "22P02", "SELECT '{1,2'::roaring64", &[], "literal");
    // Through COPY text input as well.
    c.batch_execute("CREATE TEMP TABLE t_copy (r roaring64)")
        .unwrap();
    let mut w = c.copy_in("COPY t_copy FROM STDIN").unwrap();
    std::io::Write::write_all(&mut w, b"{1,2}\n{1,x}\n").unwrap();
    let e = w.finish().expect_err("bad COPY row accepted");
    assert_eq!(sqlstate(&e).as_deref(), Some("22P02"), "{e}");
    alive(&mut c);
}

/// `\x` followed by well-formed hex of bytes that are not a valid roaring64: the
/// bytes are what is wrong, so the error is the binary-data one.
#[test]
fn hex_text_of_invalid_bytes_is_22p03() {
    let mut c = connect();
    let good = native(&mut c, "{1,2,3,70000}");
    let bad = [
        String::new(),
        "00".to_owned(),
        "53523634".to_owned(),
        sroar_pg_client_tests::hex(&good[..good.len() - 1]),
        sroar_pg_client_tests::hex(&[good.as_slice(), &[0]].concat()),
    ];
    for h in bad {
        let text = format!("\\x{h}");
        expect_code(
            &mut c,
            "22P03",
            "SELECT $1::text::roaring64",
            &[&text],
            &text,
        );
    }
}

#[test]
fn out_of_range_numbers_are_22003() {
    let mut c = connect();
    for input in [
        "{9223372036854775808}",
        "{-9223372036854775809}",
        "{1,99999999999999999999}",
        "{18446744073709551616}",
        "{+9223372036854775808}",
        "{100000000000000000000000000000000000000000000000000000000000}",
    ] {
        expect_code(
            &mut c,
            "22003",
            "SELECT $1::text::roaring64",
            &[&input],
            input,
        );
    }
    // The extreme values themselves are fine.
    let r: String = c
        .query_one(
            "SELECT '{9223372036854775807,-9223372036854775808,+5}'::roaring64::text",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(r, "{-9223372036854775808,5,9223372036854775807}");
    expect_code(
        &mut c,
        "22003",
        "SELECT rb_build('{9223372036854775808}'::int8[])",
        &[],
        "int8[] input",
    );
}

/// A NULL element is 22004 with one wording on every way in, naming its place.
fn expect_null_element(c: &mut Client, sql: &str, params: &[&(dyn ToSql + Sync)], element: usize) {
    let e = c.query(sql, params).expect_err(sql);
    let db = e.as_db_error().unwrap_or_else(|| panic!("{sql}: {e}"));
    assert_eq!(db.code().code(), "22004", "{sql}: {e}");
    assert_eq!(db.message(), "roaring64 cannot contain NULL", "{sql}");
    assert_eq!(
        db.detail(),
        Some(format!("Element {element} of the input is NULL.").as_str()),
        "{sql}"
    );
    alive(c);
}

#[test]
fn null_elements_are_22004_on_every_way_in() {
    let mut c = connect();
    for (sql, element) in [
        ("SELECT '{NULL}'::roaring64", 1),
        ("SELECT '{1, null ,3}'::roaring64", 2),
        ("SELECT '{1,2,NuLl}'::roaring64_state", 3),
        ("SELECT rb_build(ARRAY[1, NULL]::int8[])", 2),
        ("SELECT rb_build(ARRAY[NULL]::int8[])", 1),
        ("SELECT ARRAY[NULL, 2]::int8[]::roaring64", 1),
        ("SELECT ARRAY[1, NULL]::int4[]::roaring64", 2),
        ("SELECT rb_add('{1}'::roaring64, ARRAY[NULL]::int8[])", 1),
        (
            "SELECT rb_remove('{1}'::roaring64, ARRAY[2, NULL]::int8[])",
            2,
        ),
    ] {
        expect_null_element(&mut c, sql, &[], element);
    }
    let with_null: Vec<Option<i64>> = vec![Some(1), None, Some(3)];
    expect_null_element(&mut c, "SELECT rb_build($1::int8[])", &[&with_null], 2);
    expect_null_element(
        &mut c,
        "SELECT rb_add($1::text::roaring64, $2::int8[])",
        &[&"{}", &with_null],
        2,
    );
    let with_null32: Vec<Option<i32>> = vec![None];
    expect_null_element(&mut c, "SELECT $1::int4[]::roaring64", &[&with_null32], 1);
    // A word that only starts like NULL is a syntax error, not a NULL.
    expect_code(&mut c, "22P02", "SELECT '{NULLS}'::roaring64", &[], "NULLS");
}

#[test]
fn bad_arguments_are_22023() {
    let mut c = connect();
    for (o, l) in [
        (-1i64, 1i64),
        (0, -1),
        (-1, -1),
        (i64::MIN, 5),
        (5, i64::MIN),
    ] {
        expect_code(
            &mut c,
            "22023",
            "SELECT rb_slice('{1,2,3}'::roaring64, $1, $2)",
            &[&o, &l],
            &format!("rb_slice({o}, {l})"),
        );
    }
    // rb_slice of an empty set with a negative argument is still an error.
    expect_code(
        &mut c,
        "22023",
        "SELECT rb_slice('{}'::roaring64, -1, 0)",
        &[],
        "empty",
    );
    c.batch_execute("SELECT sroar_version()").unwrap();
    expect_code(
        &mut c,
        "22023",
        "SET sroar.output_format = 'octal'",
        &[],
        "GUC",
    );
}

/// Results that would not fit in one PostgreSQL value (1 GB) are refused before
/// anything is allocated.
#[test]
fn results_over_1gb_are_54000() {
    let mut c = connect();
    for sql in [
        "SELECT rb_from_range(-9223372036854775808, 9223372036854775807)",
        "SELECT rb_from_range(0, 9223372036854775807)",
        "SELECT rb_from_range('(,)'::int8range)",
        "SELECT rb_from_range('[0,)'::int8range)",
        "SELECT rb_fill('{}'::roaring64, -9223372036854775808, 9223372036854775807)",
        "SELECT rb_fill('{1}'::roaring64, '(,)'::int8range)",
        "SELECT rb_flip('{1}'::roaring64, -9223372036854775808, 9223372036854775807)",
        "SELECT rb_flip('{}'::roaring64, '(,)'::int8range)",
        // 2^42 values: 2^26 run containers of 16 bytes, just over 1 GB.
        "SELECT rb_from_range(0, 4398046511104)",
        // 2^28 values as int8[]: 2 GB.
        "SELECT rb_to_array(rb_from_range(0, 268435456))",
    ] {
        expect_code(&mut c, "54000", sql, &[], sql);
    }
}

/// An int8multirange with an unbounded side, cast to roaring64 (if this build has
/// the cast): over 1 GB.
#[test]
fn unbounded_multirange_is_54000() {
    let mut c = connect();
    let has: bool = c
        .query_one(
            "SELECT to_regprocedure('roaring64_from_multirange(int8multirange)') IS NOT NULL",
            &[],
        )
        .unwrap()
        .get(0);
    if !has {
        eprintln!("no int8multirange cast in this build: nothing to test");
        return;
    }
    for sql in [
        "SELECT '{(,5)}'::int8multirange::roaring64",
        "SELECT '{[1,3), [0,)}'::int8multirange::roaring64",
        "SELECT roaring64_from_multirange('{(,)}')",
    ] {
        expect_code(&mut c, "54000", sql, &[], sql);
    }
}

/// Text output of a set whose text is over 1 GB is refused with 54000, not an
/// internal allocation failure: 1.2 * 10^8 values of 10 digits and commas in the
/// array form, or the hex form of a 560 MB value (4 * 10^7 full containers).
#[test]
fn text_output_over_1gb_is_54000() {
    let mut c = connect();
    expect_code(
        &mut c,
        "54000",
        "SELECT length(rb_from_range(1000000000, 1120000000)::text)",
        &[],
        "array text output",
    );
    c.batch_execute("SET sroar.output_format = hex").unwrap();
    expect_code(
        &mut c,
        "54000",
        "SELECT length(rb_from_range(0, 2621440000000)::text)",
        &[],
        "hex text output",
    );
}

// ---------------------------------------------------------------------------
// Binary input
// ---------------------------------------------------------------------------

fn native(c: &mut Client, text: &str) -> Vec<u8> {
    c.query_one("SELECT $1::text::roaring64::bytea", &[&text])
        .unwrap()
        .get(0)
}

const ARRAY: u8 = 1;
const BITMAP: u8 = 2;
const RUN: u8 = 3;

/// One container as stored: its 48-bit key, its cardinality and its payload (the
/// format stores no kind: it follows from cardinality and size).
#[derive(Clone, Debug)]
struct Stored {
    key: u64,
    card: u64,
    payload: Vec<u8>,
}

fn runs_of(lows: &[u16]) -> Vec<(u16, u16)> {
    let mut runs: Vec<(u16, u16)> = Vec::new();
    for &v in lows {
        match runs.last_mut() {
            Some((s, l)) if u32::from(*s) + u32::from(*l) + 1 == u32::from(v) => *l += 1,
            _ => runs.push((v, 0)),
        }
    }
    runs
}

fn canonical_kind(lows: &[u16]) -> u8 {
    let (c, r) = (lows.len(), runs_of(lows).len());
    if c <= 4096 {
        if 4 * r < 2 * c {
            RUN
        } else {
            ARRAY
        }
    } else if 4 * r < 8192 {
        RUN
    } else {
        BITMAP
    }
}

/// A container holding the low parts `lows` (ascending), stored as `kind`.
fn container(key: u64, lows: &[u16], kind: u8) -> Stored {
    let payload = match kind {
        ARRAY => lows.iter().flat_map(|v| v.to_le_bytes()).collect(),
        BITMAP => {
            let mut words = [0u64; 1024];
            for &v in lows {
                words[usize::from(v) / 64] |= 1 << (v % 64);
            }
            words.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        _ => runs_of(lows)
            .iter()
            .flat_map(|(s, l)| [s.to_le_bytes(), l.to_le_bytes()].concat())
            .collect(),
    };
    Stored {
        key,
        card: lows.len() as u64,
        payload,
    }
}

/// Header fields, normally derived from the containers (FORMAT.md, version 3).
struct Header {
    magic: [u8; 4],
    version: u8,
    /// The flags byte; `None` for the canonical one (the cardinality's width, the
    /// directory's cardinality width and offset width).
    flags: Option<u8>,
    card: u64,
    min: u64,
    max: u64,
}

fn width(x: u64) -> usize {
    (64 - x.leading_zeros() as usize).div_ceil(8)
}

/// The min's width code and the integer stored for it: flipped (`x ^ 2^63`, code
/// `8 + width`, at least 1 byte) when that is shorter.
fn min_code(min: u64) -> (u8, u64, usize) {
    let f = min ^ (1 << 63);
    let fw = width(f).max(1);
    if fw < width(min) {
        (8 + fw as u8, f, fw)
    } else {
        (width(min) as u8, min, width(min))
    }
}

/// The buffer of these containers under this header: header, directory (keys,
/// cardinalities, halved offsets, counts before each block of 64) and packed
/// payloads. Cardinalities take the bytes the largest needs; offsets are not
/// stored when every container is an array of at most 256 values, else take 1,
/// 2 or 4 bytes.
fn assemble(cs: &[Stored], h: &Header) -> Vec<u8> {
    let n = cs.len();
    let mut offsets = vec![0u64];
    for c in cs {
        offsets.push(offsets.last().unwrap() + c.payload.len() as u64);
    }
    let last = if n > 1 { offsets[n - 1] } else { 0 };
    let max_card = cs.iter().map(|c| c.card).max().unwrap_or(1);
    let card_w = width(max_card.saturating_sub(1)).min(2);
    let arrays = cs.iter().all(|c| c.payload.len() as u64 == 2 * c.card);
    let ow = if arrays && card_w <= 1 {
        0
    } else {
        [1, 1, 2, 4, 4][width(last / 2)]
    };
    let span = h.max.wrapping_sub(h.min);
    let (code, min, mw) = min_code(h.min);
    let (cw, sw) = (width(h.card), width(span));
    let mut out = Vec::new();
    out.extend_from_slice(&h.magic);
    out.push(h.version);
    let canonical = if h.card == 0 && n == 0 {
        0
    } else {
        (card_w as u8) << 2 | [0, 1, 2, 0, 3][ow]
    };
    out.push((cw as u8) << 4 | h.flags.unwrap_or(canonical));
    out.push((sw as u8) << 4 | code);
    if h.card == 0 && n == 0 {
        return out;
    }
    for (x, w) in [(h.card, cw), (n as u64, cw), (min, mw), (span, sw)] {
        out.extend_from_slice(&x.to_le_bytes()[..w]);
    }
    let key0 = h.min >> 16;
    let kw = width((h.max >> 16).wrapping_sub(key0) & ((1 << 48) - 1));
    for c in cs {
        out.extend_from_slice(&c.key.wrapping_sub(key0).to_le_bytes()[..kw]);
    }
    for c in cs {
        out.extend_from_slice(&c.card.wrapping_sub(1).to_le_bytes()[..card_w]);
    }
    for &o in &offsets[1..n.max(1)] {
        out.extend_from_slice(&(o / 2).to_le_bytes()[..ow]);
    }
    let mut sum = 0;
    for (i, c) in cs.iter().enumerate() {
        if i > 0 && i % 64 == 0 {
            out.extend_from_slice(&u64::to_le_bytes(sum)[..width(h.card).max(1)]);
        }
        sum += c.card;
    }
    for c in cs {
        out.extend_from_slice(&c.payload);
    }
    out
}

/// The header that agrees with the containers, given the values they hold.
fn header_of(values: &[u64]) -> Header {
    Header {
        magic: *b"SR64",
        version: 3,
        flags: None,
        card: values.len() as u64,
        min: values.first().copied().unwrap_or(0),
        max: values.last().copied().unwrap_or(0),
    }
}

/// Bytes of the header of a valid buffer: 7 fixed ones (magic, version, flags
/// with the cardinality's width, the widths of min and max - min), then the
/// cardinality, the container count, min and max - min.
fn header_len(b: &[u8]) -> usize {
    7 + 2 * usize::from(b[5] >> 4) + min_width(b) + usize::from(b[6] >> 4)
}

/// Bytes of the min field: its width code, less 8 for a flipped min.
fn min_width(b: &[u8]) -> usize {
    let code = usize::from(b[6] & 15);
    if code > 8 {
        code - 8
    } else {
        code
    }
}

/// The stored u64 of an int8 value.
fn u(x: i64) -> u64 {
    (x as u64) ^ (1 << 63)
}

/// The canonical buffer of a set of int8 values, built here independently.
fn encode(values: &[i64]) -> Vec<u8> {
    let mut us: Vec<u64> = values.iter().map(|&x| u(x)).collect();
    us.sort_unstable();
    us.dedup();
    let mut cs = Vec::new();
    let mut i = 0;
    while i < us.len() {
        let key = us[i] >> 16;
        let lows: Vec<u16> = us[i..]
            .iter()
            .take_while(|&&v| v >> 16 == key)
            .map(|&v| v as u16)
            .collect();
        i += lows.len();
        cs.push(container(key, &lows, canonical_kind(&lows)));
    }
    assemble(&cs, &header_of(&us))
}

/// Invalid bytes through every binary door: the bytea cast, roaring64_from_bytea and
/// a binary parameter (the type's receive function).
fn expect_invalid(c: &mut Client, bytes: &[u8], what: &str) {
    let v = bytes.to_vec();
    expect_code(c, "22P03", "SELECT $1::bytea::roaring64", &[&v], what);
    expect_code(
        c,
        "22P03",
        "SELECT roaring64_from_bytea($1::bytea)",
        &[&v],
        what,
    );
    expect_code(c, "22P03", "SELECT $1::roaring64", &[&Raw(v.clone())], what);
}

/// Refused with 22P03, or accepted as the canonical encoding of the set they hold.
fn invalid_or_canonical(c: &mut Client, bytes: &[u8], what: &str) {
    match c.query_one("SELECT $1::bytea::roaring64", &[&bytes.to_vec()]) {
        Ok(_) => accepted_is_canonical(c, bytes, what),
        Err(e) => assert_eq!(sqlstate(&e).as_deref(), Some("22P03"), "{what}: {e}"),
    }
}

/// Bytes that were accepted must be the canonical encoding of the set they hold.
fn accepted_is_canonical(c: &mut Client, bytes: &[u8], what: &str) {
    let row = c
        .query_one(
            "SELECT rb_build(rb_to_array(r))::bytea, rb_cardinality(r), cardinality(rb_to_array(r))
             FROM (SELECT $1::bytea::roaring64 AS r) t",
            &[&bytes.to_vec()],
        )
        .unwrap();
    assert_eq!(
        row.get::<_, Vec<u8>>(0),
        bytes,
        "{what}: accepted but not canonical"
    );
    assert_eq!(
        row.get::<_, i64>(1),
        i64::from(row.get::<_, i32>(2)),
        "{what}"
    );
}

fn good_values(c: &mut Client) -> Vec<(String, Vec<u8>)> {
    let texts = [
        "{}".to_owned(),
        "{0}".to_owned(),
        "{1,5,9,200,70000}".to_owned(),
        "{-9223372036854775808,-1,0,9223372036854775807}".to_owned(),
        "{1,2,3,65536,65537,4294967296}".to_owned(),
    ];
    let mut out: Vec<(String, Vec<u8>)> = texts.iter().map(|t| (t.clone(), native(c, t))).collect();
    // A bitmap container and a run container.
    for sql in [
        "SELECT rb_build(ARRAY(SELECT g FROM generate_series(0, 20000, 3) g))::bytea",
        "SELECT rb_from_range(100, 50000)::bytea",
    ] {
        let b: Vec<u8> = c.query_one(sql, &[]).unwrap().get(0);
        out.push((sql.to_owned(), b));
    }
    out
}

/// The independent encoder above agrees with the server, so that the hand-made
/// invalid buffers below differ from valid ones only where intended.
#[test]
fn the_test_encoder_matches_the_server() {
    let mut c = connect();
    let sets: Vec<Vec<i64>> = vec![
        vec![],
        vec![0],
        vec![1, 5, 9, 200, 70000],
        vec![i64::MIN, -1, 0, i64::MAX],
        vec![0, 1, 2],
        (0..20000).step_by(3).collect(),
        (100..50000).collect(),
        (0..5000).map(|x| x * 2).collect(),
        vec![-65536, -65537, 65535, 65536, 1 << 48],
    ];
    for s in sets {
        let server: Vec<u8> = c
            .query_one("SELECT rb_build($1::int8[])::bytea", &[&s])
            .unwrap()
            .get(0);
        assert_eq!(encode(&s), server, "encoding of {s:?}");
    }
}

#[test]
fn truncated_or_extended_binary_is_22p03() {
    let mut c = connect();
    for (name, good) in good_values(&mut c) {
        let lens: Vec<usize> = if good.len() <= 200 {
            (0..good.len()).collect()
        } else {
            let mut l: Vec<usize> = (0..60).collect();
            l.extend((60..good.len()).step_by(997));
            l.push(good.len() - 1);
            l
        };
        for n in lens {
            expect_invalid(&mut c, &good[..n], &format!("{name} cut to {n} bytes"));
        }
        for extra in [&[0u8][..], &[0; 8], &[0xff; 3], &good] {
            let long = [good.as_slice(), extra].concat();
            expect_invalid(&mut c, &long, &format!("{name} + {} bytes", extra.len()));
        }
    }
}

#[test]
fn wrong_header_fields_are_22p03() {
    let mut c = connect();
    for (name, good) in good_values(&mut c) {
        let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
        for i in 0..4 {
            let mut b = good.clone();
            b[i] = b[i].wrapping_add(1);
            cases.push((format!("magic byte {i}"), b));
        }
        for (at, v, what) in [
            (4, 0u8, "version 0"),
            (4, 1, "version 1"),
            (4, 2, "version 2"),
            (4, 4, "version 4"),
            (5, good[5] ^ 1, "offset width flag"),
            (5, 2, "flags 2"),
            (5, 0x80, "flags 0x80"),
        ] {
            let mut b = good.clone();
            b[at] = v;
            cases.push((what.to_owned(), b));
        }
        // Flipping any bit of the header (magic, version, flags, widths, the
        // cardinality, the container count, min and max - min) makes it disagree
        // with the rest; but keys are stored relative to min's, so a change to
        // min above its low 16 bits moves the whole set, to another valid set.
        let min_at = 7 + 2 * usize::from(good[5] >> 4);
        let moves = min_at + 2..min_at + min_width(&good);
        let mut moved = Vec::new();
        for i in 0..header_len(&good) {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut b = good.clone();
                b[i] ^= mask;
                if good[5] >> 4 != 0 && moves.contains(&i) {
                    moved.push(b);
                } else {
                    cases.push((format!("header byte {i} ^ {mask:#x}"), b));
                }
            }
        }
        for (what, b) in cases {
            expect_invalid(&mut c, &b, &format!("{name}: {what}"));
        }
        for b in moved {
            invalid_or_canonical(&mut c, &b, &format!("{name}: moved by min"));
        }
    }
}

#[test]
fn other_format_versions_name_their_version() {
    let mut c = connect();
    let mut v1 = native(&mut c, "{1,2,3}");
    v1[4] = 1;
    let e = c
        .query_one("SELECT $1::bytea::roaring64", &[&v1])
        .expect_err("a version 1 value is refused");
    assert_eq!(sqlstate(&e).as_deref(), Some("22P03"));
    let msg = e
        .as_db_error()
        .map(|d| d.message().to_owned())
        .unwrap_or_default();
    assert!(msg.contains("format version 1"), "{msg}");
}

/// Flipped bytes past the header: refused with 22P03, or (where the change happens
/// to give another valid set, say a middle element of an array) accepted only as the
/// canonical encoding of the set it now holds.
#[test]
fn flipped_bytes_are_22p03_or_canonical() {
    let mut c = connect();
    let mut accepted = 0;
    let mut refused = 0;
    for (name, good) in good_values(&mut c) {
        let head = header_len(&good);
        let positions: Vec<usize> = if good.len() <= 300 {
            (head..good.len()).collect()
        } else {
            (head..good.len())
                .step_by(61)
                .chain([good.len() - 1])
                .collect()
        };
        for i in positions {
            for mask in [0x01u8, 0x5a, 0x80] {
                let mut b = good.clone();
                b[i] ^= mask;
                let what = format!("{name}: byte {i} ^ {mask:#x}");
                let v = b.clone();
                match c.query("SELECT $1::bytea::roaring64", &[&v]) {
                    Err(e) => {
                        assert_eq!(sqlstate(&e).as_deref(), Some("22P03"), "{what}: {e}");
                        alive(&mut c);
                        // The receive function agrees.
                        expect_code(&mut c, "22P03", "SELECT $1::roaring64", &[&Raw(v)], &what);
                        refused += 1;
                    }
                    Ok(_) => {
                        accepted_is_canonical(&mut c, &b, &what);
                        let back: Raw = c
                            .query_one("SELECT $1::roaring64", &[&Raw(v)])
                            .unwrap()
                            .get(0);
                        assert_eq!(back.0, b, "{what}");
                        accepted += 1;
                    }
                }
            }
        }
    }
    assert!(refused > accepted, "refused {refused}, accepted {accepted}");
}

/// Buffers that are well-formed but not canonical: each set has one encoding.
#[test]
fn non_canonical_buffers_are_22p03() {
    let mut c = connect();
    let k = u(0) >> 16; // the container of 0..65535
    let vals =
        |lows: &[u16]| -> Vec<u64> { lows.iter().map(|&l| (k << 16) | u64::from(l)).collect() };
    let one = |lows: &[u16], kind: u8| -> Vec<u8> {
        assemble(&[container(k, lows, kind)], &header_of(&vals(lows)))
    };
    let evens: Vec<u16> = (0..5000).map(|x| x * 2).collect();
    let full: Vec<u16> = (0..5000).collect();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("{0,1,2} as an array (a run)", one(&[0, 1, 2], ARRAY)),
        ("{5} as a bitmap (an array)", one(&[5], BITMAP)),
        ("{0,2,4,6} as runs (an array)", one(&[0, 2, 4, 6], RUN)),
        (
            "5000 even values as an array (a bitmap)",
            one(&evens, ARRAY),
        ),
        ("5000 even values as runs (a bitmap)", one(&evens, RUN)),
        ("0..5000 as a bitmap (a run)", one(&full, BITMAP)),
        ("0..5000 as an array (a run)", one(&full, ARRAY)),
    ];
    // Arrays: unsorted, duplicated.
    let mut unsorted = container(k, &[1, 9, 20], ARRAY);
    unsorted.payload = [9u16, 1, 20].iter().flat_map(|v| v.to_le_bytes()).collect();
    cases.push((
        "unsorted array",
        assemble(&[unsorted], &header_of(&vals(&[1, 9, 20]))),
    ));
    let mut dup = container(k, &[1, 9, 20], ARRAY);
    dup.payload = [1u16, 9, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
    cases.push((
        "duplicate in array",
        assemble(&[dup], &header_of(&vals(&[1, 9, 9]))),
    ));
    // Runs: adjacent, overlapping, out of order, past 65535.
    let run_payload = |runs: &[(u16, u16)]| -> Vec<u8> {
        runs.iter()
            .flat_map(|(s, l)| [s.to_le_bytes(), l.to_le_bytes()].concat())
            .collect()
    };
    for (what, runs, lows) in [
        (
            "adjacent runs",
            vec![(0u16, 9u16), (10, 9)],
            (0..20).collect::<Vec<u16>>(),
        ),
        ("overlapping runs", vec![(0, 9), (5, 14)], (0..20).collect()),
        (
            "runs out of order",
            vec![(100, 9), (0, 9)],
            (0..10).chain(100..110).collect(),
        ),
        (
            "run past 65535",
            vec![(65530, 9)],
            (65530..=65535).collect(),
        ),
    ] {
        let mut c0 = container(k, &lows, RUN);
        c0.payload = run_payload(&runs);
        let card: u64 = runs.iter().map(|(_, l)| u64::from(*l) + 1).sum();
        c0.card = card;
        let mut h = header_of(&vals(&lows));
        h.card = card;
        cases.push((what, assemble(&[c0], &h)));
    }
    // Bitmap whose popcount is not its cardinality.
    let mut bm = container(k, &full, BITMAP);
    bm.payload[100] ^= 0x10;
    cases.push(("bitmap popcount", assemble(&[bm], &header_of(&vals(&full)))));
    // An empty container; a container kind 0.
    // (A cardinality is stored minus one, so a container that says it is
    // empty cannot be written; one with no payload can.)
    let mut empty = container(k, &[], ARRAY);
    empty.card = 1;
    let one = container(k + 1, &[5], ARRAY);
    let values = [(k << 16) | 5, ((k + 1) << 16) | 5];
    cases.push((
        "empty container",
        assemble(&[empty, one], &header_of(&values)),
    ));
    // Keys: out of order, duplicated.
    let a = container(k + 5, &[1, 9], ARRAY);
    let b = container(k, &[1, 9], ARRAY);
    let values = [(k << 16) | 1, ((k + 5) << 16) | 9];
    cases.push((
        "keys out of order",
        assemble(&[a.clone(), b], &header_of(&values)),
    ));
    let values = [(k << 16) | 1, (k << 16) | 9];
    let b = container(k, &[1, 9], ARRAY);
    cases.push((
        "duplicate keys",
        assemble(&[b.clone(), b], &header_of(&values)),
    ));
    // The empty set with a cardinality, a flag, or bytes after it.
    cases.push((
        "empty with cardinality",
        assemble(
            &[],
            &Header {
                card: 1,
                ..header_of(&[])
            },
        ),
    ));
    cases.push(("empty with a flag", b"SR64\x03\x01\x00".to_vec()));
    cases.push(("empty and a byte", b"SR64\x03\x00\x00\x00".to_vec()));
    // A gap between payloads: container 0 is 2 bytes longer than its values.
    let vals3 = [1u64, 9, 70000];
    let mut cs: Vec<Stored> = vec![
        container(u(1) >> 16, &[u(1) as u16, u(9) as u16], ARRAY),
        container(u(70000) >> 16, &[u(70000) as u16], ARRAY),
    ];
    let us: Vec<u64> = vals3.iter().map(|&x| u(x as i64)).collect();
    assert_eq!(assemble(&cs, &header_of(&us)), encode(&[1, 9, 70000]));
    cs[0].payload.extend_from_slice(&[0, 0]);
    cases.push(("gap between payloads", assemble(&cs, &header_of(&us))));
    // A field wider than it needs: the cardinality 3 in two bytes.
    let good = encode(&[1, 9, 70000]);
    let mut long = [&good[..7], &[3, 0], &good[8..]].concat();
    long[5] += 0x10;
    // The container count takes the cardinality's width too.
    long.insert(10, 0);
    cases.push(("wide field", long));
    // 130 one-value containers with a wrong count before the third block.
    let many: Vec<i64> = (0..130).map(|i| i << 16).collect();
    let mut b = encode(&many);
    let counts_at = b.len() - 2 * 130 - 2;
    assert_eq!(b[counts_at..counts_at + 2], [64, 128]);
    b[counts_at + 1] = 127;
    cases.push(("wrong block count", b));

    for (what, bytes) in cases {
        expect_invalid(&mut c, &bytes, what);
    }
}

/// Wrong portable data given to rb_from_portable is 22P03 as well.
#[test]
fn invalid_portable_is_22p03() {
    let mut c = connect();
    let good: Vec<u8> = c
        .query_one(
            "SELECT rb_to_portable('{1,2,3,70000,4294967296,-1}'::roaring64)",
            &[],
        )
        .unwrap()
        .get(0);
    let mut cases: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
    cases.push([good.as_slice(), &[0]].concat());
    cases.push(vec![0xff; 16]);
    cases.push(b"SR64\x03\0\0".to_vec());
    cases.push(b"SR64\x03\0\x01\x01\x00\x00\0\0".to_vec());
    for bad in cases {
        expect_code(
            &mut c,
            "22P03",
            "SELECT rb_from_portable($1::bytea)",
            &[&bad],
            &format!("{bad:?}"),
        );
    }
}

// ---------------------------------------------------------------------------
// Random bytes: never XX000, never a crash
// ---------------------------------------------------------------------------

fn mutate(base: &[u8], ops: &[(u16, u8, u8)]) -> Vec<u8> {
    let mut b = base.to_vec();
    for &(pos, op, val) in ops {
        let at = if b.is_empty() {
            0
        } else {
            usize::from(pos) % b.len()
        };
        match op % 5 {
            0 | 1 if !b.is_empty() => b[at] ^= val | 1,
            2 if !b.is_empty() => b[at] = val,
            3 => b.insert(at, val),
            4 if !b.is_empty() => b.truncate(at),
            _ => b.push(val),
        }
    }
    b
}

#[test]
fn random_bytes_never_give_xx000() {
    let mut c = connect();
    let bases: Vec<Vec<u8>> = good_values(&mut c).into_iter().map(|(_, b)| b).collect();
    let portables: Vec<Vec<u8>> = bases
        .iter()
        .map(|b| {
            c.query_one("SELECT rb_to_portable($1::bytea::roaring64)", &[b])
                .unwrap()
                .get(0)
        })
        .collect();
    let c = std::cell::RefCell::new(c);
    let strat = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        (
            0usize..bases.len(),
            any::<bool>(),
            prop::collection::vec(any::<(u16, u8, u8)>(), 1..6)
        )
            .prop_map(move |(i, portable, ops)| {
                mutate(if portable { &portables[i] } else { &bases[i] }, &ops)
            }),
        prop::collection::vec(any::<u8>(), 0..120).prop_map(|tail| {
            let mut b = b"SR64\x03\0".to_vec();
            b.extend(tail);
            b
        }),
        (1u64..4, prop::collection::vec(any::<u8>(), 0..120)).prop_map(|(n, tail)| {
            let mut b = n.to_le_bytes().to_vec();
            b.extend(tail);
            b
        }),
    ];
    let mut runner = TestRunner::new(Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&strat, |bytes| {
            let c = &mut *c.borrow_mut();
            for sql in [
                "SELECT rb_cardinality($1::bytea::roaring64), rb_to_array($1::bytea::roaring64)",
                "SELECT rb_cardinality(rb_from_portable($1::bytea)), rb_to_array(rb_from_portable($1::bytea))",
            ] {
                match c.query(sql, &[&bytes]) {
                    Ok(rows) => {
                        let n: i64 = rows[0].get(0);
                        let a: Vec<i64> = rows[0].get(1);
                        prop_assert_eq!(n, a.len() as i64);
                    }
                    Err(e) => {
                        let code = sqlstate(&e);
                        prop_assert!(code.is_some(), "{}: no SQLSTATE (server gone?): {}", sql, e);
                        prop_assert_ne!(code.as_deref(), Some("XX000"), "{}: {}", sql, e);
                    }
                }
                alive(c);
            }
            match c.query("SELECT rb_cardinality($1)", &[&Raw(bytes.clone())]) {
                Ok(_) => {}
                Err(e) => {
                    let code = sqlstate(&e);
                    prop_assert!(code.is_some(), "receive: no SQLSTATE (server gone?): {}", e);
                    prop_assert_ne!(code.as_deref(), Some("XX000"), "receive: {}", e);
                }
            }
            alive(c);
            Ok(())
        })
        .unwrap();
    // The server is still up for new connections too.
    alive(&mut connect());
}
