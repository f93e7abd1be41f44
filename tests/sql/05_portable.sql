-- The standard 64-bit portable format: fixed bytes for known sets (as CRoaring and
-- roaring-rs write them), round trips, and invalid input.
SELECT rb_to_portable('{}') AS empty, rb_to_portable('{5}') AS five;
-- -1 is the portable value 2^64 - 1: high bucket 0xffffffff, low 0xffff.
SELECT rb_to_portable('{-1}') AS minus_one;
-- {1,2,3}: CRoaring keeps an array here (sroar stores a run); the bytes follow CRoaring.
SELECT rb_to_portable('{1,2,3}') AS array_kept;
-- A long run is written as a run container (cookie 12347).
SELECT rb_to_portable(rb_from_range(0, 100000)) AS runs;
CREATE TABLE port_cases (id int, r roaring64);
INSERT INTO port_cases VALUES
  (1, '{}'), (2, '{0}'), (3, '{-9223372036854775808, -1, 0, 9223372036854775807}'),
  (4, rb_build(ARRAY(SELECT g * 65536 + (g % 5) FROM generate_series(-3000, 3000) g))),
  (5, rb_from_range(-100000, 100000)),
  (6, rb_build(ARRAY(SELECT g * 3 FROM generate_series(0, 100000) g))),
  (7, rb_build(ARRAY(SELECT g * 4294967296 FROM generate_series(-5, 5) g)));
SELECT id, rb_to_array(rb_from_portable(rb_to_portable(r))) = rb_to_array(r) AS round_trip,
       rb_from_portable(rb_to_portable(r))::bytea = r::bytea AS same_bytes
  FROM port_cases ORDER BY id;
-- Portable bytes are also accepted by binary input (COPY … FORMAT binary) and by the
-- migration path from pg_roaringbitmap: rb_from_portable(c::bytea).
SELECT rb_from_portable('\x010000000000000000000000' || '\x3a300000010000000000020010000000010002000300'::bytea) AS hand_written;
-- Invalid portable input: 22P03, saying what and where.
\set VERBOSITY default
SELECT rb_from_portable('\x01');
SELECT rb_from_portable('\x0100000000000000');
SELECT rb_from_portable('\x0000000000000000ff');
SELECT rb_from_portable('\x0100000000000000000000003a300000010000000000020010000000030002000100');
-- Buckets out of order (high key 1, then 0).
SELECT rb_from_portable('\x020000000000000001000000'::bytea || '\x3a3000000100000000000000100000000100'::bytea
                        || '\x00000000'::bytea || '\x3a3000000100000000000000100000000100'::bytea);

-- The standard 32-bit portable format: unsigned 32-bit values, byte for byte as
-- CRoaring writes them (the crate's tests compare with CRoaring and roaring-rs).
SELECT rb_to_portable32('{}') AS empty32, rb_to_portable32('{0,65536,4294967295}') AS edges32;
SELECT r, rb_from_portable32(rb_to_portable32(r)) = r AS round_trip
  FROM (VALUES ('{}'::roaring64), ('{0}'), ('{4294967295}'), ('{0,1,65535,65536,4294967295}'),
               (rb_from_range(0, 70000)), (rb_from_range(4294967296 - 70000, 4294967296))) t(r)
 WHERE rb_cardinality(r) < 10
UNION ALL
SELECT NULL, rb_from_portable32(rb_to_portable32(r)) = r
  FROM (VALUES (rb_from_range(0, 70000)), (rb_from_range(4294967296 - 70000, 4294967296)),
               (rb_build(ARRAY(SELECT hashint8(g) & 4294967295 FROM generate_series(1, 10000) g)))) t(r);
SELECT rb_to_portable32('{-1}');
SELECT rb_to_portable32('{4294967296}');
SELECT rb_from_portable32('\x3a30000001000000');
SELECT rb_from_portable32(rb_to_portable32('{1,2}') || '\x00'::bytea);
SELECT rb_from_portable32('\x');
