-- The extension installs, and its objects are where the install script says.
SELECT extname, extversion FROM pg_extension WHERE extname = 'sroar_pg';
SELECT sroar_version() LIKE 'sroar_pg % (format version 3)' AS version_ok;
SELECT proname, provolatile, proparallel, proisstrict
  FROM pg_proc WHERE proname = 'sroar_version';
-- Every function of the extension is IMMUTABLE and PARALLEL SAFE; the list below
-- names any that is not. The documented exceptions are STABLE: sroar_version (the
-- library loaded now), roaring64_out (it reads sroar.output_format), and the
-- typanalyze and restriction estimators, which read the catalogs (as core's own
-- array_typanalyze and eqsel are).
SELECT p.oid::regprocedure AS not_immutable_or_parallel_safe
  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
 WHERE d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sroar_pg')
   AND d.classid = 'pg_proc'::regclass
   AND (p.provolatile <> 'i' OR p.proparallel <> 's')
 ORDER BY 1;
