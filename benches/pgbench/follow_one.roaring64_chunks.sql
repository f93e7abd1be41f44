-- One follow of the large set, kept as rows of chunks of 65,536 ids (README,
-- "Changing elements").
\set x random(0, :space - 1)
INSERT INTO w_chunks VALUES (:target, :x::int8 >> 16, rb_build(ARRAY[:x::int8]))
ON CONFLICT (id, chunk) DO UPDATE SET part = rb_add(w_chunks.part, :x::int8);
