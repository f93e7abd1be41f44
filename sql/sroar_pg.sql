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
