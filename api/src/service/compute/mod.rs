//! The engine's work for the service: computer moves of live games on a bounded pool that
//! takes turns between their owners ([`SearchPool`]), the analysis board's values
//! ([`BoardValues`]), and the idle-class threads that reviews and the analysis board run on
//! ([`IdleThreads`]).

mod board_values;
mod fair_queue;
mod idle_threads;
mod search;

pub use board_values::{
    BoardValues, BoardValuesError, BoardValuesSettings, DEFAULT_BOARD_CACHE, DEFAULT_BOARD_NODES,
    DEFAULT_BOARD_WAITING, DEFAULT_BOARD_WORKERS, IN_FLIGHT_PER_ADDRESS, IN_FLIGHT_PER_REQUESTER,
    Requester,
};
pub use fair_queue::{SearchOwner, Urgency};
pub use idle_threads::IdleThreads;
pub use search::{LiveSearch, LiveSearches, SearchPool};
