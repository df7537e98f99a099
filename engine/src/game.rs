//! A game: the start position and the plies played, with undo and redo.
//!
//! Passes are plies of their own. After every move [`Game::play`] inserts the pass of a side
//! left without a move, so a record written from the history shows every pass where it fell.

use std::fmt;

use thiserror::Error;

use crate::{Bitboard, Board, Color, GameResult, IllegalMove, Move};

/// A game in progress or finished: where it started, every ply since, and the undone plies
/// that [`Game::redo`] can replay.
///
/// Two games are equal when they have the same start and the same plies; the redo stack is
/// an editing aid and does not count.
#[derive(Clone)]
pub struct Game {
    start: Board,
    plies: Vec<Move>,
    /// `boards[n]` is the position after `n` plies, so `boards[0]` is the start and the last
    /// entry is the current position. Storing them makes undo and replay free.
    boards: Vec<Board>,
    /// Undone plies, the most recently undone last.
    redo: Vec<Move>,
}

/// What a successful [`Game::play`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The opponent discs turned over (empty for a pass).
    pub flipped: Bitboard,
    /// The side that passed automatically after the move because it had no legal square.
    /// At most one pass can be forced: if neither side could move, the game is over instead.
    pub forced_pass: Option<Color>,
    /// The final count, if the game ended with this move.
    pub result: Option<GameResult>,
}

/// A move of a list that could not be replayed (see [`Game::from_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("move {number} ({mv}): {error}")]
pub struct ReplayError {
    /// The 1-based ply at which the move would have been played, counting every pass,
    /// whether listed or inserted automatically.
    pub number: usize,
    /// The move as listed.
    pub mv: Move,
    /// Why it was rejected.
    pub error: IllegalMove,
}

impl Default for Game {
    /// A game from the standard start.
    fn default() -> Self {
        Game::new(Board::start())
    }
}

impl Game {
    /// A game with no plies yet from `start` (normally [`Board::start`]).
    ///
    /// If the side to move in `start` has no legal square, play [`Move::Pass`] first.
    pub fn new(start: Board) -> Game {
        Game { start, plies: Vec::new(), boards: vec![start], redo: Vec::new() }
    }

    /// Replays `moves` from `start`. Passes may be listed or left out: a side with no legal
    /// square passes automatically, and a listed pass right where one was inserted is taken
    /// as that same pass.
    ///
    /// # Errors
    /// [`ReplayError`] for the first move that cannot be played, with its ply number.
    ///
    /// ```
    /// use outflank_engine::{Board, Game, Move, Square};
    ///
    /// let moves = [Square::D3, Square::C3, Square::B3, Square::D2, Square::E1]
    ///     .map(Move::Place);
    /// let game = Game::from_moves(Board::start(), moves).unwrap();
    /// assert_eq!(game.plies().len(), 5);
    /// ```
    pub fn from_moves(
        start: Board,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, ReplayError> {
        let mut replay = Replay::new(start);
        for mv in moves {
            replay.push(mv).map_err(|(number, error)| ReplayError { number, mv, error })?;
        }
        Ok(replay.into_game())
    }

    /// The position the game started from.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The current position.
    pub fn board(&self) -> Board {
        // `boards` always holds the start, so `last` never fails.
        self.boards.last().copied().unwrap_or(self.start)
    }

    /// Every ply played so far, passes included, oldest first.
    pub fn plies(&self) -> &[Move] {
        &self.plies
    }

    /// The position after the first `ply` plies (`0` is the start), if that many were played.
    pub fn board_after(&self, ply: usize) -> Option<Board> {
        self.boards.get(ply).copied()
    }

    /// The side to move now.
    pub fn side_to_move(&self) -> Color {
        self.board().side_to_move()
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.board().is_game_over()
    }

    /// The final count, if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.board().result()
    }

    /// Plays `mv` for the side to move, then the pass of the next side if it has no legal
    /// square while the game goes on. Playing clears the redo stack.
    ///
    /// # Errors
    /// [`IllegalMove`] if the square is not legal, if a pass is asked while a move exists, or
    /// if the game is over. The game is then unchanged.
    ///
    /// ```
    /// use outflank_engine::{Color, Game, Move, Square};
    ///
    /// let mut game = Game::default();
    /// for square in [Square::D3, Square::C3, Square::B3, Square::B2, Square::F5, Square::A3,
    ///                Square::A1] {
    ///     game.play(Move::Place(square)).unwrap();
    /// }
    /// // White's c1 leaves Black without a move: Black passes automatically.
    /// let outcome = game.play(Move::Place(Square::C1)).unwrap();
    /// assert_eq!(outcome.forced_pass, Some(Color::Black));
    /// assert_eq!(game.plies().last(), Some(&Move::Pass));
    /// assert_eq!(game.side_to_move(), Color::White);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<Outcome, IllegalMove> {
        let board = self.board();
        let next = board.play(mv)?;
        let flipped = match mv {
            Move::Place(square) => board.flips(square),
            Move::Pass => Bitboard::EMPTY,
        };
        self.redo.clear();
        self.push(mv, next);
        let forced_pass = next.must_pass().then(|| {
            self.push(Move::Pass, next.pass_unchecked());
            next.side_to_move()
        });
        Ok(Outcome { flipped, forced_pass, result: self.result() })
    }

    fn push(&mut self, mv: Move, after: Board) {
        self.plies.push(mv);
        self.boards.push(after);
    }

    /// Takes back the last ply (a forced pass is a ply of its own) and keeps it for
    /// [`Game::redo`]. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.plies.pop()?;
        self.boards.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Takes back plies until only `ply` remain; returns how many were taken back (none if
    /// `ply` is not below the current count). [`Game::redo`] replays them one by one.
    pub fn undo_to(&mut self, ply: usize) -> usize {
        let mut undone = 0;
        while self.plies.len() > ply && self.undo().is_some() {
            undone += 1;
        }
        undone
    }

    /// Replays the most recently undone ply; returns it, or `None` if nothing was undone since
    /// the last move played.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.redo.last()?;
        // An undone ply is legal where it was undone, and the position is that same one.
        let next = self.board().play(mv).ok()?;
        self.redo.pop();
        self.push(mv, next);
        Some(mv)
    }

    /// Whether there is a ply to take back.
    pub fn can_undo(&self) -> bool {
        !self.plies.is_empty()
    }

    /// Whether there is an undone ply to replay.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.start == other.start && self.plies == other.plies
    }
}

impl Eq for Game {}

/// The start as a position string and the plies in coordinates, e.g.
/// `Game { start: "---…--- X", plies: [d3, c3], redo: [] }`.
impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Plies<'a>(&'a [Move]);
        struct Ply(Move);
        impl fmt::Debug for Plies<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.iter().map(|&mv| Ply(mv))).finish()
            }
        }
        impl fmt::Debug for Ply {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
        f.debug_struct("Game")
            .field("start", &self.start.to_string())
            .field("plies", &Plies(&self.plies))
            .field("redo", &Plies(&self.redo))
            .finish()
    }
}

/// Replays a listed game where passes may be written or left out.
#[derive(Debug)]
pub(crate) struct Replay {
    game: Game,
    /// The last ply played was a pass inserted automatically, which a listed pass may confirm.
    pending_pass: bool,
}

impl Replay {
    pub(crate) fn new(start: Board) -> Replay {
        Replay { game: Game::new(start), pending_pass: false }
    }

    /// The 1-based ply number the next listed move will have, unless it is a listed pass
    /// confirming an automatic one (which keeps the number of that pass).
    pub(crate) fn next_number(&self) -> usize {
        self.game.plies.len() + 1
    }

    /// Plays a listed move. A listed pass right after an automatic one is that pass; a square
    /// listed where the side to move must pass gets the pass inserted before it.
    ///
    /// On error, returns the ply number of the move with the reason.
    pub(crate) fn push(&mut self, mv: Move) -> Result<(), (usize, IllegalMove)> {
        if mv == Move::Pass && std::mem::take(&mut self.pending_pass) {
            return Ok(());
        }
        self.pending_pass = false;
        if matches!(mv, Move::Place(_)) && self.game.board().must_pass() {
            self.game.play(Move::Pass).map_err(|error| (self.next_number(), error))?;
        }
        let number = self.next_number();
        let outcome = self.game.play(mv).map_err(|error| (number, error))?;
        self.pending_pass = outcome.forced_pass.is_some();
        Ok(())
    }

    pub(crate) fn into_game(self) -> Game {
        self.game
    }
}
