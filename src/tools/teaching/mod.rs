//! Teaching: what the search does, and why, shown. The horizon effect side by side
//! ([`horizon`]), why the search missed a line ([`why`]), a quiescence search tree drawn
//! ([`qtree`]), a local web page to explore both ([`explore`]) and the report that sets
//! Lull's quiescence search beside the literature's figures ([`report`]).

pub mod explore;
pub mod horizon;
pub mod qtree;
pub mod report;
pub mod why;
