//! The imperative shell around live games: one task per game drives its pure state machine,
//! stores what happened, then tells the players; computer searches run on a bounded pool.

mod convert;
mod driver;
mod hub;
mod matchmaking;
mod online;
mod presence_ledger;
mod remote;
mod search;

pub use convert::{CorruptGame, display_name};
pub use hub::{Broadcast, CatchUp, GameHandle, GameHub, ServiceError, Subscription};
pub use matchmaking::{GUEST_RATING, Matchmaking, Paired};
pub use online::{MAX_SOCKETS_PER_PLAYER, Online, OnlineGuard};
pub use remote::spawn_serving;
pub use search::SearchPool;
