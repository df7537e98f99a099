//! A challenge: one account asks another to play a game under a time control, with a colour,
//! rated or not, from an XOT opening or not. It waits a minute for a live control and a week
//! for a daily one, and is answered once.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{ChallengeId, ChallengeStatus, ColourChoice, GameId, Timestamp};
use crate::live::TimeControl;

/// How long a challenge to a live game waits for its answer.
pub const LIVE_CHALLENGE_MS: i64 = 60 * 1000;
/// How long a challenge to a daily game waits for its answer.
pub const DAILY_CHALLENGE_MS: i64 = 7 * 24 * 3600 * 1000;
/// How many challenges one player may have waiting for an answer at once.
pub const MAX_OPEN_CHALLENGES: u32 = 3;

/// A challenge as both players see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: ChallengeId,
    /// The challenger's public name.
    pub from: String,
    /// The challenged player's public name.
    pub to: String,
    /// The game's control; `None` for the site's default (30 s a move).
    pub control: Option<TimeControl>,
    /// The colour the challenger asked for.
    pub colour: ColourChoice,
    pub rated: bool,
    pub xot: bool,
    /// As stored: an open challenge past `expires_at` is expired ([`Challenge::status_at`]).
    pub status: ChallengeStatus,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    /// The game an accepted challenge started.
    pub game_id: Option<GameId>,
}

/// Who answers a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Challenger,
    Challenged,
}

/// What a player does with a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeAnswer {
    /// The challenged player takes it: the game starts.
    Accept,
    /// The challenged player turns it down.
    Decline,
    /// The challenger withdraws it.
    Cancel,
}

impl ChallengeAnswer {
    /// The status the answer leaves.
    pub const fn status(self) -> ChallengeStatus {
        match self {
            ChallengeAnswer::Accept => ChallengeStatus::Accepted,
            ChallengeAnswer::Decline => ChallengeStatus::Declined,
            ChallengeAnswer::Cancel => ChallengeStatus::Cancelled,
        }
    }

    /// Who may give it.
    pub const fn party(self) -> Party {
        match self {
            ChallengeAnswer::Accept | ChallengeAnswer::Decline => Party::Challenged,
            ChallengeAnswer::Cancel => Party::Challenger,
        }
    }
}

/// Why an answer is refused.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum ChallengeError {
    #[error("only the challenged player may accept or decline, and only its sender cancel it")]
    NotYours,
    #[error("this challenge has expired")]
    Expired,
    #[error("this challenge was already {0}")]
    Closed(ChallengeStatus),
}

impl Challenge {
    /// When a challenge made at `now` for a game under `control` expires.
    pub fn expiry(control: Option<TimeControl>, now: Timestamp) -> Timestamp {
        match control {
            Some(TimeControl::Daily { .. }) => now.plus(DAILY_CHALLENGE_MS),
            _ => now.plus(LIVE_CHALLENGE_MS),
        }
    }

    /// Where the challenge stands at `now`.
    pub fn status_at(&self, now: Timestamp) -> ChallengeStatus {
        if self.status == ChallengeStatus::Open && now >= self.expires_at {
            ChallengeStatus::Expired
        } else {
            self.status
        }
    }

    /// The status `answer` from `by` leaves at `now`.
    ///
    /// # Errors
    /// [`ChallengeError`] when `by` may not give that answer, or the challenge is no longer open.
    pub fn answer(
        &self,
        answer: ChallengeAnswer,
        by: Party,
        now: Timestamp,
    ) -> Result<ChallengeStatus, ChallengeError> {
        if answer.party() != by {
            return Err(ChallengeError::NotYours);
        }
        match self.status_at(now) {
            ChallengeStatus::Open => Ok(answer.status()),
            ChallengeStatus::Expired => Err(ChallengeError::Expired),
            closed => Err(ChallengeError::Closed(closed)),
        }
    }

    /// Whether the challenger plays Black, `coin` deciding a random colour.
    pub fn challenger_is_black(&self, coin: bool) -> bool {
        match self.colour {
            ColourChoice::Black => true,
            ColourChoice::White => false,
            ColourChoice::Random => coin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(control: Option<TimeControl>) -> Challenge {
        Challenge {
            id: ChallengeId::generate(),
            from: "alice".into(),
            to: "bob".into(),
            control,
            colour: ColourChoice::Random,
            rated: false,
            xot: false,
            status: ChallengeStatus::Open,
            created_at: Timestamp(1_000),
            expires_at: Challenge::expiry(control, Timestamp(1_000)),
            game_id: None,
        }
    }

    #[test]
    fn a_live_challenge_waits_one_minute() {
        let challenge = open(Some(TimeControl::fischer(3, 2)));
        assert_eq!(challenge.expires_at, Timestamp(61_000));
        assert_eq!(open(None).expires_at, Timestamp(61_000));
    }

    #[test]
    fn a_daily_challenge_waits_one_week() {
        let challenge = open(Some(TimeControl::Daily { days: 2 }));
        assert_eq!(challenge.expires_at, Timestamp(1_000 + 7 * 24 * 3600 * 1000));
    }

    #[test]
    fn an_open_challenge_reads_as_expired_from_its_expiry_on() {
        let challenge = open(None);
        assert_eq!(challenge.status_at(Timestamp(60_999)), ChallengeStatus::Open);
        assert_eq!(challenge.status_at(Timestamp(61_000)), ChallengeStatus::Expired);
    }

    #[test]
    fn only_the_challenged_player_accepts_or_declines() {
        let challenge = open(None);
        let now = Timestamp(2_000);
        assert_eq!(
            challenge.answer(ChallengeAnswer::Accept, Party::Challenged, now),
            Ok(ChallengeStatus::Accepted)
        );
        assert_eq!(
            challenge.answer(ChallengeAnswer::Decline, Party::Challenged, now),
            Ok(ChallengeStatus::Declined)
        );
        assert_eq!(
            challenge.answer(ChallengeAnswer::Accept, Party::Challenger, now),
            Err(ChallengeError::NotYours)
        );
        assert_eq!(
            challenge.answer(ChallengeAnswer::Decline, Party::Challenger, now),
            Err(ChallengeError::NotYours)
        );
    }

    #[test]
    fn only_the_challenger_cancels() {
        let challenge = open(None);
        let now = Timestamp(2_000);
        assert_eq!(
            challenge.answer(ChallengeAnswer::Cancel, Party::Challenger, now),
            Ok(ChallengeStatus::Cancelled)
        );
        assert_eq!(
            challenge.answer(ChallengeAnswer::Cancel, Party::Challenged, now),
            Err(ChallengeError::NotYours)
        );
    }

    #[test]
    fn an_answered_challenge_takes_no_second_answer() {
        let mut challenge = open(None);
        challenge.status = ChallengeStatus::Accepted;
        assert_eq!(
            challenge.answer(ChallengeAnswer::Accept, Party::Challenged, Timestamp(2_000)),
            Err(ChallengeError::Closed(ChallengeStatus::Accepted))
        );
    }

    #[test]
    fn an_expired_challenge_cannot_be_accepted() {
        let challenge = open(None);
        assert_eq!(
            challenge.answer(ChallengeAnswer::Accept, Party::Challenged, Timestamp(61_000)),
            Err(ChallengeError::Expired)
        );
    }

    #[test]
    fn the_colour_asked_for_is_kept_and_random_follows_the_coin() {
        let mut challenge = open(None);
        assert!(challenge.challenger_is_black(true));
        assert!(!challenge.challenger_is_black(false));
        challenge.colour = ColourChoice::White;
        assert!(!challenge.challenger_is_black(true));
        challenge.colour = ColourChoice::Black;
        assert!(challenge.challenger_is_black(false));
    }
}
