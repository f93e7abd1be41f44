-- A table that takes a stream of updates: vacuum it (and its TOAST table) after 1% of
-- its rows change, with no cost delay, so that the space of old row versions is
-- reused about as fast as the stream makes them. Vacuum does not give the empty
-- pages at the table's end back to the system: that takes a lock that stops every
-- reader of the table for a moment, and the stream would fill them again anyway.
ALTER TABLE users SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_cost_delay = 0,
                       vacuum_truncate = false,
                       toast.autovacuum_vacuum_scale_factor = 0.01,
                       toast.autovacuum_vacuum_cost_delay = 0,
                       toast.vacuum_truncate = false);
