-- sroar_pg: the whole public SQL surface of the extension, in one file.
--
-- Every object users can see is declared here by hand, so this file is the index of
-- the extension (as contrib/intarray's install script is). The C symbols named below
-- are the Rust functions in src/, exported by pgrx as `<name>_wrapper`.

-- STABLE, not IMMUTABLE: it reports the library loaded now, which an upgrade changes.
CREATE FUNCTION sroar_version() RETURNS text
    AS 'MODULE_PATHNAME', 'sroar_version_wrapper'
    LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION sroar_version() IS
    'the version of sroar_pg and of the serialized roaring64 format it reads and writes';

-- ---------------------------------------------------------------------------
-- The type
-- ---------------------------------------------------------------------------
-- A roaring64 value is a set of int8 values. Its stored bytes are the sroar buffer
-- (crates/sroar/FORMAT.md) and every function reads them in place.
--
-- STORAGE = external: large values are moved out of line but not compressed, so
-- functions that need only the header (rb_cardinality, rb_min, ...) fetch only the
-- first TOAST chunk. Roaring containers are already compact; pglz gains little on them.
CREATE TYPE roaring64;

CREATE FUNCTION roaring64_in(cstring) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'roaring64_in_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
-- STABLE, not IMMUTABLE: the text depends on the setting sroar.output_format (as
-- timestamptz_out depends on DateStyle), so an expression index on r::text, whose
-- rows would change with the setting, is refused.
CREATE FUNCTION roaring64_out(roaring64) RETURNS cstring
    AS 'MODULE_PATHNAME', 'roaring64_out_wrapper'
    LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_recv(internal) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'roaring64_recv_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_send(roaring64) RETURNS bytea
    AS 'MODULE_PATHNAME', 'roaring64_send_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- ANALYZE: the standard statistics (for =, < and the like) and element statistics
-- as int8[] columns get them (pg_stats.most_common_elems, elem_count_histogram).
CREATE FUNCTION roaring64_typanalyze(internal) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_typanalyze_wrapper'
    LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE TYPE roaring64 (
    INPUT = roaring64_in,
    OUTPUT = roaring64_out,
    RECEIVE = roaring64_recv,
    SEND = roaring64_send,
    ANALYZE = roaring64_typanalyze,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE roaring64 IS
    'a set of int8 values stored as a 64-bit roaring bitmap whose bytes are the bitmap';

-- Restriction estimates from the element statistics ANALYZE stores (see
-- roaring64_typanalyze), for the column on either side.
CREATE FUNCTION roaring64_contains_sel(internal, oid, internal, int4) RETURNS float8
    AS 'MODULE_PATHNAME', 'roaring64_contains_sel_wrapper' LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_contained_sel(internal, oid, internal, int4) RETURNS float8
    AS 'MODULE_PATHNAME', 'roaring64_contained_sel_wrapper' LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_overlap_sel(internal, oid, internal, int4) RETURNS float8
    AS 'MODULE_PATHNAME', 'roaring64_overlap_sel_wrapper' LANGUAGE C STRICT STABLE PARALLEL SAFE;
-- Joins of an int8 column with a set column (o.user_id <@ a.members): the set
-- column's average size over the int8 column's distinct values.
CREATE FUNCTION roaring64_contains_joinsel(internal, oid, internal, int2, internal) RETURNS float8
    AS 'MODULE_PATHNAME', 'roaring64_contains_joinsel_wrapper' LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_contained_joinsel(internal, oid, internal, int2, internal) RETURNS float8
    AS 'MODULE_PATHNAME', 'roaring64_contained_joinsel_wrapper' LANGUAGE C STRICT STABLE PARALLEL SAFE;

-- Planner support of the functions behind @>, <@ and &&: their function forms
-- (rb_contains(col, 42)) are estimated as the operators are and use the same GIN
-- index, an int8 column with a btree index, filtered by a set (id <@ s, s @> id),
-- is searched as id = ANY(rb_to_array(s)), and a call on a column costs by the
-- column's average set size (COST 2, measured on small sets, where it has none).
CREATE FUNCTION rb_contains_int8_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_contains_int8_support_wrapper' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_int8_contained_by_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'roaring64_int8_contained_by_support_wrapper' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_contains_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_contains_support_wrapper' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_contained_by_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'roaring64_contained_by_support_wrapper' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_intersects_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_intersects_support_wrapper' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- ---------------------------------------------------------------------------
-- Building and reading back
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_build(int8[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_build_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_build(int8[]) IS 'the set of the array''s elements (any order, duplicates allowed)';

CREATE FUNCTION rb_to_array(roaring64) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_to_array_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_to_array(roaring64) IS 'the elements in ascending int8 order';

CREATE FUNCTION roaring64_from_bytea(bytea) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'roaring64_from_bytea_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_from_int4_array(int4[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_build_int4_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE CAST (int8[] AS roaring64) WITH FUNCTION rb_build(int8[]);
CREATE CAST (int4[] AS roaring64) WITH FUNCTION roaring64_from_int4_array(int4[]);
CREATE CAST (roaring64 AS int8[]) WITH FUNCTION rb_to_array(roaring64);
-- bytea → roaring64 validates; roaring64 → bytea is the stored bytes as they are.
CREATE CAST (bytea AS roaring64) WITH FUNCTION roaring64_from_bytea(bytea);
CREATE CAST (roaring64 AS bytea) WITHOUT FUNCTION;

-- ---------------------------------------------------------------------------
-- One set: answered from the header (only the first TOAST chunk is read)
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_cardinality(roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_cardinality(roaring64) IS 'the number of elements';

CREATE FUNCTION rb_is_empty(roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_is_empty_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_is_empty(roaring64) IS 'whether the set has no element';

CREATE FUNCTION rb_min(roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_min_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_min(roaring64) IS 'the smallest element, NULL when empty';

CREATE FUNCTION rb_max(roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_max_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_max(roaring64) IS 'the largest element, NULL when empty';

CREATE FUNCTION rb_contains(roaring64, int8) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_contains_int8_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE COST 2 SUPPORT rb_contains_int8_support;
COMMENT ON FUNCTION rb_contains(roaring64, int8) IS 'whether the element is in the set';

-- ---------------------------------------------------------------------------
-- Elements one at a time
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_add(roaring64, int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_add_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_add(roaring64, int8) IS 'the set with the element added';
CREATE FUNCTION rb_add(int8, roaring64) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_add_int8_first_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_add(int8, roaring64) IS 'the set with the element added';
CREATE FUNCTION rb_add(roaring64, int8[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_add_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_add(roaring64, int8[]) IS 'the set with the array''s elements added';
CREATE FUNCTION rb_remove(roaring64, int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_remove_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_remove(roaring64, int8) IS 'the set without the element';
CREATE FUNCTION rb_remove(roaring64, int8[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_remove_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_remove(roaring64, int8[]) IS 'the set without the array''s elements';
-- Not STRICT: a batch with no adds (array_agg of no rows is NULL) must not turn the
-- set into NULL, and an upsert of a new set starts from NULL.
CREATE FUNCTION rb_apply(roaring64, adds int8[], removes int8[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_apply_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_apply(roaring64, int8[], int8[]) IS
    'a batch of changes in one pass: the set without removes, then with adds (an element in both is kept); NULL arrays change nothing, a NULL set is empty';
-- A large set kept as rows of chunks, so that a change rewrites one chunk's row.
CREATE FUNCTION rb_chunks(roaring64, bits int4 DEFAULT 16, OUT chunk int8, OUT part roaring64)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'rb_chunks_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rb_chunks(roaring64, int4) IS
    'the set cut into chunks of the elements sharing x >> bits (16 to 63), ascending: (chunk, part) rows, no part empty';

CREATE FUNCTION rb_rank(roaring64, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_rank_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_rank(roaring64, int8) IS 'the number of elements <= x';
CREATE FUNCTION rb_index(roaring64, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_index_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_index(roaring64, int8) IS 'the 0-based position of x, -1 if absent';
CREATE FUNCTION rb_select(roaring64, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_select_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_select(roaring64, int8) IS 'the k-th smallest element (0-based), NULL when out of range';
CREATE FUNCTION rb_iterate_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_iterate_support_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_iterate_support(internal) IS 'planner support of rb_iterate: its row count is the set''s cardinality when the set is known at plan time';

CREATE FUNCTION rb_iterate(roaring64) RETURNS SETOF int8
    AS 'MODULE_PATHNAME', 'rb_iterate_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 1000 SUPPORT rb_iterate_support;
COMMENT ON FUNCTION rb_iterate(roaring64) IS 'the elements in ascending order, one row each (streamed)';
CREATE FUNCTION rb_slice(roaring64, "offset" int8, "limit" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_slice_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_slice(roaring64, int8, int8) IS 'the elements at ranks [offset, offset + limit)';
CREATE FUNCTION rb_iterate(roaring64, descending bool) RETURNS SETOF int8
    AS 'MODULE_PATHNAME', 'rb_iterate_ordered_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 1000 SUPPORT rb_iterate_support;
COMMENT ON FUNCTION rb_iterate(roaring64, bool) IS 'the elements in ascending order, or descending when descending is true, one row each (streamed)';
-- Keyset pagination: each reads only the elements it returns.
CREATE FUNCTION rb_first(roaring64, n int8) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_first_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_first(roaring64, int8) IS 'the n smallest elements, ascending';
CREATE FUNCTION rb_last(roaring64, n int8) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_last_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_last(roaring64, int8) IS 'the n largest elements, descending';
CREATE FUNCTION rb_after(roaring64, x int8, n int8) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_after_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_after(roaring64, int8, int8) IS 'the n smallest elements greater than x, ascending (the next page after x)';
CREATE FUNCTION rb_before(roaring64, x int8, n int8) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_before_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_before(roaring64, int8, int8) IS 'the n largest elements less than x, descending (the next page before x)';
CREATE FUNCTION rb_shift(roaring64, delta int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_shift_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_shift(roaring64, int8) IS 'every element plus delta; elements leaving the int8 domain are dropped';

-- ---------------------------------------------------------------------------
-- Ranges: half-open [start, end) in int8 order (start >= end is empty), or int8range
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_from_range(start int8, "end" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_from_range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_from_range(int8, int8) IS 'the set of all values in [start, end)';
CREATE FUNCTION rb_from_range(int8range) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_from_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_from_range(int8range) IS 'the set of all values in the range';
CREATE FUNCTION rb_range(roaring64, start int8, "end" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_range(roaring64, int8, int8) IS 'the elements in [start, end)';
CREATE FUNCTION rb_range(roaring64, int8range) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_range_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_range(roaring64, int8range) IS 'the elements in the range';
CREATE FUNCTION rb_range_cardinality(roaring64, start int8, "end" int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_range_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_range_cardinality(roaring64, int8, int8) IS 'the number of elements in [start, end)';
CREATE FUNCTION rb_range_cardinality(roaring64, int8range) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_range_cardinality_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_range_cardinality(roaring64, int8range) IS 'the number of elements in the range';
CREATE FUNCTION rb_contains_range(roaring64, start int8, "end" int8) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_contains_range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_contains_range(roaring64, int8, int8) IS 'whether every value in [start, end) is an element';
CREATE FUNCTION rb_contains_range(roaring64, int8range) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_contains_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_contains_range(roaring64, int8range) IS 'whether every value in the range is an element';
CREATE FUNCTION rb_fill(roaring64, start int8, "end" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_fill_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_fill(roaring64, int8, int8) IS 'the set with every value in [start, end) added';
CREATE FUNCTION rb_fill(roaring64, int8range) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_fill_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_fill(roaring64, int8range) IS 'the set with every value in the range added';
CREATE FUNCTION rb_clear(roaring64, start int8, "end" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_clear_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_clear(roaring64, int8, int8) IS 'the set without the values in [start, end)';
CREATE FUNCTION rb_clear(roaring64, int8range) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_clear_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_clear(roaring64, int8range) IS 'the set without the values in the range';
CREATE FUNCTION rb_flip(roaring64, start int8, "end" int8) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_flip_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_flip(roaring64, int8, int8) IS 'the set with membership of every value in [start, end) flipped';
CREATE FUNCTION rb_flip(roaring64, int8range) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_flip_int8range_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_flip(roaring64, int8range) IS 'the set with membership of every value in the range flipped';

-- ---------------------------------------------------------------------------
-- Layout
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_stats(roaring64) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'rb_stats_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_stats(roaring64) IS
    'cardinality, containers and bytes by kind, runs and format version of the stored value';

-- ---------------------------------------------------------------------------
-- The standard 64-bit portable format (CRoaring, roaring-rs, Go, Java, and
-- pg_roaringbitmap's roaringbitmap64): portable value v is the int8 with the same
-- 64 bits. Migration: ALTER TABLE t ALTER c TYPE roaring64 USING rb_from_portable(c::bytea)
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_to_portable(roaring64) RETURNS bytea
    AS 'MODULE_PATHNAME', 'rb_to_portable_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_to_portable(roaring64) IS
    'the set in the standard 64-bit roaring portable format, as CRoaring and roaring-rs write it';
CREATE FUNCTION rb_from_portable(bytea) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_from_portable_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_from_portable(bytea) IS
    'the set read from the standard 64-bit roaring portable format (validated)';
-- The standard 32-bit portable format (Java RoaringBitmap, CRoaring's 32-bit bitmaps,
-- pg_roaringbitmap's roaringbitmap, Spark and Flink pipelines): values are unsigned
-- 32-bit. Migration of a pg_roaringbitmap roaringbitmap column:
-- ALTER TABLE t ALTER c TYPE roaring64 USING rb_from_portable32(c::bytea)
CREATE FUNCTION rb_from_portable32(bytea) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_from_portable32_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_from_portable32(bytea) IS
    'the set in the standard 32-bit portable format, its values unsigned (validated)';
CREATE FUNCTION rb_to_portable32(roaring64) RETURNS bytea
    AS 'MODULE_PATHNAME', 'rb_to_portable32_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_to_portable32(roaring64) IS
    'the standard 32-bit portable format of a set of elements from 0 to 4294967295';

-- ---------------------------------------------------------------------------
-- Set algebra between two sets
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_and(roaring64, roaring64) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_and_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_and(roaring64, roaring64) IS 'the elements in both sets';
CREATE FUNCTION rb_or(roaring64, roaring64) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_or_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_or(roaring64, roaring64) IS 'the elements in either set';
CREATE FUNCTION rb_xor(roaring64, roaring64) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_xor_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_xor(roaring64, roaring64) IS 'the elements in exactly one of the sets';
CREATE FUNCTION rb_andnot(roaring64, roaring64) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_andnot_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_andnot(roaring64, roaring64) IS 'the elements of the first set not in the second';
CREATE FUNCTION rb_and_cardinality(roaring64, roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_and_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_and_cardinality(roaring64, roaring64) IS '|A ∩ B|, without building the intersection';
CREATE FUNCTION rb_or_cardinality(roaring64, roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_or_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_or_cardinality(roaring64, roaring64) IS '|A ∪ B|, without building the union';
CREATE FUNCTION rb_xor_cardinality(roaring64, roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_xor_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_xor_cardinality(roaring64, roaring64) IS '|A ⊕ B|, without building the symmetric difference';
CREATE FUNCTION rb_andnot_cardinality(roaring64, roaring64) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_andnot_cardinality_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_andnot_cardinality(roaring64, roaring64) IS '|A \ B|, without building the difference';
-- Many sets at once, with no intermediate values: rb_or(a, b, c, ...) or
-- rb_or(VARIADIC array). A NULL set gives NULL, as for two sets; no sets give the
-- empty set (or, xor) or NULL (and: the intersection of nothing is undefined).
--
-- Called with the sets written out, rb_or(a, b, c) would have the executor detoast
-- every set and copy it into an array first; the support function rb_many_support
-- makes the planner call rb_or_args(a, b, c) instead, the same function over
-- VARIADIC "any", which gets the sets as they are (and checks that each is a
-- roaring64: 42804 if not). rb_or keeps the roaring64[] signature, so that untyped
-- literals and the two-set overloads resolve as for any function.
CREATE FUNCTION rb_many_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_many_support_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_many_support(internal) IS 'planner support of rb_or(VARIADIC roaring64[]) and the other many-set functions: a call with the sets written out runs as the _args function';
CREATE FUNCTION rb_or(VARIADIC roaring64[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_or_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_or(roaring64[]) IS 'the union of the sets';
CREATE FUNCTION rb_or_args(VARIADIC "any") RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_or_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_or_args(VARIADIC "any") IS 'rb_or(a, b, ...) as the planner runs it: the sets one by one, no array built';
CREATE FUNCTION rb_and(VARIADIC roaring64[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_and_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_and(roaring64[]) IS 'the intersection of the sets';
CREATE FUNCTION rb_and_args(VARIADIC "any") RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_and_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_and_args(VARIADIC "any") IS 'rb_and(a, b, ...) as the planner runs it: the sets one by one, no array built';
CREATE FUNCTION rb_xor(VARIADIC roaring64[]) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_xor_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_xor(roaring64[]) IS 'the elements in an odd number of the sets';
CREATE FUNCTION rb_xor_args(VARIADIC "any") RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_xor_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_xor_args(VARIADIC "any") IS 'rb_xor(a, b, ...) as the planner runs it: the sets one by one, no array built';
CREATE FUNCTION rb_or_cardinality(VARIADIC roaring64[]) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_or_cardinality_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_or_cardinality(roaring64[]) IS 'the cardinality of the union of the sets, without building it';
CREATE FUNCTION rb_or_cardinality_args(VARIADIC "any") RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_or_cardinality_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_or_cardinality_args(VARIADIC "any") IS 'rb_or_cardinality(a, b, ...) as the planner runs it: the sets one by one, no array built';
CREATE FUNCTION rb_and_cardinality(VARIADIC roaring64[]) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_and_cardinality_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_and_cardinality(roaring64[]) IS 'the cardinality of the intersection of the sets, without building it';
CREATE FUNCTION rb_and_cardinality_args(VARIADIC "any") RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_and_cardinality_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_and_cardinality_args(VARIADIC "any") IS 'rb_and_cardinality(a, b, ...) as the planner runs it: the sets one by one, no array built';
CREATE FUNCTION rb_xor_cardinality(VARIADIC roaring64[]) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_xor_cardinality_many_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE SUPPORT rb_many_support;
COMMENT ON FUNCTION rb_xor_cardinality(roaring64[]) IS 'the cardinality of the symmetric difference of the sets, without building it';
CREATE FUNCTION rb_xor_cardinality_args(VARIADIC "any") RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_xor_cardinality_args_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_xor_cardinality_args(VARIADIC "any") IS 'rb_xor_cardinality(a, b, ...) as the planner runs it: the sets one by one, no array built';
-- Retention and funnels: one base set against many, the base read once.
CREATE FUNCTION rb_and_cardinality_each(roaring64, roaring64[]) RETURNS int8[]
    AS 'MODULE_PATHNAME', 'rb_and_cardinality_each_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_and_cardinality_each(roaring64, roaring64[]) IS '|base ∩ s| for each set s, in order (NULL for a NULL set)';
CREATE FUNCTION rb_jaccard(roaring64, roaring64) RETURNS float8
    AS 'MODULE_PATHNAME', 'rb_jaccard_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_jaccard(roaring64, roaring64) IS '|A ∩ B| / |A ∪ B|, NULL when both are empty';
CREATE FUNCTION rb_contains(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_contains_all_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE COST 2 SUPPORT rb_contains_support;
COMMENT ON FUNCTION rb_contains(roaring64, roaring64) IS 'whether every element of the second set is in the first';
CREATE FUNCTION rb_intersects(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_intersects_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE COST 2 SUPPORT rb_intersects_support;
COMMENT ON FUNCTION rb_intersects(roaring64, roaring64) IS 'whether the sets share an element';
CREATE FUNCTION roaring64_contained_by(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_contained_by_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE COST 2 SUPPORT roaring64_contained_by_support;
COMMENT ON FUNCTION roaring64_contained_by(roaring64, roaring64) IS 'support of <@: whether every element of the first set is in the second';
CREATE FUNCTION roaring64_int8_contained_by(int8, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'rb_int8_contained_by_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE COST 2 SUPPORT roaring64_int8_contained_by_support;
COMMENT ON FUNCTION roaring64_int8_contained_by(int8, roaring64) IS 'support of int8 <@ roaring64';
CREATE FUNCTION roaring64_eq(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_eq_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_eq(roaring64, roaring64) IS 'support of =';
CREATE FUNCTION roaring64_ne(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_ne_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_ne(roaring64, roaring64) IS 'support of <>';
CREATE FUNCTION roaring64_lt(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_lt_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_lt(roaring64, roaring64) IS 'support of <';
CREATE FUNCTION roaring64_le(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_le_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_le(roaring64, roaring64) IS 'support of <=';
CREATE FUNCTION roaring64_gt(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_gt_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_gt(roaring64, roaring64) IS 'support of >';
CREATE FUNCTION roaring64_ge(roaring64, roaring64) RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_ge_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_ge(roaring64, roaring64) IS 'support of >=';
CREATE FUNCTION roaring64_cmp(roaring64, roaring64) RETURNS int4
    AS 'MODULE_PATHNAME', 'roaring64_cmp_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_cmp(roaring64, roaring64) IS 'btree support: compares the ascending element sequences';
CREATE FUNCTION roaring64_hash(roaring64) RETURNS int4
    AS 'MODULE_PATHNAME', 'roaring64_hash_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_hash(roaring64) IS 'hash support: a hash of the canonical bytes';
CREATE FUNCTION roaring64_hash_extended(roaring64, int8) RETURNS int8
    AS 'MODULE_PATHNAME', 'roaring64_hash_extended_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_hash_extended(roaring64, int8) IS 'hash support: a seeded 64-bit hash of the canonical bytes';

-- ---------------------------------------------------------------------------
-- Operators
-- ---------------------------------------------------------------------------
CREATE OPERATOR & (LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_and, COMMUTATOR = &);
CREATE OPERATOR | (LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_or, COMMUTATOR = |);
CREATE OPERATOR # (LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_xor, COMMUTATOR = #);
CREATE OPERATOR - (LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_andnot);
CREATE OPERATOR | (LEFTARG = roaring64, RIGHTARG = int8, FUNCTION = rb_add, COMMUTATOR = |);
CREATE OPERATOR | (LEFTARG = int8, RIGHTARG = roaring64, FUNCTION = rb_add, COMMUTATOR = |);
CREATE OPERATOR - (LEFTARG = roaring64, RIGHTARG = int8, FUNCTION = rb_remove);

CREATE OPERATOR @> (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_contains,
    COMMUTATOR = <@, RESTRICT = roaring64_contains_sel, JOIN = roaring64_contains_joinsel);
CREATE OPERATOR <@ (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_contained_by,
    COMMUTATOR = @>, RESTRICT = roaring64_contained_sel, JOIN = roaring64_contained_joinsel);
CREATE OPERATOR @> (
    LEFTARG = roaring64, RIGHTARG = int8, FUNCTION = rb_contains,
    COMMUTATOR = <@, RESTRICT = roaring64_contains_sel, JOIN = roaring64_contains_joinsel);
CREATE OPERATOR <@ (
    LEFTARG = int8, RIGHTARG = roaring64, FUNCTION = roaring64_int8_contained_by,
    COMMUTATOR = @>, RESTRICT = roaring64_contained_sel, JOIN = roaring64_contained_joinsel);
CREATE OPERATOR && (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = rb_intersects,
    COMMUTATOR = &&, RESTRICT = roaring64_overlap_sel, JOIN = areajoinsel);

-- Equality is set equality (byte equality: the format is canonical); the order
-- compares the ascending element sequences, a proper prefix first, as int8[] does.
CREATE OPERATOR = (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = roaring64, RIGHTARG = roaring64, FUNCTION = roaring64_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- ---------------------------------------------------------------------------
-- Operator classes
-- ---------------------------------------------------------------------------
-- btree: ORDER BY, UNIQUE, merge joins.
CREATE OPERATOR CLASS roaring64_ops DEFAULT FOR TYPE roaring64 USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 roaring64_cmp(roaring64, roaring64);

-- hash: GROUP BY, DISTINCT, hash joins, hash indexes.
CREATE OPERATOR CLASS roaring64_ops DEFAULT FOR TYPE roaring64 USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 roaring64_hash(roaring64),
    FUNCTION 2 roaring64_hash_extended(roaring64, int8);

-- GIN: int8 keys compared by the core btint8cmp. A value's keys are the elements of
-- its array containers and one lossy key per bitmap or run container, so an index
-- grows with the stored size, not the element count (src/opclass/gin.rs).
CREATE FUNCTION roaring64_gin_extract_value(roaring64, internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'roaring64_gin_extract_value_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_gin_extract_query(roaring64, internal, int2, internal, internal, internal, internal)
    RETURNS internal
    AS 'MODULE_PATHNAME', 'roaring64_gin_extract_query_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_gin_consistent(internal, int2, roaring64, int4, internal, internal, internal, internal)
    RETURNS bool
    AS 'MODULE_PATHNAME', 'roaring64_gin_consistent_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_gin_compare_partial(int8, int8, int2, internal) RETURNS int4
    AS 'MODULE_PATHNAME', 'roaring64_gin_compare_partial_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
-- The operator class's parameter: USING gin (r roaring64_ops (element_keys = 32)).
-- An array container of more elements than element_keys gives one container key
-- instead of its elements: smaller and faster to build, with more rows rechecked.
CREATE FUNCTION roaring64_gin_options(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'roaring64_gin_options_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE OPERATOR CLASS roaring64_ops DEFAULT FOR TYPE roaring64 USING gin AS
    OPERATOR 1 && (roaring64, roaring64),
    OPERATOR 2 @> (roaring64, roaring64),
    OPERATOR 3 <@ (roaring64, roaring64),
    OPERATOR 4 = (roaring64, roaring64),
    OPERATOR 5 @> (roaring64, int8),
    FUNCTION 1 btint8cmp(int8, int8),
    FUNCTION 2 roaring64_gin_extract_value(roaring64, internal, internal),
    FUNCTION 3 roaring64_gin_extract_query(roaring64, internal, int2, internal, internal, internal, internal),
    FUNCTION 4 roaring64_gin_consistent(internal, int2, roaring64, int4, internal, internal, internal, internal),
    FUNCTION 5 roaring64_gin_compare_partial(int8, int8, int2, internal),
    FUNCTION 7 roaring64_gin_options(internal),
    STORAGE int8;

-- ---------------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------------
-- The state type is roaring64_state: the same bytes as roaring64, held during
-- aggregation as a read/write expanded object that each row changes in place (no
-- per-row re-encoding), and flattened to canonical bytes once, sized up front. The
-- combine functions are the transition functions on two states, so parallel plans
-- and Citus run partial aggregates without serial functions. The state type exists
-- for its text form: Citus ships partial states between nodes as their type's text,
-- and base64 of the bytes is 4/3 of their size, where roaring64's array text is
-- often 10x, while users keep seeing roaring64 as it is (the final functions return
-- roaring64, the state's own bytes, without a copy).
-- NULL rows are skipped; zero non-NULL rows give NULL. The transition functions are
-- not STRICT (there is no INITCOND); called outside an aggregate they compute the
-- same operation on flat values.
CREATE TYPE roaring64_state;
CREATE FUNCTION roaring64_state_in(cstring) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'roaring64_state_in_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_state_out(roaring64_state) RETURNS cstring
    AS 'MODULE_PATHNAME', 'roaring64_state_out_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_state_recv(internal) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'roaring64_recv_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_state_send(roaring64_state) RETURNS bytea
    AS 'MODULE_PATHNAME', 'roaring64_send_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE TYPE roaring64_state (
    INPUT = roaring64_state_in,
    OUTPUT = roaring64_state_out,
    RECEIVE = roaring64_state_recv,
    SEND = roaring64_state_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE roaring64_state IS
    'an aggregate state of roaring64: the same bytes, whose text form is their base64';
CREATE CAST (roaring64_state AS roaring64) WITHOUT FUNCTION;
CREATE CAST (roaring64 AS roaring64_state) WITHOUT FUNCTION;

CREATE FUNCTION rb_or_trans(roaring64_state, roaring64) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_or_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_and_trans(roaring64_state, roaring64) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_and_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_xor_trans(roaring64_state, roaring64) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_xor_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_build_trans(roaring64_state, int8) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_build_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_or_combine(roaring64_state, roaring64_state) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_or_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_and_combine(roaring64_state, roaring64_state) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_and_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_xor_combine(roaring64_state, roaring64_state) RETURNS roaring64_state
    AS 'MODULE_PATHNAME', 'rb_xor_trans_wrapper'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_state_final(roaring64_state) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'rb_state_final_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION rb_cardinality_final(roaring64_state) RETURNS int8
    AS 'MODULE_PATHNAME', 'rb_cardinality_final_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE rb_or_agg(roaring64) (
    SFUNC = rb_or_trans, STYPE = roaring64_state, COMBINEFUNC = rb_or_combine,
    FINALFUNC = rb_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_or_agg(roaring64) IS 'the union of the sets';
CREATE AGGREGATE rb_and_agg(roaring64) (
    SFUNC = rb_and_trans, STYPE = roaring64_state, COMBINEFUNC = rb_and_combine,
    FINALFUNC = rb_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_and_agg(roaring64) IS 'the intersection of the sets';
CREATE AGGREGATE rb_xor_agg(roaring64) (
    SFUNC = rb_xor_trans, STYPE = roaring64_state, COMBINEFUNC = rb_xor_combine,
    FINALFUNC = rb_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_xor_agg(roaring64) IS 'the elements in an odd number of the sets';
CREATE AGGREGATE rb_build_agg(int8) (
    SFUNC = rb_build_trans, STYPE = roaring64_state, COMBINEFUNC = rb_or_combine,
    FINALFUNC = rb_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_build_agg(int8) IS 'the set of the values';
CREATE AGGREGATE rb_or_cardinality_agg(roaring64) (
    SFUNC = rb_or_trans, STYPE = roaring64_state, COMBINEFUNC = rb_or_combine,
    FINALFUNC = rb_cardinality_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_or_cardinality_agg(roaring64) IS 'the cardinality of the union of the sets';
CREATE AGGREGATE rb_and_cardinality_agg(roaring64) (
    SFUNC = rb_and_trans, STYPE = roaring64_state, COMBINEFUNC = rb_and_combine,
    FINALFUNC = rb_cardinality_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_and_cardinality_agg(roaring64) IS 'the cardinality of the intersection of the sets';
CREATE AGGREGATE rb_xor_cardinality_agg(roaring64) (
    SFUNC = rb_xor_trans, STYPE = roaring64_state, COMBINEFUNC = rb_xor_combine,
    FINALFUNC = rb_cardinality_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE rb_xor_cardinality_agg(roaring64) IS 'the cardinality of the symmetric difference of the sets';

-- ---------------------------------------------------------------------------
-- Runs and multiranges
-- ---------------------------------------------------------------------------
CREATE FUNCTION rb_runs_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'rb_runs_support_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_runs_support(internal) IS 'planner support of rb_runs: its row count is the set''s number of runs when the set is known at plan time';

CREATE FUNCTION rb_runs(roaring64, OUT first int8, OUT last int8) RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'rb_runs_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE ROWS 100 SUPPORT rb_runs_support;
COMMENT ON FUNCTION rb_runs(roaring64) IS
    'the maximal runs of consecutive elements, ascending, as inclusive (first, last) pairs';
-- A run that ends at int8 max has no exclusive upper bound: it becomes '[first,)'.
CREATE FUNCTION rb_to_multirange(roaring64) RETURNS int8multirange
    AS 'MODULE_PATHNAME', 'rb_to_multirange_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_to_multirange(roaring64) IS 'the set as an int8multirange of its runs';
CREATE FUNCTION roaring64_from_multirange(int8multirange) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'roaring64_from_multirange_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION roaring64_from_multirange(int8multirange) IS 'the set of the values in the multirange';
CREATE CAST (roaring64 AS int8multirange) WITH FUNCTION rb_to_multirange(roaring64);
CREATE CAST (int8multirange AS roaring64) WITH FUNCTION roaring64_from_multirange(int8multirange);
