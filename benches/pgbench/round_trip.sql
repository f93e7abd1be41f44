-- A statement that does no work: at a fixed rate beside a question, its latency is
-- the floor of any question's on this machine (waking a client and a backend, one
-- round trip, parsing and planning the least a statement can).
SELECT 1;
