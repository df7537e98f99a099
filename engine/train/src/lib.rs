//! Training of the engine's pattern evaluation: self-play data with exact endgame labels
//! ([`generate`]), a least-squares fit of the weights ([`fit`]), and blends of two fits
//! ([`blend`]).
//!
//! See the crate's README for the commands and the file formats.

pub mod blend;
pub mod data;
pub mod fit;
pub mod generate;
pub mod pattern;
pub mod rng;
