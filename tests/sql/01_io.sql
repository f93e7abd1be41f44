-- Text and binary I/O of roaring64, the casts, and every input error with its SQLSTATE.
\set VERBOSITY terse

-- Text input: any order, duplicates and whitespace; output ascending in int8 order.
SELECT '{3,1,2,2}'::roaring64 AS any_order,
       '  {  }  '::roaring64 AS empty,
       '{ 7 , -7 }'::roaring64 AS whitespace;
-- Edges: int8 min and max, 0, and values around 2^16, 2^32 and 2^48 on both signs.
SELECT '{9223372036854775807, -9223372036854775808, 0, -1, 1,
         65535, 65536, 65537, -65536, -65537,
         4294967295, 4294967296, -4294967296,
         281474976710655, 281474976710656, -281474976710656}'::roaring64 AS edges;

-- Text output round-trips in both output formats.
CREATE TABLE io_cases (id int, r roaring64);
INSERT INTO io_cases VALUES
  (1, '{}'), (2, '{0}'), (3, '{-9223372036854775808, 9223372036854775807}'),
  (4, rb_build(ARRAY(SELECT g FROM generate_series(1, 70000) g))),
  (5, rb_build(ARRAY(SELECT g * 65536 - 3 FROM generate_series(-2000, 2000) g))),
  (6, rb_build(ARRAY(SELECT g * 7 FROM generate_series(0, 20000) g)));
SELECT id, r::text::roaring64::text = r::text AS text_round_trip,
       rb_to_array(r::text::roaring64) = rb_to_array(r) AS array_round_trip
  FROM io_cases ORDER BY id;
SET sroar.output_format = hex;
SELECT '{1,2}'::roaring64 AS hex_form;
SELECT id, rb_to_array(r::text::roaring64) = rb_to_array(r) AS hex_round_trip,
       left(r::text, 10) AS starts
  FROM io_cases ORDER BY id;
RESET sroar.output_format;
SET sroar.output_format = 'octal';

-- Casts: int8[], int4[] and bytea.
SELECT ARRAY[5, 3, 5]::int8[]::roaring64 AS from_int8, ARRAY[-1, 2]::int4[]::roaring64 AS from_int4;
SELECT '{5,-3}'::roaring64::int8[] AS to_int8_array;
SELECT rb_to_array(r::bytea::roaring64) = rb_to_array(r) AS bytea_round_trip FROM io_cases ORDER BY id;
SELECT '{}'::roaring64::bytea AS empty_bytes;

-- Errors: malformed text (22P02, with the position), out of range (22003), NULL
-- element (22004), invalid native bytes in hex text or bytea (22P03).
\set VERBOSITY default
SELECT ''::roaring64;
SELECT '1,2'::roaring64;
SELECT '{1,,2}'::roaring64;
SELECT '{1 2}'::roaring64;
SELECT '{1,2'::roaring64;
SELECT '{1} 2'::roaring64;
SELECT '{1.5}'::roaring64;
SELECT '{9223372036854775808}'::roaring64;
SELECT '{-9223372036854775809}'::roaring64;
-- A NULL element has one wording on every way in, naming its place.
SELECT ARRAY[1, NULL]::int8[]::roaring64;
SELECT rb_build(ARRAY[NULL]::int8[]);
SELECT '{NULL}'::roaring64;
SELECT '{1, null}'::roaring64;
SELECT ARRAY[1, 2, NULL]::int4[]::roaring64;
SELECT rb_add('{1}', ARRAY[2, NULL]::int8[]);
SELECT rb_remove('{1}', ARRAY[NULL]::int8[]);
SELECT '\x1'::roaring64;
SELECT '\xzz'::roaring64;
SELECT '\x53523634'::roaring64;
SELECT '\x00000000000000000000000000000000000000000000000000000000000000000000000000000000'::roaring64;
-- Bytes of format version 1 (the 40-byte empty set of earlier builds) name their version.
SELECT '\x53523634010000000000000028000000000000000000000000000000000000000000000000000000'::bytea::roaring64;
-- The canonical empty set is 7 bytes: magic, version 3, flags 0, cardinality 0.
SELECT '\x53523634030000'::bytea::roaring64 AS canonical_empty;
SELECT '{1,2,3}'::roaring64::bytea AS small_bytes;
-- Non-canonical buffers are rejected: the empty set with a flag, or a byte after it.
SELECT '\x53523634030100'::bytea::roaring64;
SELECT '\x5352363403000000'::bytea::roaring64;
-- The bytea cast reads what binary input reads: native bytes or the standard 64-bit
-- portable format (here {1, 2, 70000} as CRoaring writes it), and bytes of neither
-- format say so.
SELECT '\x0100000000000000000000003a300000020000000000010001000000180000001c000000010002007011'::bytea::roaring64 AS from_portable;
SELECT '\x0100000000000000000000003a300000020000000000010001000000180000001c000000010002007011'::bytea::roaring64
     = rb_from_portable('\x0100000000000000000000003a300000020000000000010001000000180000001c000000010002007011') AS same_as_rb_from_portable;
SELECT '\x68656c6c6f'::bytea::roaring64;

-- NULL in, NULL out.
SELECT rb_build(NULL) IS NULL AS build_null, rb_to_array(NULL) IS NULL AS to_array_null;
