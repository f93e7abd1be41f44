//! `sroar.output_format` set the ways PostgreSQL users set any setting: per session,
//! per database, per role and for the whole server (README, "Settings").

use sroar_pg_client_tests::{connect_db, drop_db, fresh_db, sqlstate};

const DB: &str = "sroar_settings";

fn text_of_set(db: &str, user: &str) -> String {
    let url = sroar_pg_client_tests::conn_str(db).replace("user=postgres", &format!("user={user}"));
    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    c.query_one("SELECT '{1,2}'::roaring64::text", &[])
        .unwrap()
        .get(0)
}

#[test]
fn output_format_by_database_role_and_system() {
    let mut admin = fresh_db(DB);
    admin
        .batch_execute(
            "DROP ROLE IF EXISTS sroar_settings_user;
             CREATE ROLE sroar_settings_user LOGIN;",
        )
        .unwrap();
    assert_eq!(text_of_set(DB, "postgres"), "{1,2}");

    // ALTER DATABASE and ALTER ROLE take the setting before the library is loaded.
    let mut fresh = connect_db(DB);
    fresh
        .batch_execute(&format!(
            "ALTER DATABASE {DB} SET sroar.output_format = hex"
        ))
        .unwrap();
    assert!(
        text_of_set(DB, "postgres").starts_with("\\x"),
        "database setting"
    );
    fresh
        .batch_execute(&format!(
            "ALTER DATABASE {DB} RESET sroar.output_format;
             ALTER ROLE sroar_settings_user SET sroar.output_format = hex;"
        ))
        .unwrap();
    assert!(
        text_of_set(DB, "sroar_settings_user").starts_with("\\x"),
        "role setting"
    );
    assert_eq!(
        text_of_set(DB, "postgres"),
        "{1,2}",
        "other roles keep arrays"
    );

    // Before PostgreSQL 17, ALTER SYSTEM knows only the settings of loaded libraries,
    // so a session that has not used roaring64 yet gets 42704 and LOADs it first;
    // from 17 on it accepts the setting as it is.
    let mut fresh = connect_db(DB);
    let version: i32 = fresh
        .query_one("SELECT current_setting('server_version_num')::int", &[])
        .unwrap()
        .get(0);
    if version < 170000 {
        let e = fresh
            .batch_execute("ALTER SYSTEM SET sroar.output_format = hex")
            .unwrap_err();
        assert_eq!(sqlstate(&e).as_deref(), Some("42704"), "{e:?}");
    }
    fresh.batch_execute("LOAD 'sroar_pg'").unwrap();
    fresh
        .batch_execute("ALTER SYSTEM SET sroar.output_format = hex")
        .unwrap();
    let e = fresh
        .batch_execute("ALTER SYSTEM SET sroar.output_format = octal")
        .unwrap_err();
    assert_eq!(sqlstate(&e).as_deref(), Some("22023"), "{e:?}");
    fresh.batch_execute("SELECT pg_reload_conf()").unwrap();
    let mut seen = String::new();
    for _ in 0..50 {
        seen = text_of_set(DB, "postgres");
        if seen.starts_with("\\x") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    fresh
        .batch_execute("ALTER SYSTEM RESET sroar.output_format")
        .unwrap();
    fresh.batch_execute("SELECT pg_reload_conf()").unwrap();
    assert!(seen.starts_with("\\x"), "system setting: {seen}");

    drop(fresh);
    drop(admin);
    drop_db(DB);
    connect_db("postgres")
        .batch_execute("DROP ROLE sroar_settings_user")
        .unwrap();
}
