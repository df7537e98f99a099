//! Reviews of finished games by the engine ([`Analyses`]), and the puzzles made from the
//! players' mistakes in them ([`puzzles`]), and what they say about a player's fair play
//! ([`fair_play`]).

mod analysis;
pub mod fair_play;
pub mod puzzles;

pub use analysis::{
    AnalysedPly, Analyses, AnalysisError, AnalysisResult, AnalysisSettings, DEFAULT_QUEUE,
    DEFAULT_WORKERS, ENGINE, PER_ADDRESS, PER_PLAYER, SideSummary,
};
