//! sroar_pg is a trusted extension: a role without superuser that owns a database
//! installs it there (as on managed PostgreSQL services), into a schema of its own
//! too, and uses every part of it; what such a role cannot do stays refused.

use sroar_pg_client_tests::{conn_str, connect_db, drop_db, sqlstate};

const DB: &str = "sroar_trusted";
const ROLE: &str = "sroar_app_owner";

#[test]
fn a_database_owner_without_superuser_installs_and_uses_it() {
    let mut admin = connect_db("postgres");
    drop_db(DB);
    admin
        .batch_execute(&format!(
            "DROP ROLE IF EXISTS {ROLE};
             CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;"
        ))
        .unwrap();
    admin
        .batch_execute(&format!(
            "CREATE DATABASE {DB} OWNER {ROLE} TEMPLATE template0"
        ))
        .unwrap();
    let url = conn_str(DB).replace("user=postgres", &format!("user={ROLE}"));
    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let is_super: bool = c
        .query_one(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(!is_super);
    c.batch_execute("CREATE SCHEMA s; CREATE EXTENSION sroar_pg SCHEMA s")
        .unwrap();
    c.batch_execute(
        "SET search_path = '';
         CREATE TABLE public.posting (id int, ids s.roaring64);
         INSERT INTO public.posting
           SELECT g, s.rb_build(ARRAY[g, g * 2, 9223372036854775807]) FROM pg_catalog.generate_series(1, 1000) g;
         CREATE INDEX ON public.posting USING gin (ids);
         CREATE INDEX ON public.posting (ids);",
    )
    .unwrap();
    let row = c
        .query_one(
            "SELECT s.rb_cardinality(s.rb_or_agg(ids)), s.rb_or_cardinality_agg(ids),
                    (SELECT pg_catalog.count(*) FROM public.posting WHERE ids OPERATOR(s.@>) 2000::int8),
                    s.rb_to_array(s.rb_and(VARIADIC pg_catalog.array_agg(ids)))::text
             FROM public.posting",
            &[],
        )
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1 + 1000 + 500);
    assert_eq!(row.get::<_, i64>(1), 1 + 1000 + 500);
    assert_eq!(row.get::<_, i64>(2), 1);
    assert_eq!(row.get::<_, String>(3), "{9223372036854775807}");
    // Settings a role may change, it changes; what needs superuser stays refused.
    c.batch_execute("SET sroar.output_format = hex").unwrap();
    let e = c.batch_execute("LOAD 'sroar_pg'").unwrap_err();
    assert_eq!(sqlstate(&e).as_deref(), Some("42501"), "{e:?}");
    c.batch_execute("DROP EXTENSION sroar_pg CASCADE").unwrap();
    drop(c);
    drop_db(DB);
    admin.batch_execute(&format!("DROP ROLE {ROLE}")).unwrap();
}
