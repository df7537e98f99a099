//! Between live games and their stored rows.

use outflank_engine::{Board, Color, Game};

use crate::domain::{GameId, GameStatus, Mode, Nickname, RoomCode, Timestamp};
use crate::live::RatedPlayers;
use crate::live::{Ending, Human, Setup, Stored, TimeControl};
use crate::service::compute::Urgency;
use crate::service::review::ENGINE;
use crate::storage::{FinishedGame, GameRecord, NewGame, SeatRow};

use super::origin::Origin;

fn seat(setup: &Setup, color: Color) -> SeatRow {
    let player = setup.player(color);
    SeatRow { id: player.human().map(|human| human.id.clone()), name: player.display_name() }
}

/// The row of a new game of `origin` (whose client, if any, started it), timed by `control`
/// when its mode has a clock.
pub fn new_game(
    id: &GameId,
    setup: &Setup,
    start: Board,
    (control, room): (TimeControl, Option<&RoomCode>),
    origin: &Origin,
    now: Timestamp,
) -> NewGame {
    let clocked = setup.has_clock();
    let move_time_ms = match control {
        TimeControl::PerMove { move_ms } => Some(move_ms),
        _ => None,
    };
    NewGame {
        id: id.clone(),
        mode: setup.mode(),
        level: setup.computer().map(|(_, level)| level),
        black: seat(setup, Color::Black),
        white: seat(setup, Color::White),
        start_position: start,
        move_time_ms: move_time_ms.filter(|_| clocked),
        room_code: room.cloned(),
        rated: setup.mode() == Mode::Ranked,
        created_at: now,
        turn_started_at: clocked.then_some(now),
        origin: origin.client,
        stand_in: origin.urgency == Urgency::High,
        time_control: clocked.then_some(control),
        opening: None,
    }
}

/// The row written when a game ends; `rated` names the accounts a rated result moves. A game
/// that ends with a result has its review by this engine queued in the same write.
pub fn finished(
    ending: &Ending,
    game: &Game,
    now: Timestamp,
    rated: Option<RatedPlayers>,
) -> FinishedGame {
    let counts = game.board().counts();
    FinishedGame {
        status: if is_reviewed(ending) { GameStatus::Finished } else { GameStatus::Aborted },
        winner: ending.winner,
        end_reason: ending.reason,
        black_discs: counts.black,
        white_discs: counts.white,
        finished_at: now,
        rated,
        review: is_reviewed(ending).then(|| ENGINE.to_owned()),
    }
}

/// Whether a game that ends so has a result, and so a review: an aborted game has neither.
pub fn is_reviewed(ending: &Ending) -> bool {
    ending.winner.is_some()
}

/// Why a stored game cannot be rebuilt.
#[derive(Debug, thiserror::Error)]
#[error("stored game {id} cannot be rebuilt: {reason}")]
pub struct CorruptGame {
    pub id: GameId,
    pub reason: String,
}

/// Rebuilds a live game's setup and plies from its record.
pub fn stored(record: &GameRecord) -> Result<Stored, CorruptGame> {
    let game = &record.game;
    let corrupt = |reason: &str| CorruptGame { id: game.id.clone(), reason: reason.to_owned() };
    let human = |seat: &SeatRow| -> Result<Human, CorruptGame> {
        let id = seat.id.clone().ok_or_else(|| corrupt("a person's seat has no player id"))?;
        let name =
            Nickname::parse(&seat.name).map_err(|_| corrupt("a stored name is not a nickname"))?;
        Ok(Human { id, name })
    };
    let setup = match game.mode {
        Mode::Computer => {
            let level = game.level.ok_or_else(|| corrupt("a computer game has no level"))?;
            let (person, color) = match (&game.black.id, &game.white.id) {
                (Some(_), None) => (&game.black, Color::Black),
                (None, Some(_)) => (&game.white, Color::White),
                _ => return Err(corrupt("a computer game needs exactly one person")),
            };
            let (timed, stand_in) = (game.time_control.is_some(), game.stand_in);
            Setup::Computer { human: human(person)?, color, level, timed, stand_in }
        }
        Mode::SameDevice => Setup::SameDevice { player: human(&game.black)? },
        Mode::Friend => Setup::Friend { black: human(&game.black)?, white: human(&game.white)? },
        Mode::Quick => Setup::Quick { black: human(&game.black)?, white: human(&game.white)? },
        Mode::Ranked => Setup::Ranked { black: human(&game.black)?, white: human(&game.white)? },
    };
    let ending = match (game.status, game.end_reason) {
        (GameStatus::Live, _) => None,
        (_, Some(reason)) => Some(Ending { reason, winner: game.winner }),
        (_, None) => return Err(corrupt("an ended game has no end reason")),
    };
    Ok(Stored {
        id: game.id.clone(),
        setup,
        start: game.start_position,
        plies: record.moves.iter().map(|row| row.mv).collect(),
        ending,
        // Another row of the store says: `task::restore` looks it up.
        rematch: None,
        control: game.control(),
        opening: game.opening,
        times: (game.created_at, record.moves.iter().map(|row| row.played_at).collect()),
    })
}

/// Stored plies are numbered from 0.
pub fn ply_number(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClientKey, PlayerId};
    use outflank_engine::ai::Level;

    fn row_of(origin: &Origin) -> NewGame {
        let human = Human { id: PlayerId::generate(), name: Nickname::parse("Ann").unwrap() };
        let setup = Setup::Computer {
            human,
            color: Color::Black,
            level: Level::EASY,
            timed: false,
            stand_in: false,
        };
        let settings = (TimeControl::DEFAULT, None);
        new_game(&GameId::generate(), &setup, Board::start(), settings, origin, Timestamp(0))
    }

    #[test]
    fn a_stand_ins_row_keeps_its_client_and_says_it_stands_in() {
        let client = ClientKey::of(std::net::IpAddr::from([203, 0, 113, 5]));
        let stand_in = row_of(&Origin::stand_in(client));
        assert_eq!((stand_in.origin, stand_in.stand_in), (Some(client), true));
        let chosen = row_of(&Origin::client(client));
        assert_eq!((chosen.origin, chosen.stand_in), (Some(client), false));
    }
}
