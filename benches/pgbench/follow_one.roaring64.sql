-- One follow of the large set, the whole set in one row.
\set x random(0, :space - 1)
UPDATE w_whole SET s = rb_add(s, :x::int8) WHERE id = :target;
