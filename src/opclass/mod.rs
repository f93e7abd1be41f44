//! Support functions of the operator classes: btree (total order), hash (GROUP BY,
//! DISTINCT, hash joins) and GIN (element keys for @>, <@, && and =).

mod btree;
mod gin;
mod hash;
