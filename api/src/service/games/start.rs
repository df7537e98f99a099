//! What a new game starts from.

use outflank_engine::Game;
use outflank_engine::xot::{self, Opening, Symmetry};
use rand::Rng;

use crate::domain::{GameId, Timestamp};
use crate::live::{GameState, Setup, TimeControl, Timing};

/// The beginning of a new game: a game so far (normally the standard start with no plies, or
/// an imported record to continue), or an XOT opening, whose plies are stored with the game and
/// are nobody's moves.
#[derive(Clone, Debug)]
pub enum Start {
    Game(Game),
    Xot(Opening),
}

impl Start {
    /// A new game: from the standard start, or with `xot` from an XOT opening drawn at random.
    pub fn new(xot: bool) -> Start {
        if xot { Start::random_xot() } else { Start::Game(Game::default()) }
    }

    /// An XOT start: an opening drawn at random from the engine's list, seen under a symmetry
    /// of the board drawn at random too (each plays the same). The standard start if the list
    /// were empty.
    pub fn random_xot() -> Start {
        let openings = xot::openings();
        if openings.is_empty() {
            return Start::Game(Game::default());
        }
        let mut rng = rand::rng();
        let opening = openings[rng.random_range(0..openings.len())];
        let symmetry = Symmetry::ALL[rng.random_range(0..Symmetry::ALL.len())];
        Start::Xot(opening.under(symmetry))
    }

    /// Where a rematch of a game that started from `opening` (if any) starts: the same
    /// opening, or the standard start.
    pub(super) fn rematch_of(opening: Option<Opening>) -> Start {
        opening.map_or(Start::Game(Game::default()), Start::Xot)
    }

    /// The XOT opening, if the game starts from one.
    pub fn opening(&self) -> Option<Opening> {
        match self {
            Start::Game(_) => None,
            Start::Xot(opening) => Some(*opening),
        }
    }

    /// The game as it begins: its start position and the plies stored with it.
    pub fn game(&self) -> Game {
        match self {
            Start::Game(game) => game.clone(),
            Start::Xot(opening) => opening.game(),
        }
    }

    /// The live game `id` beginning here, the side to move's turn starting at `now`.
    pub(super) fn into_state(
        self,
        id: GameId,
        setup: Setup,
        (control, timing): (TimeControl, Timing),
        now: Timestamp,
    ) -> GameState {
        match self {
            Start::Game(game) => GameState::timed(id, setup, game, control, timing, now),
            Start::Xot(opening) => GameState::xot(id, setup, opening, control, timing, now),
        }
    }
}

impl From<Game> for Start {
    fn from(game: Game) -> Start {
        Start::Game(game)
    }
}
