-- One follow as one row of the edge table (two btree indexes).
\set x random(0, :space - 1)
INSERT INTO w_edges VALUES (:x, :target) ON CONFLICT DO NOTHING;
