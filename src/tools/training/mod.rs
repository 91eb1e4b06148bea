//! Training: the numbers fitted to the data of [`super::data`]. The network ([`train`]), the
//! hand-crafted evaluation's weights by Texel's method ([`tune`]), the search's numbers by
//! SPSA on self-play games ([`spsa`]) and the win/draw/loss model of `UCI_ShowWDL`
//! ([`wdl`]).

pub mod spsa;
pub mod train;
pub mod tune;
pub mod wdl;
