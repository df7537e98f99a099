//! The imperative shell around live games: one task per game drives its pure state machine,
//! stores what happened, then tells the subscribers; computer searches run on a bounded pool,
//! and finished games are analysed by the engine below them ([`Analyses`]).
//!
//! Inside, arrows point one way: the registry ([`GameHub`]) starts game tasks and hands out
//! [`GameHandle`]s; a task knows only its context and asks the registry for the rest
//! (`game_task::FollowUp`); the [`Router`] is the one seam to the cluster. The service speaks
//! in domain values ([`crate::live::Broadcast`], [`ServiceError`]); the socket edge renders them.

mod analysis;
mod board_values;
mod clock;
mod computer_budget;
mod convert;
mod error;
mod fair_queue;
mod game_task;
mod handle;
mod idle_threads;
mod local_game;
mod matchmaking;
mod online;
mod presence_ledger;
pub mod puzzles;
mod registry;
mod router;
mod search;
mod serving;
#[cfg(test)]
mod test_support;

pub use analysis::{
    AnalysedPly, Analyses, AnalysisError, AnalysisResult, AnalysisSettings, DEFAULT_QUEUE,
    DEFAULT_WORKERS, ENGINE, PER_PLAYER, SideSummary,
};
pub use board_values::{
    BoardValues, BoardValuesError, BoardValuesSettings, DEFAULT_BOARD_CACHE, DEFAULT_BOARD_WAITING,
    DEFAULT_BOARD_WORKERS, IN_FLIGHT_PER_REQUESTER, Requester,
};
pub use clock::{Clock, ManualClock};
pub use computer_budget::OverBudget;
pub use convert::CorruptGame;
pub use error::ServiceError;
pub use fair_queue::{Owner, Urgency};
pub use game_task::Origin;
pub use handle::GameHandle;
pub use local_game::Subscription;
pub use matchmaking::{GUEST_RATING, Matchmaking, Paired, SeekRefusal};
pub use online::{
    DEFAULT_SOCKETS_PER_CLIENT, MAX_SOCKETS_PER_PLAYER, Online, OnlineGuard, TooManySockets,
    Visitor,
};
pub use registry::GameHub;
pub use router::Router;
pub use search::{LiveSearch, LiveSearches, SearchPool};
pub use serving::spawn_serving;
