//! Rating pools: each ranked time control rates its games apart, as a blitz player's strength
//! says little about their play at two days a move, and XOT games (from a random balanced
//! opening) apart from those from the standard start. A ranked game is rated in the pool of its
//! control and start; the 30-s pool holds every rating made before pools existed.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::time_control::TimeControl;
use crate::domain::PlayerId;

/// A rating pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// 30 seconds a move: the default, and every rating from before pools.
    Move30,
    /// Blitz, 3 minutes + 2 seconds a move.
    Blitz,
    /// Rapid, 10 minutes + 5 seconds a move.
    Rapid,
    /// Daily, 2 days a move.
    Daily,
    /// XOT, 5 minutes + 3 seconds a move, every game from an XOT opening drawn at random.
    Xot,
}

impl Pool {
    /// Every pool, in the order a chooser lists them.
    pub const ALL: [Pool; 5] = [Pool::Move30, Pool::Blitz, Pool::Rapid, Pool::Daily, Pool::Xot];

    /// Where ranked games go when no pool is chosen.
    pub const DEFAULT: Pool = Pool::Move30;

    /// The pool's key in the API, the store and the queue.
    pub const fn key(self) -> &'static str {
        match self {
            Pool::Move30 => "30s",
            Pool::Blitz => "blitz",
            Pool::Rapid => "rapid",
            Pool::Daily => "daily",
            Pool::Xot => "xot",
        }
    }

    /// What players call the pool.
    pub const fn name(self) -> &'static str {
        match self {
            Pool::Move30 => "30 s a move",
            Pool::Blitz => "Blitz 3+2",
            Pool::Rapid => "Rapid 10+5",
            Pool::Daily => "Daily, 2 days a move",
            Pool::Xot => "XOT 5+3",
        }
    }

    /// The time control every game of the pool is played under.
    pub const fn control(self) -> TimeControl {
        match self {
            Pool::Move30 => TimeControl::DEFAULT,
            Pool::Blitz => TimeControl::fischer(3, 2),
            Pool::Rapid => TimeControl::fischer(10, 5),
            Pool::Daily => TimeControl::Daily { days: 2 },
            Pool::Xot => TimeControl::fischer(5, 3),
        }
    }

    /// Whether the pool's games start from an XOT opening.
    pub const fn is_xot(self) -> bool {
        matches!(self, Pool::Xot)
    }

    /// The pool of a game played under `control`, from an XOT opening or not, if any.
    pub fn of(control: TimeControl, xot: bool) -> Option<Pool> {
        Pool::ALL.into_iter().find(|pool| pool.control() == control && pool.is_xot() == xot)
    }

    /// The pool whose rating says most about a player in a game under `control` (`None`: no
    /// clock), rated or not: the game's own pool if it has one; otherwise XOT for an XOT game,
    /// daily for days a move, 30 s for seconds a move or no clock, and for a clock per game
    /// blitz when a side's expected time (base and 40 increments) is under 8 minutes, else
    /// rapid. It is the rating shown beside a name on the board.
    pub fn nearest(control: Option<TimeControl>, xot: bool) -> Pool {
        if xot {
            return Pool::Xot;
        }
        let Some(control) = control else { return Pool::DEFAULT };
        if let Some(pool) = Pool::of(control, false) {
            return pool;
        }
        match control {
            TimeControl::PerMove { .. } => Pool::Move30,
            TimeControl::Daily { .. } => Pool::Daily,
            TimeControl::Fischer { base_ms, increment_ms } => {
                if base_ms + 40 * increment_ms < 8 * 60_000 { Pool::Blitz } else { Pool::Rapid }
            }
        }
    }

    /// The pools' keys as a sentence lists them: `30s, blitz, rapid, daily or xot`.
    pub fn keys_listed() -> String {
        let keys: Vec<&str> = Pool::ALL.iter().map(|pool| pool.key()).collect();
        match keys.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => keys.join(""),
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The two accounts whose ratings a finished game's result moves, and the pool it moves them
/// in. Whether a game is rated is decided from the live game's facts
/// ([`GameState::rated_players`]); the store applies it in the transaction that finishes the
/// game.
///
/// [`GameState::rated_players`]: crate::live::GameState::rated_players
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedPlayers {
    pub black: PlayerId,
    pub white: PlayerId,
    pub pool: Pool,
}

/// Why a text names no pool.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not a rating pool: choose {keys}", keys = Pool::keys_listed())]
pub struct UnknownPool(pub String);

impl FromStr for Pool {
    type Err = UnknownPool;

    fn from_str(text: &str) -> Result<Pool, UnknownPool> {
        Pool::ALL
            .into_iter()
            .find(|pool| pool.key() == text)
            .ok_or_else(|| UnknownPool(text.to_owned()))
    }
}

/// A pool is written as its key, on the wire as in the store.
impl serde::Serialize for Pool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de> serde::Deserialize<'de> for Pool {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Pool, D::Error> {
        let key = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        key.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_in_a_pool_shows_that_pools_rating() {
        for pool in Pool::ALL {
            assert_eq!(Pool::nearest(Some(pool.control()), pool.is_xot()), pool);
        }
    }

    #[test]
    fn a_game_outside_the_pools_shows_the_nearest_pools_rating() {
        assert_eq!(Pool::nearest(None, false), Pool::Move30);
        assert_eq!(Pool::nearest(None, true), Pool::Xot);
        assert_eq!(
            Pool::nearest(Some(TimeControl::PerMove { move_ms: 10_000 }), false),
            Pool::Move30
        );
        assert_eq!(Pool::nearest(Some(TimeControl::Daily { days: 7 }), false), Pool::Daily);
        assert_eq!(Pool::nearest(Some(TimeControl::fischer(1, 0)), false), Pool::Blitz);
        assert_eq!(Pool::nearest(Some(TimeControl::fischer(5, 3)), false), Pool::Blitz);
        assert_eq!(Pool::nearest(Some(TimeControl::fischer(15, 10)), false), Pool::Rapid);
    }

    #[test]
    fn every_pool_reads_back_from_its_key() {
        for pool in Pool::ALL {
            assert_eq!(pool.key().parse::<Pool>(), Ok(pool));
        }
    }

    #[test]
    fn a_pool_is_written_in_json_as_its_key() {
        for pool in Pool::ALL {
            let json = serde_json::to_string(&pool).unwrap();
            assert_eq!(json, format!("\"{}\"", pool.key()));
            assert_eq!(serde_json::from_str::<Pool>(&json).unwrap(), pool);
        }
        assert!(serde_json::from_str::<Pool>("\"bullet\"").is_err());
    }

    #[test]
    fn an_unknown_key_names_no_pool() {
        assert_eq!("bullet".parse::<Pool>(), Err(UnknownPool("bullet".into())));
    }

    #[test]
    fn each_pool_is_found_from_its_control_and_start() {
        for pool in Pool::ALL {
            assert_eq!(Pool::of(pool.control(), pool.is_xot()), Some(pool));
        }
    }

    #[test]
    fn the_default_control_is_the_thirty_second_pool() {
        assert_eq!(Pool::of(TimeControl::DEFAULT, false), Some(Pool::Move30));
    }

    #[test]
    fn a_control_outside_the_pools_has_no_pool() {
        assert_eq!(Pool::of(TimeControl::fischer(1, 0), false), None);
        assert_eq!(Pool::of(TimeControl::fischer(5, 3), false), None, "5+3 is XOT's alone");
        assert_eq!(Pool::of(TimeControl::DEFAULT, true), None);
    }

    #[test]
    fn the_keys_are_listed_as_a_sentence() {
        assert_eq!(Pool::keys_listed(), "30s, blitz, rapid, daily or xot");
    }

    #[test]
    fn every_pool_is_played_under_an_offered_control() {
        assert!(Pool::ALL.iter().all(|pool| pool.control().is_offered()));
    }
}
