//! Named openings: the names players give the first moves of a game (the Tiger, the Rose, the
//! Buffalo…), so that a game page or a list of games can say which opening was played.
//!
//! The table ([`openings`]) holds each name with the line that defines it, written from `f5`
//! as players write them. A game is named by *position*, not by its moves: after each of its
//! first plies the position is compared with the position each named line reaches after as many
//! plies, up to the symmetries of the board, and the longest line that matches names the game
//! ([`opening_of`]). So
//!
//! - a game begun on `d3`, `c4` or `e6` is named like its mirror image begun on `f5`: the four
//!   first moves reach the same position seen from another side;
//! - a game that reaches a named position by another move order (a transposition) gets that
//!   name, since it is the same opening;
//! - a game that goes on past a named line keeps the name of the longest line it matched, and a
//!   game that leaves the lines early keeps the name of the last one it matched.
//!
//! The first move alone has no name (all four reach the same position, so every game would have
//! it): a game is named from its second ply, by one of the three replies (Perpendicular,
//! Diagonal, Parallel) or a longer line.
//!
//! Positions are compared under all eight symmetries of the square. Four of them (the identity,
//! the half turn and the two diagonal reflections) leave the start as it is and relate the four
//! first moves; the other four swap the colours of the start, but a position they relate to a
//! named one has the same discs of each colour and the same side to move, so it is the same
//! position too.
//!
//! ```
//! use outflank_engine::{Move, openings::opening_of};
//!
//! let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"].map(|m| m.parse().unwrap()).to_vec();
//! let opening = opening_of(&moves).unwrap();
//! assert_eq!((opening.name(), opening.plies()), ("Tiger", 5));
//! assert_eq!(opening.line(), "f5 d6 c3 d3 c4");
//! ```

mod names;

use std::fmt;
use std::sync::OnceLock;

use crate::{Board, Color, Game, Move, Square};

/// A named opening: a name (with the other names it goes by) and the line from the start that
/// defines it.
///
/// Openings come from the engine's table ([`openings`], [`opening_of`], [`Opening::named`]);
/// two are equal when they are the same line of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    entry: &'static Entry,
}

impl Opening {
    /// The opening's name, such as `"Tiger"`.
    pub fn name(&self) -> &'static str {
        self.entry.name
    }

    /// Other names the opening goes by (`"Peasant"` for the Snake), possibly none.
    pub fn aliases(&self) -> &'static [&'static str] {
        self.entry.aliases
    }

    /// The line as the table writes it, from `f5` in lower case: `"f5 d6 c3 d3 c4"`.
    pub fn line(&self) -> &'static str {
        self.entry.line
    }

    /// The line's squares, in the order played.
    pub fn squares(&self) -> &'static [Square] {
        &self.entry.squares
    }

    /// The line's moves, in the order played (no passes).
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + 'static {
        self.entry.squares.iter().map(|&square| Move::Place(square))
    }

    /// How many plies the line has.
    pub fn plies(&self) -> usize {
        self.entry.squares.len()
    }

    /// The position after the line, as written (from `f5`).
    pub fn board(&self) -> Board {
        self.entry.board
    }

    /// The opening called `name` or one of its other names, in any case (`"tiger"`,
    /// `"Peasant"`), if the table has it.
    pub fn named(name: &str) -> Option<Opening> {
        openings().find(|opening| {
            std::iter::once(opening.name())
                .chain(opening.aliases().iter().copied())
                .any(|known| known.eq_ignore_ascii_case(name))
        })
    }
}

/// Writes the name.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every named opening, in the table's order: the three replies to the first move, then each
/// family with every line after the line it extends.
pub fn openings() -> impl ExactSizeIterator<Item = Opening> {
    table().entries.iter().map(|entry| Opening { entry })
}

/// How many of a game's first plies can decide its opening: the longest named line's length.
/// [`opening_of`] reads no further, so a list of games need only load that many of each.
pub fn deciding_plies() -> usize {
    table().longest
}

/// The opening of a game from the standard start given by its plies (as [`Game::plies`] lists
/// them): the longest named line whose position after its `n` plies is the game's position
/// after its first `n` plies, up to the symmetries of the board. `None` when no line matches:
/// for no moves, the first move alone, or a game that left every line at once.
///
/// The moves are replayed from the start until the longest line's length; a move that cannot
/// be played there ends the replay, and the game is named by the plies before it.
pub fn opening_of(moves: &[Move]) -> Option<Opening> {
    let boards = moves.iter().take(table().longest).scan(Board::start(), |board, &mv| {
        *board = board.play(mv).ok()?;
        Some(*board)
    });
    longest_match(boards)
}

/// The opening of `game` (see [`opening_of`]), from the positions the game keeps. `None` for a
/// game that did not start from the standard start.
pub fn opening_of_game(game: &Game) -> Option<Opening> {
    if game.start() != Board::start() {
        return None;
    }
    let plies = game.plies().len().min(table().longest);
    longest_match((1..=plies).filter_map(|ply| game.board_after(ply)))
}

/// The opening of `game` after each of its first plies, from the first: what [`opening_of_game`]
/// says of the game cut after 1, 2, … plies, in one pass (a position's name, as a replay shows
/// it ply by ply). As long as the game's plies, however many can decide a name; all `None` for
/// a game that did not start from the standard start.
pub fn openings_by_ply(game: &Game) -> Vec<Option<Opening>> {
    let plies = game.plies().len();
    if game.start() != Board::start() {
        return vec![None; plies];
    }
    let longest = table().longest;
    let mut found = None;
    (1..=plies)
        .map(|ply| {
            let named = (ply <= longest).then(|| game.board_after(ply)).flatten();
            if let Some(opening) = named.and_then(|board| named_at(&board, ply)) {
                found = Some(opening);
            }
            found
        })
        .collect()
}

/// The line whose position after its `plies` plies is `board`, if any.
fn named_at(board: &Board, plies: usize) -> Option<Opening> {
    let table = table();
    let key = Key::of(board);
    let at = table.keys.binary_search_by(|(probe, _)| probe.cmp(&key)).ok()?;
    let entry = &table.entries[table.keys[at].1];
    // Every line is passes-free, so the same position means the same ply count unless the game
    // passed; then it is not the line's position after as many plies.
    (entry.squares.len() == plies).then_some(Opening { entry })
}

/// The longest line matched by the positions after plies 1, 2, … of a game.
fn longest_match(boards: impl Iterator<Item = Board>) -> Option<Opening> {
    boards.enumerate().filter_map(|(index, board)| named_at(&board, index + 1)).last()
}

/// A line of the table, replayed.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Entry {
    name: &'static str,
    aliases: &'static [&'static str],
    line: &'static str,
    squares: Vec<Square>,
    board: Board,
}

impl Entry {
    /// The entry of a table line, if its moves are squares legal one after the other from the
    /// start.
    fn of(&(name, aliases, line): &names::Line) -> Option<Entry> {
        let squares =
            line.split_whitespace().map(|word| word.parse().ok()).collect::<Option<Vec<_>>>()?;
        let board = squares
            .iter()
            .try_fold(Board::start(), |board, &square| board.play(Move::Place(square)).ok())?;
        Some(Entry { name, aliases, line, squares, board })
    }
}

/// The table, replayed once, with each line's final position under its canonical key.
#[derive(Debug)]
struct Table {
    entries: Vec<Entry>,
    /// `(key, index into entries)`, sorted by key.
    keys: Vec<(Key, usize)>,
    /// The longest line's length in plies: no game is compared beyond it.
    longest: usize,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // A line that does not replay is left out; the tests prove there is none.
        let entries: Vec<Entry> = names::LINES.iter().filter_map(Entry::of).collect();
        let mut keys: Vec<(Key, usize)> = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| (Key::of(&entry.board), index))
            .collect();
        keys.sort_unstable();
        let longest = entries.iter().map(|entry| entry.squares.len()).max().unwrap_or(0);
        Table { entries, keys, longest }
    })
}

/// A position up to the symmetries of the board: the least of its eight images, so that every
/// image has the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    black: u64,
    white: u64,
    side: Color,
}

impl Key {
    fn of(board: &Board) -> Key {
        let black = images(board.black().0);
        let white = images(board.white().0);
        let (black, white) = black.into_iter().zip(white).min().unwrap_or((black[0], white[0]));
        Key { black, white, side: board.side_to_move() }
    }
}

/// The eight images of a set of squares under the symmetries of the square, always in the same
/// order (so the images of two sets under one symmetry share an index).
fn images(squares: u64) -> [u64; 8] {
    let transposed = transpose(squares);
    [
        squares,
        flip_rows(squares),
        flip_columns(squares),
        flip_rows(flip_columns(squares)),
        transposed,
        flip_rows(transposed),
        flip_columns(transposed),
        flip_rows(flip_columns(transposed)),
    ]
}

/// Rows 1–8 reversed: (column, row) to (column, 7 − row).
fn flip_rows(squares: u64) -> u64 {
    squares.swap_bytes()
}

/// Columns a–h reversed: (column, row) to (7 − column, row).
fn flip_columns(squares: u64) -> u64 {
    squares.reverse_bits().swap_bytes()
}

/// The reflection in the a1–h8 diagonal: (column, row) to (row, column), by three swaps of bit
/// blocks.
fn transpose(mut squares: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (squares ^ (squares << 28));
    squares ^= t ^ (t >> 28);
    let t = K2 & (squares ^ (squares << 14));
    squares ^= t ^ (t >> 14);
    let t = K1 & (squares ^ (squares << 7));
    squares ^= t ^ (t >> 7);
    squares
}

#[cfg(test)]
mod tests;
