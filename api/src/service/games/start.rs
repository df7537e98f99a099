//! What a new game starts from.

use outflank_engine::Game;
use outflank_engine::xot::{self, Opening, Symmetry};
use rand::Rng;

/// The beginning of a new game: a game so far (normally the standard start with no plies, or
/// an imported record to continue), or an XOT opening, whose plies are stored with the game and
/// are nobody's moves.
#[derive(Clone, Debug)]
pub enum Start {
    Game(Game),
    Xot(Opening),
}

impl Start {
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

    /// The game as it begins, and the opening it came from.
    pub fn into_parts(self) -> (Game, Option<Opening>) {
        match self {
            Start::Game(game) => (game, None),
            Start::Xot(opening) => (opening.game(), Some(opening)),
        }
    }
}

impl From<Game> for Start {
    fn from(game: Game) -> Start {
        Start::Game(game)
    }
}
