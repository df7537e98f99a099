//! The values the matchmaker works on: who is waiting, in which queue, since when.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Who is waiting: the player's id (an account id, or a guest's session id).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeekerId(pub String);

impl SeekerId {
    /// Wraps an id.
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SeekerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SeekerId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

impl From<String> for SeekerId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

/// A point in time, in milliseconds since the Unix epoch. The matchmaker never reads a clock:
/// callers pass `now`, so tests step time by hand.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub i64);

impl Millis {
    /// Milliseconds from `earlier` to `self`; zero if `earlier` is later.
    pub fn since(self, earlier: Millis) -> i64 {
        self.0.saturating_sub(earlier.0).max(0)
    }

    /// `self` plus `ms` milliseconds (saturating).
    pub fn plus(self, ms: i64) -> Millis {
        Millis(self.0.saturating_add(ms))
    }
}

/// The queues. Seekers are only ever paired within one queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QueueKind {
    /// Quick game: anyone with a nickname, unrated.
    Quick,
    /// Ranked: signed-in players, rated.
    Ranked,
}

impl QueueKind {
    /// Every queue, in a fixed order.
    pub const ALL: [QueueKind; 2] = [QueueKind::Quick, QueueKind::Ranked];

    /// A short lowercase name (`"quick"`, `"ranked"`), used in keys and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            QueueKind::Quick => "quick",
            QueueKind::Ranked => "ranked",
        }
    }
}

impl fmt::Display for QueueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A pool: the games one queue pairs under one time control (the server names them, e.g.
/// `"30s"` or `"blitz"`; ranked pools are rating pools). Seekers are only paired within a pool.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PoolId(pub String);

impl PoolId {
    /// The pool of [`Ticket::new`], for callers with a single pool.
    pub const DEFAULT_NAME: &'static str = "default";

    /// Wraps a name.
    pub fn new(name: impl Into<String>) -> Self {
        Self(name.into())
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for PoolId {
    fn default() -> Self {
        Self::new(Self::DEFAULT_NAME)
    }
}

impl fmt::Display for PoolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for PoolId {
    fn from(name: &str) -> Self {
        Self(name.to_owned())
    }
}

/// One pool a seeker waits in, with their rating there (guests get the starting rating).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PoolSeek {
    /// The pool.
    pub pool: PoolId,
    /// The seeker's rating in it.
    pub rating: i32,
}

impl PoolSeek {
    /// Seeking in `pool` at `rating`.
    pub fn new(pool: impl Into<PoolId>, rating: i32) -> Self {
        Self { pool: pool.into(), rating }
    }
}

/// One seeker waiting in one queue, in one pool or several at once (the first pairing wins).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ticket {
    /// Who is waiting.
    pub seeker: SeekerId,
    /// Which queue they wait in.
    pub queue: QueueKind,
    /// The pools they wait in, each with their rating there, the one preferred first: a
    /// computer game, when nobody comes, is in the first. A ticket without pools is never
    /// decided (it lapses with its heartbeats).
    #[serde(default)]
    pub pools: Vec<PoolSeek>,
    /// When they started waiting; the allowed rating gap widens from here.
    pub joined_at: Millis,
    /// Their previous opponent, not paired with them again while someone else fits.
    pub last_opponent: Option<SeekerId>,
    /// Seekers they are never paired with: those they blocked and those who blocked them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<SeekerId>,
}

impl Ticket {
    /// A ticket in the default pool only, without a previous opponent.
    pub fn new(
        seeker: impl Into<SeekerId>,
        queue: QueueKind,
        rating: i32,
        joined_at: Millis,
    ) -> Self {
        Self::seeking(seeker, queue, vec![PoolSeek::new(PoolId::default(), rating)], joined_at)
    }

    /// A ticket in `pools` (the preferred first), without a previous opponent.
    pub fn seeking(
        seeker: impl Into<SeekerId>,
        queue: QueueKind,
        pools: Vec<PoolSeek>,
        joined_at: Millis,
    ) -> Self {
        Self {
            seeker: seeker.into(),
            queue,
            pools,
            joined_at,
            last_opponent: None,
            avoid: Vec::new(),
        }
    }

    /// The same ticket, remembering the previous opponent.
    pub fn with_last_opponent(mut self, opponent: impl Into<SeekerId>) -> Self {
        self.last_opponent = Some(opponent.into());
        self
    }

    /// The same ticket, never paired with any of `seekers`.
    pub fn avoiding(mut self, seekers: impl IntoIterator<Item = SeekerId>) -> Self {
        self.avoid.extend(seekers);
        self
    }

    /// Whether either of the two seekers will not be paired with the other.
    pub fn shuns(&self, other: &Ticket) -> bool {
        self.avoid.contains(&other.seeker) || other.avoid.contains(&self.seeker)
    }

    /// The seeker's rating in `pool`, if they wait there (the first entry, if listed twice).
    pub fn rating_in(&self, pool: &PoolId) -> Option<i32> {
        self.pools.iter().find(|seek| &seek.pool == pool).map(|seek| seek.rating)
    }

    /// The preferred pool and the rating there, if any.
    pub fn first_pool(&self) -> Option<&PoolSeek> {
        self.pools.first()
    }

    /// The order of waiting lists: by rating in the preferred pool, then join time, then id.
    pub(crate) fn listing_key(&self) -> (Option<i32>, Millis, &SeekerId) {
        (self.first_pool().map(|seek| seek.rating), self.joined_at, &self.seeker)
    }
}

/// What the matchmaker decided for one or two seekers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Decision {
    /// Two people play each other; colours are already drawn.
    Match {
        /// The queue they were paired in (decides rated or not).
        queue: QueueKind,
        /// The pool they were paired in (decides the time control).
        pool: PoolId,
        /// Plays Black (moves first).
        black: SeekerId,
        /// Plays White.
        white: SeekerId,
        /// Names this match, the same on every node that sees it: the server derives the game's
        /// id from it, so whichever node acts on the decision first creates the game, once.
        pairing: u64,
    },
    /// Nobody came in time: the seeker plays the computer, unrated.
    Computer {
        /// The queue they waited in.
        queue: QueueKind,
        /// Their preferred pool (decides the time control).
        pool: PoolId,
        /// Who plays the computer.
        seeker: SeekerId,
        /// Their rating in that pool: the computer plays at the level rated nearest it.
        rating: i32,
    },
}

impl Decision {
    /// The seekers this decision takes out of the queue (one or two).
    pub fn seekers(&self) -> Vec<&SeekerId> {
        match self {
            Decision::Match { black, white, .. } => vec![black, white],
            Decision::Computer { seeker, .. } => vec![seeker],
        }
    }

    /// The queue the decision was made in.
    pub fn queue(&self) -> QueueKind {
        match self {
            Decision::Match { queue, .. } | Decision::Computer { queue, .. } => *queue,
        }
    }

    /// The pool the decision was made in.
    pub fn pool(&self) -> &PoolId {
        match self {
            Decision::Match { pool, .. } | Decision::Computer { pool, .. } => pool,
        }
    }

    /// Whether `seeker` is part of this decision.
    pub fn involves(&self, seeker: &SeekerId) -> bool {
        self.seekers().contains(&seeker)
    }
}
