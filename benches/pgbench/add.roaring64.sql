-- Add an element to a random row's set. Each transaction adds a value never added
-- before (a bijection of a sequence onto [0, 2^40)), so after a run the total
-- cardinality has grown by exactly the number of transactions: a lost update shows.
\set k random(1, :rows)
UPDATE pb_r SET r = r | ((nextval('pb_seq') * 2654435761) % 1099511627776) WHERE id = :k;
