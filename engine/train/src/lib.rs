//! Training of the engine's pattern evaluation: self-play data with exact endgame labels
//! ([`generate`]), a least-squares fit of the weights ([`fit`]), blends of two fits
//! ([`blend`]), a check of an evaluation against exact values ([`exact_check`]), and the
//! data's positions as an OBF file for the engine's tools ([`positions`]).
//!
//! See the crate's README for the commands and the file formats.

pub mod blend;
pub mod data;
pub mod exact_check;
pub mod fit;
pub mod generate;
pub mod output;
pub mod positions;
pub mod rng;
