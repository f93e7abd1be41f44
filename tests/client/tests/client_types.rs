//! sroar's client types through the `postgres` crate (feature `postgres-types`):
//! `RoaringView` borrowed from a row and `Roaring` owned, as results, parameters and
//! binary COPY in and out, against the server's own reading of the same sets.

use postgres::binary_copy::{BinaryCopyInWriter, BinaryCopyOutIter};
use postgres::types::{FromSql, Type};
use sroar::{Roaring, RoaringView};
use sroar_pg_client_tests::{array_text, connect, sqlstate};

/// Sets with the values at the edges: each as signed values, ascending.
fn edge_sets() -> Vec<Vec<i64>> {
    let mut sets = vec![
        vec![],
        vec![0],
        vec![i64::MIN],
        vec![i64::MAX],
        vec![i64::MIN, -1, 0, 1, i64::MAX],
        vec![65535, 65536, 1 << 32, (1 << 32) + 1, (1 << 48) - 1, 1 << 48],
        vec![-(1 << 48), -(1 << 32), -65536, -1],
    ];
    // A long run across a container edge and a full container.
    sets.push(((1 << 32) - 70_000..(1 << 32) + 70_000).collect());
    sets.push((0..65536).chain(1 << 48..(1 << 48) + 3).collect());
    sets
}

#[test]
fn results_read_in_place_and_parameters_round_trip() {
    let mut client = connect();
    for values in edge_sets() {
        let text = array_text(&values);
        let row = client
            .query_one("SELECT $1::text::roaring64", &[&text])
            .unwrap();
        let view: RoaringView = row.get(0);
        assert_eq!(view.iter_signed().collect::<Vec<_>>(), values, "{text}");
        assert_eq!(view.len(), values.len() as u64);
        assert_eq!(view.min_signed(), values.first().copied());
        assert_eq!(view.max_signed(), values.last().copied());
        let owned: Roaring = row.get(0);
        assert_eq!(owned.view(), view);

        // Back as a parameter, owned and borrowed: the server reads the same set.
        let built = Roaring::from_signed(values.iter().copied()).unwrap();
        let back: String = client
            .query_one("SELECT $1::roaring64::text", &[&built])
            .unwrap()
            .get(0);
        assert_eq!(back, text);
        let same: bool = client
            .query_one(
                "SELECT $1::roaring64 = $2::text::roaring64",
                &[&view, &text],
            )
            .unwrap()
            .get(0);
        assert!(same, "{text}");
    }
}

#[test]
fn signed_order_and_negative_members() {
    let mut client = connect();
    let row = client
        .query_one("SELECT '{-1, 5, -9223372036854775808, 0}'::roaring64", &[])
        .unwrap();
    let view: RoaringView = row.get(0);
    assert!(view.contains_signed(-1));
    assert!(!view.contains_signed(1));
    assert_eq!(view.iter_signed().collect::<Vec<_>>(), [i64::MIN, -1, 0, 5]);
    assert_eq!(view.rank_signed(-1), 2);
    assert_eq!(view.select_signed(2), Some(0));
    // The server's rank agrees with the client's on both sides of zero.
    for x in [i64::MIN, -2, -1, 0, 4, 5, i64::MAX] {
        let server: i64 = client
            .query_one("SELECT rb_rank($1::roaring64, $2)", &[&view, &x])
            .unwrap()
            .get(0);
        assert_eq!(server as u64, view.rank_signed(x), "rank of {x}");
    }
}

#[test]
fn null_is_none_and_state_type_is_accepted() {
    let mut client = connect();
    let row = client
        .query_one(
            "SELECT NULL::roaring64, rb_build_agg(x)::roaring64 FROM (VALUES (3::int8), (-4)) v(x)",
            &[],
        )
        .unwrap();
    assert_eq!(row.get::<_, Option<RoaringView>>(0), None);
    let set: Option<Roaring> = row.get(1);
    assert_eq!(
        set.unwrap().view().iter_signed().collect::<Vec<_>>(),
        [-4, 3]
    );
    // roaring64_state is sent as the same bytes.
    let row = client
        .query_one("SELECT '{1,2}'::roaring64_state", &[])
        .unwrap();
    let state: RoaringView = row.get(0);
    assert_eq!(state.len(), 2);
}

#[test]
fn a_bad_value_is_refused_by_the_client_and_by_the_server() {
    let mut client = connect();
    let roaring64 = Type::new(
        "roaring64".into(),
        0,
        postgres::types::Kind::Simple,
        "public".into(),
    );
    // Every truncation and every single-byte change of a few sets' bytes: the client
    // types refuse them with the reason, or read a valid set (never panic).
    for values in edge_sets().iter().take(7) {
        let good = Roaring::from_signed(values.iter().copied()).unwrap();
        let bytes = good.as_bytes();
        let mut mutants: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut m = bytes.to_vec();
                m[i] ^= flip;
                mutants.push(m);
            }
        }
        for m in &mutants {
            match <RoaringView as FromSql>::from_sql(&roaring64, m) {
                Ok(view) => assert_eq!(view.iter().count() as u64, view.len()),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
            if let Err(e) = <Roaring as FromSql>::from_sql(&roaring64, m) {
                assert!(!e.to_string().is_empty());
            }
        }
    }
    let truncated = Roaring::from_signed([1, 1 << 40]).unwrap().into_bytes();
    let err = <RoaringView as FromSql>::from_sql(&roaring64, &truncated[..truncated.len() - 1])
        .unwrap_err();
    assert!(err.to_string().contains("byte"), "{err}");

    // The server refuses the same bytes sent as a parameter, with 22P03.
    let raw = sroar_pg_client_tests::Raw(truncated[..truncated.len() - 1].to_vec());
    let err = client
        .query_one("SELECT $1::roaring64", &[&raw])
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("22P03"), "{err:?}");
    // And a column of another type is not read as a set at all.
    let row = client.query_one("SELECT '\\x0102'::bytea", &[]).unwrap();
    assert!(row.try_get::<_, RoaringView>(0).is_err());
}

#[test]
fn binary_copy_in_and_out() {
    let mut client = connect();
    client
        .batch_execute("DROP TABLE IF EXISTS client_types_copy; CREATE TABLE client_types_copy (id int8, s roaring64)")
        .unwrap();
    let roaring64 = client
        .query_one("SELECT 'roaring64'::regtype::oid", &[])
        .unwrap()
        .get::<_, u32>(0);
    let set_type = Type::new(
        "roaring64".into(),
        roaring64,
        postgres::types::Kind::Simple,
        "public".into(),
    );
    let sets = edge_sets();
    let owned: Vec<Roaring> = sets
        .iter()
        .map(|v| Roaring::from_signed(v.iter().copied()).unwrap())
        .collect();
    let sink = client
        .copy_in("COPY client_types_copy FROM STDIN (FORMAT binary)")
        .unwrap();
    let mut writer = BinaryCopyInWriter::new(sink, &[Type::INT8, set_type.clone()]);
    for (i, set) in owned.iter().enumerate() {
        if i % 2 == 0 {
            writer.write(&[&(i as i64), set]).unwrap();
        } else {
            writer.write(&[&(i as i64), &set.view()]).unwrap();
        }
    }
    writer.finish().unwrap();

    // What the server stored, as text, is each set.
    for (i, values) in sets.iter().enumerate() {
        let text: String = client
            .query_one(
                "SELECT s::text FROM client_types_copy WHERE id = $1",
                &[&(i as i64)],
            )
            .unwrap()
            .get(0);
        assert_eq!(text, array_text(values));
    }

    let source = client
        .copy_out(
            "COPY (SELECT id, s FROM client_types_copy ORDER BY id) TO STDOUT (FORMAT binary)",
        )
        .unwrap();
    let rows = BinaryCopyOutIter::new(source, &[Type::INT8, set_type]);
    let mut n = 0;
    for row in postgres::fallible_iterator::FallibleIterator::iterator(rows) {
        let row = row.unwrap();
        let id: i64 = row.get(0);
        let view: RoaringView = row.get(1);
        assert_eq!(view, owned[id as usize].view());
        n += 1;
    }
    assert_eq!(n, sets.len());
    client
        .batch_execute("DROP TABLE client_types_copy")
        .unwrap();
}

/// The README's Rust example ("From applications"), as written there (the cookbook
/// checker finds its text here), on a `users` table made for it. Not formatted, so
/// that it stays the README's text.
#[rustfmt::skip]
fn readme_example(client: &mut postgres::Client) -> Result<(), Box<dyn std::error::Error>> {
    let row = client.query_one("SELECT followers FROM users WHERE id = $1", &[&42_i64])?;
    let followers: sroar::RoaringView = row.get(0); // the row's bytes, validated
    let new = sroar::Roaring::from_signed([7, -1])?;
    println!("{} followers, {} new", followers.len(), followers.and_len(&new.view()));
    client.execute("UPDATE users SET followers = followers | $1 WHERE id = 42", &[&new])?;
    Ok(())
}

#[test]
fn the_readme_example_runs() {
    let mut client = sroar_pg_client_tests::fresh_db("sroar_readme_rust");
    client
        .batch_execute(
            "CREATE TABLE users (id int8 PRIMARY KEY, followers roaring64 NOT NULL);
             INSERT INTO users VALUES (42, '{1,2,3,-1}')",
        )
        .unwrap();
    readme_example(&mut client).unwrap();
    let after: String = client
        .query_one("SELECT followers::text FROM users WHERE id = 42", &[])
        .unwrap()
        .get(0);
    assert_eq!(after, "{-1,1,2,3,7}");
    drop(client);
    sroar_pg_client_tests::drop_db("sroar_readme_rust");
}
