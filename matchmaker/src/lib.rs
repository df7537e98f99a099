//! Pairing of players waiting for quick and ranked games.
//!
//! - [`pair`] is the policy: a pure function from the waiting [`Ticket`]s and the time to
//!   [`Decision`]s (two people play, or one plays the computer). It reads no clock.
//! - [`Queue`] holds the seekers and runs the policy: [`InProcessQueue`] for a single server,
//!   [`RedisQueue`] for several server nodes sharing one Redis; [`AnyQueue`] is either,
//!   picked once from configuration.
//!
//! ```
//! use outflank_matchmaker::{Decision, Millis, Policy, QueueKind, Ticket, pair};
//!
//! let now = Millis(1_700_000_000_000);
//! let waiting = [
//!     Ticket::new("ann", QueueKind::Quick, 1500, now),
//!     Ticket::new("bob", QueueKind::Quick, 1540, now),
//!     Ticket::new("cy", QueueKind::Quick, 2100, now.plus(-15_000)),
//! ];
//! let decisions = pair(&waiting, now, &Policy::default());
//! assert!(matches!(&decisions[0], Decision::Match { .. }));
//! assert!(matches!(&decisions[1], Decision::Computer { seeker, .. } if seeker.as_str() == "cy"));
//! ```

mod any;
mod memory;
mod policy;
mod queue;
mod redis_queue;
mod ticket;

pub use any::AnyQueue;
pub use memory::InProcessQueue;
pub use policy::{Policy, pair};
pub use queue::{Queue, QueueError, QueueResult};
pub use redis_queue::RedisQueue;
pub use ticket::{Decision, Millis, PoolId, PoolSeek, QueueKind, SeekerId, Ticket};
