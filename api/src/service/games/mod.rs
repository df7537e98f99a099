//! Live games: one task per game drives its pure state machine ([`crate::live::GameState`]),
//! stores what happened, then tells the subscribers. The registry ([`GameHub`]) starts tasks
//! and hands out [`GameHandle`]s; a task knows only its context and asks the registry for the
//! rest (`task::FollowUp`); the [`Router`] is the one seam to the cluster.

mod budget;
mod convert;
mod handle;
mod local_game;
mod news;
mod origin;
mod registry;
mod router;
mod start;
mod task;

pub use budget::{BudgetKind, OverBudget};
pub use convert::CorruptGame;
pub use handle::GameHandle;
pub use local_game::Subscription;
pub use news::{DailyTurn, StartedGame};
pub use origin::Origin;
pub use registry::GameHub;
pub use router::{Router, spawn_serving};
pub use start::Start;
