//! Training of the engine's pattern evaluation: self-play data with exact endgame labels
//! ([`generate`]) and a least-squares fit of the weights ([`fit`]).
//!
//! See the crate's README for the commands and the file formats.

pub mod data;
pub mod fit;
pub mod generate;
pub mod pattern;
pub mod rng;
