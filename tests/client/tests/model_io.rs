//! Property tests against the set model: Input and output paths, and the output setting's spellings (as tests/sql/01_io).
//! `set_model` holds the model and the generators.

mod set_model;

use set_model::*;

/// int8[] parameters, casts, text literals, binary parameters (native and portable),
/// bytea casts, both text output formats and the portable format all agree.
#[test]
fn input_and_output_paths_agree() {
    run("io", (set(), any::<u64>()), |c, (a, seed)| {
        let v = vec_of(&a);
        let native = build(c, &a);

        let row = c
            .query_one(
                "SELECT ($1::int8[])::roaring64::bytea, ($2::text)::roaring64::bytea,
                        roaring64_from_bytea($3::bytea)::bytea, ($3::bytea)::roaring64::bytea",
                &[&v, &noisy_text(&a, seed), &native.0],
            )
            .unwrap();
        for i in 0..4 {
            assert_eq!(row.get::<_, Vec<u8>>(i), native.0, "column {i} for {a:?}");
        }

        // Binary parameter in, binary and array results out.
        let row = c
            .query_one(
                "SELECT $1::roaring64, ($1::roaring64)::bytea, rb_to_array($1), ($1::roaring64)::int8[],
                        ($1::roaring64)::text, rb_is_empty($1)",
                &[&native],
            )
            .unwrap();
        assert_eq!(row.get::<_, Raw>(0), native, "binary send");
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0);
        assert_eq!(row.get::<_, Vec<i64>>(2), v);
        assert_eq!(row.get::<_, Vec<i64>>(3), v);
        assert_eq!(row.get::<_, String>(4), array_text(&a));
        assert_eq!(row.get::<_, bool>(5), a.is_empty());

        // int4[] cast, for the elements that are int4 values.
        let small: Vec<i32> = a.iter().filter_map(|&x| i32::try_from(x).ok()).collect();
        let small_set: Set = small.iter().map(|&x| i64::from(x)).collect();
        let row = c
            .query_one(
                "SELECT ($1::int4[])::roaring64::bytea, roaring64_from_int4_array($1::int4[])::bytea",
                &[&small],
            )
            .unwrap();
        let expect = build(c, &small_set);
        assert_eq!(Raw(row.get(0)), expect, "int4[] cast");
        assert_eq!(Raw(row.get(1)), expect, "roaring64_from_int4_array");

        // Hex text output, and reading it back, in the same session.
        c.batch_execute("SET sroar.output_format = 'hex'").unwrap();
        let row = c
            .query_one(
                "SELECT ($1::roaring64)::text, (($1::roaring64)::text)::roaring64::bytea,
                        rb_to_array($1)",
                &[&native],
            )
            .unwrap();
        c.batch_execute("RESET sroar.output_format").unwrap();
        assert_eq!(row.get::<_, String>(0), format!("\\x{}", hex(&native.0)));
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0);
        assert_eq!(row.get::<_, Vec<i64>>(2), v);
        // Array text output read back.
        let back: Vec<u8> = c
            .query_one(
                "SELECT (($1::roaring64)::text)::roaring64::bytea",
                &[&native],
            )
            .unwrap()
            .get(0);
        assert_eq!(back, native.0);

        // The portable format: checked by an independent reader and writer.
        let row = c
            .query_one(
                "SELECT rb_to_portable($1), rb_from_portable(rb_to_portable($1))::bytea",
                &[&native],
            )
            .unwrap();
        let portable: Vec<u8> = row.get(0);
        assert_eq!(row.get::<_, Vec<u8>>(1), native.0, "portable round trip");
        let tm = RoaringTreemap::deserialize_from(&portable[..]).expect("roaring-rs reads it");
        assert_eq!(
            tm.iter().map(|x| x as i64).collect::<Set>(),
            a,
            "portable value v is the int8 with the same bits"
        );
        // roaring-rs bytes, plain (array and bitmap containers) and run-optimized.
        let mut theirs: RoaringTreemap = a.iter().map(|&x| x as u64).collect();
        for optimized in [false, true] {
            if optimized {
                theirs.optimize();
            }
            let mut theirs_bytes = Vec::new();
            theirs.serialize_into(&mut theirs_bytes).unwrap();
            let row = c
                .query_one(
                    "SELECT rb_from_portable($1::bytea)::bytea, ($2::roaring64)::bytea",
                    &[&theirs_bytes, &Raw(theirs_bytes.clone())],
                )
                .unwrap();
            assert_eq!(
                row.get::<_, Vec<u8>>(0),
                native.0,
                "rb_from_portable(roaring-rs, optimized: {optimized})"
            );
            assert_eq!(
                row.get::<_, Vec<u8>>(1),
                native.0,
                "binary input in the portable format (optimized: {optimized})"
            );
            if optimized {
                // FORMAT.md: the portable output is byte-identical to theirs.
                assert_eq!(
                    portable, theirs_bytes,
                    "rb_to_portable = roaring-rs optimized bytes"
                );
            }
        }
    });
}

/// The setting's values are spelled as documented (`array`, `hex`), as SHOW and
/// pg_settings report them.
#[test]
fn output_format_values_are_spelled_array_and_hex() {
    let mut c = connect();
    // Load the library so that the setting is defined.
    c.batch_execute("SELECT sroar_version()").unwrap();
    let show = |c: &mut Client| -> String {
        c.query_one("SELECT current_setting('sroar.output_format')", &[])
            .unwrap()
            .get(0)
    };
    assert_eq!(show(&mut c), "array");
    c.batch_execute("SET sroar.output_format = hex").unwrap();
    assert_eq!(show(&mut c), "hex");
    c.batch_execute("RESET sroar.output_format").unwrap();
    let vals: Vec<String> = c
        .query_one(
            "SELECT enumvals FROM pg_settings WHERE name = 'sroar.output_format'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(vals, ["array", "hex"]);
}
