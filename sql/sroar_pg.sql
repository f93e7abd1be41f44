-- sroar_pg: the whole public SQL surface of the extension, in one file.
--
-- Every object users can see is declared here by hand, so this file is the index of
-- the extension (as contrib/intarray's install script is). The C symbols named below
-- are the Rust functions in src/, exported by pgrx as `<name>_wrapper`.

CREATE FUNCTION sroar_version() RETURNS text
    AS 'MODULE_PATHNAME', 'sroar_version_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
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
CREATE FUNCTION roaring64_out(roaring64) RETURNS cstring
    AS 'MODULE_PATHNAME', 'roaring64_out_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_recv(internal) RETURNS roaring64
    AS 'MODULE_PATHNAME', 'roaring64_recv_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION roaring64_send(roaring64) RETURNS bytea
    AS 'MODULE_PATHNAME', 'roaring64_send_wrapper'
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE TYPE roaring64 (
    INPUT = roaring64_in,
    OUTPUT = roaring64_out,
    RECEIVE = roaring64_recv,
    SEND = roaring64_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE roaring64 IS
    'a set of int8 values stored as a 64-bit roaring bitmap whose bytes are the bitmap';

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
    LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rb_contains(roaring64, int8) IS 'whether the element is in the set';
