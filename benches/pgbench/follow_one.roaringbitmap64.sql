-- One follow of the large set in pg_roaringbitmap's type.
\set x random(0, :space - 1)
UPDATE w_rb SET p = rb64_add(p, :x::int8) WHERE id = :target;
