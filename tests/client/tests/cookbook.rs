//! The Rust recipe of docs/cookbook.md ("Send sets from a client"), as written there:
//! tests/cookbook/run.py checks that the book's block is this file's text, and this
//! test runs it against the server.

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;
use postgres::Client;
use sroar::Roaring;
use sroar_pg_client_tests::{drop_db, fresh_db};

/// Loads (id, members) rows into `audiences` by one binary COPY.
fn load_audiences(
    client: &mut Client,
    rows: &[(i64, Vec<i64>)],
) -> Result<u64, Box<dyn std::error::Error>> {
    // A binary COPY names its columns' types: roaring64's comes from the server.
    let roaring64 = client.prepare("SELECT $1::roaring64")?.params()[0].clone();
    let sink = client.copy_in("COPY audiences (id, members) FROM STDIN (FORMAT binary)")?;
    let mut writer = BinaryCopyInWriter::new(sink, &[Type::INT8, roaring64]);
    for (id, members) in rows {
        let set = Roaring::from_signed(members.iter().copied())?;
        writer.write(&[id, &set])?;
    }
    Ok(writer.finish()?)
}

#[test]
fn the_rust_recipe_loads_sets_by_binary_copy() {
    let mut client = fresh_db("sroar_cookbook_rust");
    client
        .batch_execute("CREATE TABLE audiences (id int8 PRIMARY KEY, members roaring64 NOT NULL)")
        .unwrap();
    let rows: Vec<(i64, Vec<i64>)> = vec![
        (
            1,
            vec![3, -1, i64::MIN, i64::MAX, 0, 1 << 16, 1 << 32, 1 << 48, 3],
        ),
        (2, vec![]),
        (3, (-50_000..150_000).collect()),
    ];
    assert_eq!(load_audiences(&mut client, &rows).unwrap(), 3);
    for (id, members) in &rows {
        let mut want = members.clone();
        want.sort_unstable();
        want.dedup();
        let got: Vec<i64> = client
            .query_one(
                "SELECT rb_to_array(members) FROM audiences WHERE id = $1",
                &[id],
            )
            .unwrap()
            .get(0);
        assert_eq!(got, want, "audience {id}");
    }
    drop(client);
    drop_db("sroar_cookbook_rust");
}
