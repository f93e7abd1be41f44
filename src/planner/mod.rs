//! What the planner asks of `roaring64`: the support functions behind its
//! set-returning functions.

mod rows;
