-- Every object of the installed sroar_pg, one line each, with what defines it: the
-- signature and properties of functions and aggregates, the I/O of types, the
-- functions behind operators and casts, the members of operator families, and
-- comments. Two databases whose lists are equal hold the same extension.
WITH ext AS (
    SELECT classid, objid, objsubid FROM pg_depend
     WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
       AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sroar_pg')
)
SELECT pg_describe_object(e.classid, e.objid, e.objsubid) || ' | ' ||
       coalesce(CASE e.classid
         WHEN 'pg_proc'::regclass THEN
           (SELECT format('%s(%s) -> %s %s strict=%s volatile=%s parallel=%s leakproof=%s cost=%s rows=%s',
                          p.prokind, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prosrc,
                          p.proisstrict, p.provolatile, p.proparallel, p.proleakproof, p.procost, p.prorows)
                   || coalesce((SELECT format(' agg: sfunc=%s stype=%s combine=%s final=%s serial=%s deserial=%s init=%s finalmodify=%s',
                                              a.aggtransfn, format_type(a.aggtranstype, NULL), a.aggcombinefn,
                                              a.aggfinalfn, a.aggserialfn, a.aggdeserialfn, a.agginitval, a.aggfinalmodify)
                                  FROM pg_aggregate a WHERE a.aggfnoid = p.oid), '')
              FROM pg_proc p WHERE p.oid = e.objid)
         WHEN 'pg_type'::regclass THEN
           (SELECT format('in=%s out=%s recv=%s send=%s len=%s align=%s storage=%s category=%s',
                          t.typinput, t.typoutput, t.typreceive, t.typsend, t.typlen, t.typalign,
                          t.typstorage, t.typcategory)
              FROM pg_type t WHERE t.oid = e.objid)
         WHEN 'pg_operator'::regclass THEN
           (SELECT format('code=%s com=%s neg=%s rest=%s join=%s merges=%s hashes=%s',
                          o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest, o.oprjoin,
                          o.oprcanmerge, o.oprcanhash)
              FROM pg_operator o WHERE o.oid = e.objid)
         WHEN 'pg_cast'::regclass THEN
           (SELECT format('func=%s context=%s method=%s', c.castfunc::regprocedure, c.castcontext, c.castmethod)
              FROM pg_cast c WHERE c.oid = e.objid)
         WHEN 'pg_opfamily'::regclass THEN
           (SELECT string_agg(m, '; ' ORDER BY m) FROM (
               SELECT format('op %s %s', ao.amopstrategy, ao.amopopr::regoperator) AS m
                 FROM pg_amop ao WHERE ao.amopfamily = e.objid
               UNION ALL
               SELECT format('func %s %s', ap.amprocnum, ap.amproc::regprocedure)
                 FROM pg_amproc ap WHERE ap.amprocfamily = e.objid) members)
         WHEN 'pg_opclass'::regclass THEN
           (SELECT format('default=%s keytype=%s', oc.opcdefault, oc.opckeytype::regtype)
              FROM pg_opclass oc WHERE oc.oid = e.objid)
       END, '') || ' | ' ||
       coalesce(obj_description(e.objid, e.classid::regclass::text), '')
  FROM ext e
 ORDER BY 1;
