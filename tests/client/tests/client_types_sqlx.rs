//! sroar's client types through sqlx (feature `sqlx`): results in binary (prepared)
//! and in text (`raw_sql`), parameters, NULL, and bad bytes refused.

use sqlx::postgres::PgPoolOptions;
use sqlx::{PgPool, Row};
use sroar::{Roaring, RoaringView};
use sroar_pg_client_tests::{array_text, connect, copy_binary, parse_copy_binary};

async fn pool() -> PgPool {
    // Creates the extension once, on a thread of its own: the `postgres` crate
    // blocks on a runtime of its own.
    std::thread::spawn(|| drop(connect())).join().unwrap();
    let url = format!(
        "postgres://postgres@127.0.0.1:{}/postgres",
        sroar_pg_client_tests::port()
    );
    PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to {url}: {e}"))
}

fn edge_values() -> Vec<Vec<i64>> {
    vec![
        vec![],
        vec![i64::MIN, -1, 0, 1, i64::MAX],
        vec![65536, 1 << 32, 1 << 48],
        ((1 << 32) - 70_000..(1 << 32) + 70_000).collect(),
    ]
}

#[tokio::test(flavor = "current_thread")]
async fn binary_and_text_results_and_parameters() {
    let pool = pool().await;
    for values in edge_values() {
        let text = array_text(&values);
        // Prepared: binary results, read in place.
        let row = sqlx::query("SELECT $1::text::roaring64")
            .bind(&text)
            .fetch_one(&pool)
            .await
            .unwrap();
        let view: RoaringView = row.get(0);
        assert_eq!(view.iter_signed().collect::<Vec<_>>(), values);
        let owned: Roaring = row.get(0);
        assert_eq!(owned.view(), view);

        // As a parameter, owned and borrowed.
        let back: String = sqlx::query_scalar("SELECT $1::text")
            .bind(&owned)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(back, text);
        let same: bool = sqlx::query_scalar("SELECT $1 = $2::text::roaring64")
            .bind(view)
            .bind(&text)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert!(same);

        // Text results (no parameters, simple protocol): Roaring parses them.
        for format in ["array", "hex"] {
            let sql = format!("SET sroar.output_format = '{format}'; SELECT '{text}'::roaring64");
            let rows = sqlx::raw_sql(&sql).fetch_all(&pool).await.unwrap();
            let from_text: Roaring = rows[0].get(0);
            assert_eq!(from_text, owned, "{format}");
            assert!(rows[0].try_get::<RoaringView, _>(0).is_err());
        }
        sqlx::raw_sql("RESET sroar.output_format")
            .execute(&pool)
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "current_thread")]
async fn null_signed_order_and_bad_bytes() {
    let pool = pool().await;
    let none: Option<Roaring> = sqlx::query_scalar("SELECT NULL::roaring64")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(none, None);

    let set: Roaring = sqlx::query_scalar("SELECT '{3,-1}'::roaring64")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(set.view().contains_signed(-1));
    assert_eq!(set.view().iter_signed().collect::<Vec<_>>(), [-1, 3]);

    // The server refuses a truncated value with 22P03.
    let bytes = Roaring::from_signed([1, 1 << 40]).unwrap().into_bytes();
    let err = sqlx::query("SELECT $1::roaring64")
        .bind(&bytes[..bytes.len() - 1])
        .fetch_one(&pool)
        .await
        .unwrap_err();
    let code = err.as_database_error().and_then(|e| e.code()).unwrap();
    assert_eq!(code, "22P03", "{err}");
}

#[tokio::test(flavor = "current_thread")]
async fn binary_copy_in_and_out() {
    let pool = pool().await;
    let mut conn = pool.acquire().await.unwrap();
    sqlx::raw_sql("DROP TABLE IF EXISTS sqlx_copy; CREATE TABLE sqlx_copy (s roaring64)")
        .execute(&mut *conn)
        .await
        .unwrap();
    let sets: Vec<Roaring> = edge_values()
        .into_iter()
        .map(|v| Roaring::from_signed(v).unwrap())
        .collect();
    // sqlx's COPY takes and gives the raw stream: a Roaring's bytes are its fields.
    let fields: Vec<&[u8]> = sets.iter().map(|s| s.as_bytes()).collect();
    let mut copy = conn
        .copy_in_raw("COPY sqlx_copy FROM STDIN (FORMAT binary)")
        .await
        .unwrap();
    copy.send(copy_binary(&fields)).await.unwrap();
    assert_eq!(copy.finish().await.unwrap(), sets.len() as u64);

    let mut out = Vec::new();
    {
        use futures_util::TryStreamExt;
        let mut stream = conn
            .copy_out_raw("COPY sqlx_copy TO STDOUT (FORMAT binary)")
            .await
            .unwrap();
        while let Some(chunk) = stream.try_next().await.unwrap() {
            out.extend_from_slice(&chunk);
        }
    }
    let back: Vec<Roaring> = parse_copy_binary(&out)
        .into_iter()
        .map(|f| Roaring::from_bytes(f).unwrap())
        .collect();
    assert_eq!(back, sets);
    // And the server read each as the same set.
    let texts: Vec<String> = sqlx::query_scalar("SELECT s::text FROM sqlx_copy")
        .fetch_all(&mut *conn)
        .await
        .unwrap();
    let want: Vec<String> = edge_values().iter().map(array_text).collect();
    assert_eq!(texts, want);
    sqlx::raw_sql("DROP TABLE sqlx_copy")
        .execute(&mut *conn)
        .await
        .unwrap();
}
