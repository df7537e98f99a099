//! The imperative shell around the pure core, one folder a job:
//!
//! - `games`: live games, one task each, reached through a [`GameHandle`] wherever they run;
//!   the [`Router`] is the one seam to the cluster;
//! - `compute`: computer searches, the budget of computer games, the analysis board's values;
//! - `review`: the engine's review of finished games, and the puzzles made from it;
//! - `matchmaking`: the queue for quick and ranked games, and the computer after a wait;
//! - `online`: who is connected, and the caps on their sockets.
//!
//! The service speaks in domain values ([`crate::live::Broadcast`], [`ServiceError`]); the
//! socket edge renders them. Time is read through the injected [`Clock`].

mod compute;
mod error;
mod games;
mod matchmaking;
mod online;
mod review;
#[cfg(test)]
mod test_support;
mod time;

pub use compute::{
    BoardValues, BoardValuesError, BoardValuesSettings, DEFAULT_BOARD_CACHE, DEFAULT_BOARD_NODES,
    DEFAULT_BOARD_WAITING, DEFAULT_BOARD_WORKERS, IN_FLIGHT_PER_ADDRESS, IN_FLIGHT_PER_REQUESTER,
    LiveSearch, LiveSearches, Requester, SearchOwner, SearchPool, Urgency,
};
pub use error::ServiceError;
pub use games::{
    BudgetKind, CorruptGame, DailyTurn, GameHandle, GameHub, Origin, OverBudget, Router, Start,
    StartedGame, Subscription, spawn_serving,
};
pub use matchmaking::{GUEST_RATING, Matchmaking, Paired, SeekRefusal};
pub use online::{
    DEFAULT_SOCKETS_PER_CLIENT, Held, MAX_SOCKETS_PER_PLAYER, Online, OnlineGuard, TooManySockets,
    Visitor,
};
pub use review::{
    AnalysedPly, Analyses, AnalysisError, AnalysisResult, AnalysisSettings, DEFAULT_QUEUE,
    DEFAULT_WORKERS, ENGINE, PER_ADDRESS, PER_PLAYER, SideSummary, fair_play, puzzles,
};
pub use time::{Clock, ManualClock};
