//! Game review: every ply of a game judged by the engine.
//!
//! For each ply the review gives the value of the position before and after it (for Black),
//! the best move(s) and their value, the value of the move played (both for the mover), the
//! disc loss between the two and a [`Class`]. Positions with at most
//! [`ReviewOptions::exact_empties`] empties are solved exactly; earlier ones are searched to a
//! fixed depth over the trained evaluation. Budgets are depths and node counts, never time,
//! so a game always gets the same review.
//!
//! ```
//! use outflank_engine::analysis::{Class, ReviewOptions, review};
//! use outflank_engine::Record;
//!
//! let game = "d3 c3 b3 d2 e1 d6 d7 e3 f4".parse::<Record>().unwrap().into_game();
//! let options = ReviewOptions { depth: 4, ..ReviewOptions::default() };
//! let plies = review(&game, &options, &mut |_| {}, None).unwrap();
//! assert_eq!(plies.len(), 9);
//! // White's last move, e3, lets Black take every white disc: a blunder.
//! assert_eq!(plies[7].class, Class::Blunder);
//! assert_eq!(plies[8].value_after, 13);
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use thiserror::Error;

use crate::ai::{Search, SearchError, SearchLimits};
use crate::parallel::run_each;
use crate::solve::{self, SolveError, SolveOptions};
use crate::{Board, Color, Game, Move};

/// A loss of at least this many discs is an inaccuracy.
pub const INACCURACY: i32 = 3;
/// A loss of at least this many discs is a mistake.
pub const MISTAKE: i32 = 6;
/// A loss of at least this many discs is a blunder.
pub const BLUNDER: i32 = 10;

/// Empties from which positions are solved exactly, by default.
pub const DEFAULT_EXACT_EMPTIES: u32 = 20;
/// Depth of the midgame search, by default.
pub const DEFAULT_DEPTH: u32 = 12;
/// Solver nodes a position may take by default before it is searched instead.
pub const DEFAULT_EXACT_NODE_LIMIT: u64 = 64_000_000;
/// Plies of the best line shown from each position.
pub const BEST_LINE_PLIES: usize = 8;
/// With this many empties or fewer every legal move is solved, so that `best` lists all the
/// best moves; above it `best` holds the solver's move (and the move played when it is as
/// good).
const ALL_BEST_EMPTIES: u32 = 14;

/// How a game is reviewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// Plies of midgame search for the positions that are not solved (at least 1).
    pub depth: u32,
    /// Positions with this many empties or fewer are solved exactly (0: none).
    pub exact_empties: u32,
    /// Solver nodes one position may take; a position that needs more is searched instead.
    pub exact_node_limit: u64,
    /// Nodes one midgame search may visit: the iteration that runs out is cut short, and the
    /// value comes from the deepest one searched (`u64::MAX`: only `depth` bounds it).
    pub node_budget: u64,
    /// Threads the positions are shared among (0 or 1: the calling thread alone). Each
    /// position is still searched on one thread within the same budgets, so the review is the
    /// same for any number.
    pub threads: usize,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            depth: DEFAULT_DEPTH,
            exact_empties: DEFAULT_EXACT_EMPTIES,
            exact_node_limit: DEFAULT_EXACT_NODE_LIMIT,
            node_budget: u64::MAX,
            threads: 1,
        }
    }
}

impl ReviewOptions {
    /// What the midgame values come from, e.g. `depth 10`.
    pub fn search_label(&self) -> String {
        format!("depth {}", self.depth.max(1))
    }
}

/// How a move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A pass or the only legal move.
    Forced,
    /// No loss.
    Best,
    /// A loss below [`INACCURACY`].
    Good,
    /// A loss from [`INACCURACY`] to below [`MISTAKE`].
    Inaccuracy,
    /// A loss from [`MISTAKE`] to below [`BLUNDER`].
    Mistake,
    /// A loss of [`BLUNDER`] or more.
    Blunder,
}

impl Class {
    /// The class of a move that was not forced and lost `loss` discs.
    pub fn for_loss(loss: i32) -> Class {
        match loss {
            i32::MIN..=0 => Class::Best,
            l if l < INACCURACY => Class::Good,
            l if l < MISTAKE => Class::Inaccuracy,
            l if l < BLUNDER => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// The lower-case name: `forced`, `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Forced => "forced",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 6] = [
        Class::Forced,
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class named `name` (as [`Class::name`] writes it).
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|class| class.name() == name)
    }
}

/// Where the values of a ply come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The exact solver: perfect play from here.
    Exact,
    /// A midgame search this many plies deep.
    Searched { depth: u32 },
}

/// The review of one ply. Values are whole discs (searched values rounded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// 1-based: ply 1 is the first move, played from the start position (ply 0).
    pub ply: usize,
    /// The side that moved.
    pub color: Color,
    /// The move played.
    pub played: Move,
    /// The value of the position before the move, for Black.
    pub value_before: i32,
    /// The value of the position after the move, for Black.
    pub value_after: i32,
    /// The best moves (the first is the engine's choice).
    pub best: Vec<Move>,
    /// The value of the best move, for the mover.
    pub best_value: i32,
    /// The value of the move played, for the mover.
    pub played_value: i32,
    /// `best_value - played_value`, never below 0; 0 for a forced move.
    pub loss: i32,
    /// Whether the values are exact.
    pub exact: bool,
    /// Where the values come from.
    pub source: Source,
    pub class: Class,
    /// The best line from the position before the move, the best move first.
    pub best_line: Vec<Move>,
}

/// How far a review has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Steps finished.
    pub done: usize,
    /// Steps in all (positions of the game, then plies judged).
    pub total: usize,
}

/// Why a review stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ReviewError {
    #[error("the review was cancelled")]
    Cancelled,
}

/// The value of a position and the move that reaches it, for the side to move (1/100 disc).
#[derive(Clone, Copy, Debug)]
struct Value {
    score: i32,
    best: Option<Move>,
    exact: bool,
    /// Plies of search behind the value: as many as asked, or fewer when the search ran out of
    /// [`ReviewOptions::node_budget`] (0 when exact).
    depth: u32,
}

/// Reviews every ply of `game`.
///
/// `progress` is called with the steps done so far: first with none, then as steps finish
/// (on one thread, before each step), ending with all of them; a caller may block in it to let
/// more urgent work run. `cancel` stops the review between and inside steps.
///
/// # Errors
/// [`ReviewError::Cancelled`] when `cancel` is set.
pub fn review(
    game: &Game,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<PlyReview>, ReviewError> {
    let solved = Mutex::new(HashMap::new());
    let reviewer = Reviewer::new(*options, cancel, &solved);
    let threads = options.threads;
    let plies = game.plies();
    let boards: Vec<Board> = (0..=plies.len()).filter_map(|ply| game.board_after(ply)).collect();
    let total = boards.len() + plies.len();
    let mut reported = None;
    let mut report = |done: usize| {
        if reported.is_none_or(|last| done > last) {
            reported = Some(done);
            progress(Progress { done, total });
        }
    };
    report(0);

    // The values of every position. Those the solver may take come first, from the end of
    // the game: they get smaller towards the end, and once one runs out of nodes, the larger
    // ones before it would too, so it and they are searched with the rest.
    let mut values: Vec<Option<Value>> = vec![None; boards.len()];
    let solvable: Vec<usize> =
        (0..boards.len()).rev().filter(|&index| reviewer.solvable(&boards[index])).collect();
    let solves = run_each(
        &solvable,
        threads,
        |&index| reviewer.solve(&boards[index]),
        |solve| !matches!(solve, Ok(Some(_))),
        &mut |done| report(done),
    );
    for (&index, solve) in solvable.iter().zip(solves) {
        match solve {
            Some(Ok(Some(value))) => values[index] = Some(value),
            Some(Err(error)) => return Err(error),
            Some(Ok(None)) | None => break,
        }
    }
    let unsolved: Vec<usize> = (0..boards.len()).rev().filter(|&i| values[i].is_none()).collect();
    let settled = boards.len() - unsolved.len();
    let depth = options.depth.max(1);
    let searches = run_each(
        &unsolved,
        threads,
        |&index| reviewer.search(&boards[index], depth),
        Result::is_err,
        &mut |done| report(settled + done),
    );
    for (&index, search) in unsolved.iter().zip(searches) {
        values[index] = Some(search.unwrap_or(Err(ReviewError::Cancelled))?);
    }
    let values: Vec<Value> = values.into_iter().flatten().collect();

    let indices: Vec<usize> = (0..plies.len()).collect();
    let judged = run_each(
        &indices,
        threads,
        |&index| reviewer.judge(index, &boards, &values, plies[index]),
        Result::is_err,
        &mut |done| report(boards.len() + done),
    );
    let reviews = judged
        .into_iter()
        .map(|judged| judged.unwrap_or(Err(ReviewError::Cancelled)))
        .collect::<Result<Vec<_>, _>>()?;
    report(total);
    Ok(reviews)
}

/// The value of one legal move, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move (a pass when it is the only one).
    pub mv: Move,
    /// Whole discs for the mover: the final margin after this move and best play on.
    pub value: i32,
    /// Whether the value is the solver's.
    pub exact: bool,
}

/// Every legal move of a position, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionValues {
    /// Best first; moves of equal value in square order. A lone pass when the side to move
    /// must pass; empty once the game is over.
    pub moves: Vec<MoveValue>,
    /// Best play from the position, the best move first (at most [`BEST_LINE_PLIES`]).
    pub best_line: Vec<Move>,
}

impl PositionValues {
    /// How much better the best move is than the second best, in discs; `None` with fewer
    /// than two moves.
    pub fn margin(&self) -> Option<i32> {
        match self.moves.as_slice() {
            [best, second, ..] => Some(best.value - second.value),
            _ => None,
        }
    }
}

/// Every legal move of a position valued, and how far the searches behind the values looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valuation {
    pub values: PositionValues,
    /// The shallowest search behind a value that is not exact, in plies from the position (the
    /// move valued included): [`ReviewOptions::depth`] unless a search ran out of
    /// [`ReviewOptions::node_budget`]. `None` when every value is exact, or there is none.
    pub searched_depth: Option<u32>,
}

/// Values every legal move of `board` the way a review values a ply: each position after a
/// move is solved when it has at most [`ReviewOptions::exact_empties`] empties (and the solver
/// finishes within its node limit), and searched one ply shallower than
/// [`ReviewOptions::depth`] otherwise, so all moves are valued on the same horizon.
///
/// `progress` is called with none valued, then as each move is (on one thread, before the
/// next), and once at the end; `cancel` stops it.
///
/// # Errors
/// [`ReviewError::Cancelled`] when `cancel` is set.
pub fn move_values(
    board: &Board,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&AtomicBool>,
) -> Result<PositionValues, ReviewError> {
    valuation(board, options, progress, cancel).map(|valuation| valuation.values)
}

/// [`move_values`], saying also how deep the searches went: with a
/// [`ReviewOptions::node_budget`] they may stop short of [`ReviewOptions::depth`].
///
/// # Errors
/// [`ReviewError::Cancelled`] when `cancel` is set.
pub fn valuation(
    board: &Board,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(Progress),
    cancel: Option<&AtomicBool>,
) -> Result<Valuation, ReviewError> {
    let solved = Mutex::new(HashMap::new());
    let reviewer = Reviewer::new(*options, cancel, &solved);
    let candidates: Vec<Move> = if board.is_game_over() {
        Vec::new()
    } else if board.must_pass() {
        vec![Move::Pass]
    } else {
        board.legal_moves().into_iter().map(Move::Place).collect()
    };
    let total = candidates.len() + 1;
    let depth = options.depth.max(1);
    let child_depth = depth.saturating_sub(1).max(1);
    let mover = board.side_to_move();
    progress(Progress { done: 0, total });
    let value_of = |&mv: &Move| {
        reviewer.check()?;
        let child = board.play(mv).map_err(|_| ReviewError::Cancelled)?;
        let value = reviewer.value(&child, child_depth, reviewer.solvable(&child))?;
        let score = if child.side_to_move() == mover { value.score } else { -value.score };
        let depth = (!value.exact).then_some(value.depth + 1);
        Ok((score, depth, MoveValue { mv, value: discs(score), exact: value.exact }))
    };
    let mut valued =
        run_each(&candidates, options.threads, value_of, Result::is_err, &mut |done| {
            progress(Progress { done, total });
        })
        .into_iter()
        .map(|value| value.unwrap_or(Err(ReviewError::Cancelled)))
        .collect::<Result<Vec<_>, ReviewError>>()?;
    // Stable: equal values keep square order.
    valued.sort_by_key(|(score, _, _)| std::cmp::Reverse(*score));
    let best_line = match valued.first() {
        Some((_, _, best)) => reviewer.line(board, best.mv, best.exact, depth)?,
        None => Vec::new(),
    };
    progress(Progress { done: total, total });
    let searched_depth = valued.iter().filter_map(|(_, depth, _)| *depth).min();
    let moves = valued.into_iter().map(|(_, _, value)| value).collect();
    Ok(Valuation { values: PositionValues { moves, best_line }, searched_depth })
}

/// Round 1/100 disc to whole discs, halves away from zero.
fn discs(centi: i32) -> i32 {
    if centi >= 0 { (centi + 50) / 100 } else { -((-centi + 50) / 100) }
}

/// A value for the side to move of `board` seen from Black.
fn for_black(board: &Board, score: i32) -> i32 {
    if board.side_to_move() == Color::Black { score } else { -score }
}

/// Values and judges positions; shared by the threads of one review, whose exact values it
/// keeps for all of them.
struct Reviewer<'a> {
    options: ReviewOptions,
    cancel: Option<&'a AtomicBool>,
    solved: &'a Mutex<HashMap<Board, Value>>,
}

impl<'a> Reviewer<'a> {
    fn new(
        options: ReviewOptions,
        cancel: Option<&'a AtomicBool>,
        solved: &'a Mutex<HashMap<Board, Value>>,
    ) -> Self {
        Reviewer { options, cancel, solved }
    }

    /// The exact values found so far (a panic elsewhere leaves them valid).
    fn cache(&self) -> MutexGuard<'_, HashMap<Board, Value>> {
        self.solved.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn check(&self) -> Result<(), ReviewError> {
        match self.cancel {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(ReviewError::Cancelled),
            _ => Ok(()),
        }
    }

    fn solvable(&self, board: &Board) -> bool {
        board.empty().count() <= self.options.exact_empties
    }

    /// The exact value of `board`, or `None` when the solver runs out of nodes.
    fn solve(&self, board: &Board) -> Result<Option<Value>, ReviewError> {
        self.check()?;
        if let Some(&value) = self.cache().get(board) {
            return Ok(Some(value));
        }
        let options = SolveOptions {
            node_limit: Some(self.options.exact_node_limit),
            cancel: self.cancel,
            ..SolveOptions::default()
        };
        match solve::solve_with(board, &options) {
            Ok(solution) => {
                let value = Value {
                    score: solution.score * 100,
                    best: solution.best,
                    exact: true,
                    depth: 0,
                };
                self.cache().insert(*board, value);
                Ok(Some(value))
            }
            Err(SolveError::NodeLimit(_)) => Ok(None),
            Err(SolveError::Cancelled) => Err(ReviewError::Cancelled),
        }
    }

    /// The value of `board` from a search `depth` plies deep (exact when the game is over).
    fn search(&self, board: &Board, depth: u32) -> Result<Value, ReviewError> {
        self.check()?;
        if board.is_game_over() {
            let counts = board.counts();
            let diff = i32::from(counts.black) - i32::from(counts.white);
            let score = for_black(board, diff * 100);
            return Ok(Value { score, best: None, exact: true, depth: 0 });
        }
        if board.must_pass() {
            let after = board.play(Move::Pass).map_err(|_| ReviewError::Cancelled)?;
            let value = self.search(&after, depth)?;
            return Ok(Value { score: -value.score, best: Some(Move::Pass), ..value });
        }
        let limits = SearchLimits {
            max_depth: depth.max(1),
            node_budget: self.options.node_budget,
            exact_empties: 0,
            exact_node_limit: 0,
        };
        let mut search = Search::new(limits);
        match search.run(board, self.cancel) {
            Ok(choice) => Ok(Value {
                score: choice.score,
                best: Some(choice.mv),
                exact: false,
                // A search that ran out of nodes looked only as deep as its last iteration;
                // one that did not went as deep as asked, or needed.
                depth: if choice.nodes >= self.options.node_budget { choice.depth } else { depth },
            }),
            Err(SearchError::Cancelled | SearchError::GameOver) => Err(ReviewError::Cancelled),
        }
    }

    /// The value of `board` the way its neighbours in the game are valued: exact if solvable.
    fn value(&self, board: &Board, depth: u32, exact: bool) -> Result<Value, ReviewError> {
        if exact && let Some(value) = self.solve(board)? {
            return Ok(value);
        }
        self.search(board, depth)
    }

    /// The review of ply `index + 1`, played from `boards[index]`.
    fn judge(
        &self,
        index: usize,
        boards: &[Board],
        values: &[Value],
        played: Move,
    ) -> Result<PlyReview, ReviewError> {
        self.check()?;
        let before = boards[index];
        let after = boards[index + 1];
        let value_before = values[index];
        let value_after = values[index + 1];
        let color = before.side_to_move();
        let exact = value_before.exact && value_after.exact;
        let depth = self.options.depth.max(1);
        let source = if exact { Source::Exact } else { Source::Searched { depth } };
        let legal = before.legal_moves().count();
        // The mover's view of the position after the move.
        let mover_after =
            if after.side_to_move() == color { value_after.score } else { -value_after.score };

        let (best, best_centi, played_centi, class) = if played == Move::Pass || legal == 1 {
            let score = if exact { mover_after } else { value_before.score };
            (vec![played], score, score, Class::Forced)
        } else if exact {
            let engine_best = value_before.best.unwrap_or(played);
            let mut best = vec![engine_best];
            if before.empty().count() <= ALL_BEST_EMPTIES {
                for square in before.legal_moves() {
                    let mv = Move::Place(square);
                    if mv == engine_best {
                        continue;
                    }
                    let child = before.play(mv).map_err(|_| ReviewError::Cancelled)?;
                    if let Some(value) = self.solve(&child)? {
                        let score =
                            if child.side_to_move() == color { value.score } else { -value.score };
                        if score >= value_before.score {
                            best.push(mv);
                        }
                    }
                }
            } else if played != engine_best && mover_after >= value_before.score {
                best.push(played);
            }
            let best_centi = value_before.score.max(mover_after);
            (best, best_centi, mover_after, Class::Best)
        } else {
            // A searched position: the move played is valued one ply shallower from the
            // position after it, on the same horizon as the root search valued the best move.
            let engine_best = value_before.best.unwrap_or(played);
            let played_centi = if played == engine_best {
                value_before.score
            } else {
                let child = self.search(&after, depth.saturating_sub(1).max(1))?;
                if after.side_to_move() == color { child.score } else { -child.score }
            };
            let mut best = vec![engine_best];
            if played != engine_best && discs(played_centi) >= discs(value_before.score) {
                best.push(played);
            }
            (best, value_before.score.max(played_centi), played_centi, Class::Best)
        };
        let best_value = discs(best_centi);
        let played_value = discs(played_centi);
        let loss = (best_value - played_value).max(0);
        let class = if class == Class::Forced { class } else { Class::for_loss(loss) };
        let best_line = self.line(&before, best[0], exact, depth)?;
        Ok(PlyReview {
            ply: index + 1,
            color,
            played,
            value_before: discs(for_black(&before, value_before.score)),
            value_after: discs(for_black(&after, value_after.score)),
            best,
            best_value,
            played_value,
            loss,
            exact,
            source,
            class,
            best_line,
        })
    }

    /// Up to [`BEST_LINE_PLIES`] plies of best play from `board`, starting with `first`:
    /// the solver's moves when exact, otherwise searches one ply shallower at each step.
    fn line(
        &self,
        board: &Board,
        first: Move,
        exact: bool,
        depth: u32,
    ) -> Result<Vec<Move>, ReviewError> {
        let mut line = vec![first];
        let Ok(mut position) = board.play(first) else {
            return Ok(Vec::new());
        };
        let mut depth = depth;
        while line.len() < BEST_LINE_PLIES && !position.is_game_over() {
            let next = if position.must_pass() {
                Move::Pass
            } else if position.legal_moves().count() == 1 {
                position.legal_moves().into_iter().next().map_or(Move::Pass, Move::Place)
            } else {
                depth = depth.saturating_sub(1).max(1);
                match self.value(&position, depth, exact && self.solvable(&position))?.best {
                    Some(mv) => mv,
                    None => break,
                }
            };
            line.push(next);
            match position.play(next) {
                Ok(after) => position = after,
                Err(_) => break,
            }
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Record, Square};

    fn game(moves: &str) -> Game {
        moves.parse::<Record>().unwrap().into_game()
    }

    fn quick() -> ReviewOptions {
        ReviewOptions { depth: 4, exact_empties: 14, ..ReviewOptions::default() }
    }

    /// A full game: level 8 against itself after f5 (60 plies).
    const FULL: &str = "f5 d6 c3 d3 c4 f4 f6 g5 e6 f7 h5 g6 e7 c5 b6 g4 d2 d7 h6 b5 c6 c7 a6 a4 h3 g3 b4 b3 h4 c2 f3 a3 a5 a7 b1 e3 g8 e1 b2 g2 f2 g1 h1 h2 d8 f8 e2 c1 f1 a1 a2 d1 b8 c8 a8 e8 b7 g7 h7 h8";

    /// A random game up to Black's pass with one empty left.
    const PASSING: &str = "f5 f6 d3 e3 f2 f4 e6 c4 b3 d7 g3 d6 d8 c5 b4 f3 e7 h2 g4 h5 c6 c8 h4 d2 g2 f8 e8 b6 g7 f7 c3 h3 g6 f1 b7 h8 c7 g8 d1 h6 g1 a7 b5 e1 h7 a2 a8 a5 h1 b8 e2 c1 c2 g5 a4 b2 b1 a3 a6";

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(Class::for_loss(0), Class::Best);
        assert_eq!(Class::for_loss(2), Class::Good);
        assert_eq!(Class::for_loss(INACCURACY), Class::Inaccuracy);
        assert_eq!(Class::for_loss(MISTAKE - 1), Class::Inaccuracy);
        assert_eq!(Class::for_loss(MISTAKE), Class::Mistake);
        assert_eq!(Class::for_loss(BLUNDER - 1), Class::Mistake);
        assert_eq!(Class::for_loss(BLUNDER), Class::Blunder);
        assert_eq!((INACCURACY, MISTAKE, BLUNDER), (3, 6, 10));
    }

    #[test]
    fn the_shortest_game_ends_with_a_blunder() {
        // d3 c3 b3 d2 e1 d6 d7 e3 f4: White's d7 lets Black take White's last discs.
        let plies =
            review(&game("d3 c3 b3 d2 e1 d6 d7 e3 f4"), &quick(), &mut |_| {}, None).unwrap();
        assert_eq!(plies.len(), 9);
        let last = &plies[8];
        assert_eq!((last.ply, last.color, last.value_after), (9, Color::Black, 13));
        let d6 = &plies[5];
        assert_eq!((d6.color, d6.played), (Color::White, Move::Place(Square::D6)));
        // With 50 and more empties the values come from the search; only the end is exact.
        assert!(plies.iter().all(|ply| !ply.exact));
        assert!(
            plies.iter().all(|ply| ply.loss >= 0 && ply.best_value - ply.played_value == ply.loss)
        );
        let blunder = &plies[7];
        assert_eq!(blunder.color, Color::White);
        assert_eq!(blunder.played, Move::Place(Square::E3));
        assert_eq!(blunder.class, Class::Blunder);
    }

    #[test]
    fn values_are_exact_in_the_last_empties_and_agree_with_the_solver() {
        let game = game(FULL);
        let options = quick();
        let plies = review(&game, &options, &mut |_| {}, None).unwrap();
        assert_eq!(plies.len(), 60);
        for ply in &plies {
            let before = game.board_after(ply.ply - 1).unwrap();
            let after = game.board_after(ply.ply).unwrap();
            let solvable = after.empty().count() <= options.exact_empties
                && before.empty().count() <= options.exact_empties;
            assert_eq!(ply.exact, solvable, "ply {}", ply.ply);
            if ply.exact {
                assert_eq!(ply.source, Source::Exact);
                let solved = solve::solve(&before).score;
                assert_eq!(ply.best_value, solved, "ply {}", ply.ply);
                assert_eq!(ply.value_before, for_black(&before, solved), "ply {}", ply.ply);
                let after_score = for_black(&after, solve::solve(&after).score);
                assert_eq!(ply.value_after, after_score, "ply {}", ply.ply);
            } else {
                assert_eq!(ply.source, Source::Searched { depth: 4 });
            }
            assert_eq!(ply.loss, ply.best_value - ply.played_value, "ply {}", ply.ply);
            assert!(ply.loss >= 0);
            assert!(!ply.best_line.is_empty() && ply.best_line.len() <= BEST_LINE_PLIES);
            assert_eq!(ply.best_line[0], ply.best[0]);
        }
        // The last ply ends the game: Black's final margin.
        let result = game.result().unwrap();
        let margin = i32::from(result.black) - i32::from(result.white);
        assert_eq!(plies[59].value_after, margin);
    }

    #[test]
    fn a_pass_or_a_lone_move_is_forced_and_a_best_move_loses_nothing() {
        // d3 c3 b3 b2 f5 a3 a1 c1: Black must pass after c1 (the pass is ply 9).
        let game = game("d3 c3 b3 b2 f5 a3 a1 c1 e3");
        let plies = review(&game, &quick(), &mut |_| {}, None).unwrap();
        let pass = &plies[8];
        assert_eq!((pass.played, pass.class, pass.loss), (Move::Pass, Class::Forced, 0));
        assert_eq!(pass.best, vec![Move::Pass]);
        for ply in &plies {
            if ply.best.contains(&ply.played) {
                assert_eq!(ply.loss, 0, "ply {}", ply.ply);
                assert!(matches!(ply.class, Class::Best | Class::Forced), "ply {}", ply.ply);
            }
        }
    }

    #[test]
    fn an_endgame_blunder_is_exact_and_classed_a_blunder() {
        // From the full game's position at 12 empties, every move is solved; the worst legal
        // move played there must be a blunder or the best, as its loss says.
        let full = game(FULL);
        let ply = 48;
        let before = full.board_after(ply).unwrap();
        let (worst, worst_score) = before
            .legal_moves()
            .into_iter()
            .map(|square| {
                let child = before.play(Move::Place(square)).unwrap();
                let score = solve::solve(&child).score;
                let mover =
                    if child.side_to_move() == before.side_to_move() { score } else { -score };
                (Move::Place(square), mover)
            })
            .min_by_key(|(_, score)| *score)
            .unwrap();
        let best = solve::solve(&before).score;
        let mut moves: Vec<Move> = full.plies()[..ply].to_vec();
        moves.push(worst);
        let game = Game::from_moves(Board::start(), moves).unwrap();
        let plies = review(&game, &quick(), &mut |_| {}, None).unwrap();
        let last = plies.last().unwrap();
        assert!(last.exact);
        assert_eq!((last.best_value, last.played_value), (best, worst_score));
        assert_eq!(last.loss, best - worst_score);
        assert_eq!(last.class, Class::for_loss(best - worst_score));
        assert!(best - worst_score >= BLUNDER, "the worst move loses {}", best - worst_score);
        assert_eq!(last.class, Class::Blunder);
    }

    #[test]
    fn reviews_are_deterministic_report_progress_and_can_be_cancelled() {
        let game = game("f5 d6 c3 d3 c4 f4 f6 g5 e6 f7");
        let mut seen = Vec::new();
        let first = review(&game, &quick(), &mut |p| seen.push(p), None).unwrap();
        let second = review(&game, &quick(), &mut |_| {}, None).unwrap();
        assert_eq!(first, second);
        assert_eq!(seen.first(), Some(&Progress { done: 0, total: 21 }));
        assert_eq!(seen.last(), Some(&Progress { done: 21, total: 21 }));
        let cancel = AtomicBool::new(true);
        assert_eq!(
            review(&game, &quick(), &mut |_| {}, Some(&cancel)),
            Err(ReviewError::Cancelled)
        );
    }

    #[test]
    fn a_review_shared_among_threads_is_the_review_on_one() {
        let game = game(FULL);
        // Solves from 18 empties with few nodes: the larger ones run out and are searched.
        let options = ReviewOptions { exact_empties: 18, exact_node_limit: 30_000, ..quick() };
        let one = review(&game, &options, &mut |_| {}, None).unwrap();
        let empties_after = |ply: &PlyReview| game.board_after(ply.ply).unwrap().empty().count();
        assert!(one.iter().any(|ply| ply.exact));
        assert!(one.iter().any(|ply| !ply.exact && empties_after(ply) <= 18));
        let mut seen = Vec::new();
        let shared = ReviewOptions { threads: 3, ..options };
        let three = review(&game, &shared, &mut |p| seen.push(p.done), None).unwrap();
        assert_eq!(three, one);
        let total = 2 * game.plies().len() + 1;
        assert_eq!((seen.first(), seen.last()), (Some(&0), Some(&total)));
        assert!(seen.windows(2).all(|pair| pair[0] < pair[1]), "{seen:?}");
    }

    #[test]
    fn a_review_shared_among_threads_can_be_cancelled() {
        let cancel = AtomicBool::new(true);
        let options = ReviewOptions { threads: 2, ..quick() };
        assert_eq!(
            review(&game(FULL), &options, &mut |_| {}, Some(&cancel)),
            Err(ReviewError::Cancelled)
        );
    }

    #[test]
    fn without_a_node_budget_the_values_are_searched_as_deep_as_asked() {
        let board = game("f5 d6 c3 d3 c4").board();
        let options = ReviewOptions { depth: 4, exact_empties: 0, ..ReviewOptions::default() };
        let valued = valuation(&board, &options, &mut |_| {}, None).unwrap();
        assert_eq!(valued.searched_depth, Some(4));
    }

    #[test]
    fn a_node_budget_cuts_the_searches_short_and_the_valuation_says_how_deep_they_went() {
        let board = game("f5 d6 c3 d3 c4").board();
        let options = ReviewOptions {
            depth: 6,
            exact_empties: 0,
            node_budget: 300,
            ..ReviewOptions::default()
        };
        let valued = valuation(&board, &options, &mut |_| {}, None).unwrap();
        let depth = valued.searched_depth.unwrap();
        assert!((2..6).contains(&depth), "depth {depth}");
        assert_eq!(valued.values.moves.len(), board.legal_moves().into_iter().count());
        assert_eq!(valued.values.best_line.first(), Some(&valued.values.moves[0].mv));
    }

    #[test]
    fn a_valuation_of_exact_values_only_names_no_search_depth() {
        let board = game(FULL).board_after(50).unwrap();
        let valued = valuation(&board, &quick(), &mut |_| {}, None).unwrap();
        assert!(valued.values.moves.iter().all(|value| value.exact));
        assert_eq!(valued.searched_depth, None);
    }

    #[test]
    fn move_values_shared_among_threads_are_the_values_on_one() {
        for (moves, empties) in [("f5 d6 c3 d3 c4", 55), (FULL, 14)] {
            let game = game(moves);
            let board = game.board_after(60 - empties).unwrap();
            let one = move_values(&board, &quick(), &mut |_| {}, None).unwrap();
            let shared = ReviewOptions { threads: 4, ..quick() };
            assert_eq!(move_values(&board, &shared, &mut |_| {}, None).unwrap(), one);
        }
    }

    /// The mover's exact value after `mv`.
    fn solved_after(board: &Board, mv: Move) -> i32 {
        let child = board.play(mv).unwrap();
        let score = solve::solve(&child).score;
        if child.side_to_move() == board.side_to_move() { score } else { -score }
    }

    #[test]
    fn near_the_end_every_move_gets_the_solvers_value_best_first() {
        let board = game(FULL).board_after(46).unwrap();
        assert_eq!(board.empty().count(), 14);
        let values = move_values(&board, &quick(), &mut |_| {}, None).unwrap();
        assert_eq!(values.moves.len(), board.legal_moves().into_iter().count());
        for value in &values.moves {
            assert!(value.exact);
            assert_eq!(value.value, solved_after(&board, value.mv), "{}", value.mv);
        }
        assert!(values.moves.windows(2).all(|pair| pair[0].value >= pair[1].value));
        assert_eq!(values.moves[0].value, solve::solve(&board).score);
        assert_eq!(values.best_line.first(), Some(&values.moves[0].mv));
        assert_eq!(values.margin(), Some(values.moves[0].value - values.moves[1].value));
    }

    #[test]
    fn in_the_midgame_every_legal_move_is_searched() {
        let board = game("f5 d6 c3 d3 c4").board();
        let mut seen = Vec::new();
        let values = move_values(&board, &quick(), &mut |p| seen.push(p), None).unwrap();
        let mut moves: Vec<Move> = values.moves.iter().map(|value| value.mv).collect();
        moves.sort_by_key(|mv| mv.to_string());
        let mut legal: Vec<Move> = board.legal_moves().into_iter().map(Move::Place).collect();
        legal.sort_by_key(|mv| mv.to_string());
        assert_eq!(moves, legal);
        assert!(values.moves.iter().all(|value| !value.exact));
        assert_eq!(values.best_line.len(), BEST_LINE_PLIES);
        let total = legal.len() + 1;
        assert_eq!(seen.first(), Some(&Progress { done: 0, total }));
        assert_eq!(seen.last(), Some(&Progress { done: total, total }));
    }

    #[test]
    fn a_side_that_must_pass_has_the_pass_alone_and_a_finished_game_nothing() {
        // After d3 c3 b3 d2 e1 d6 d7 e3, Black's f4 takes every white disc.
        let over = game("d3 c3 b3 d2 e1 d6 d7 e3 f4").board();
        assert!(over.is_game_over());
        let none = move_values(&over, &quick(), &mut |_| {}, None).unwrap();
        assert_eq!(none, PositionValues { moves: Vec::new(), best_line: Vec::new() });
        assert_eq!(none.margin(), None);

        // One empty left, a1, where only White can play: Black must pass.
        let game = game(PASSING);
        assert_eq!(game.plies().last(), Some(&Move::Pass));
        let passing = game.board_after(game.plies().len() - 1).unwrap();
        assert!(passing.must_pass());
        let values = move_values(&passing, &quick(), &mut |_| {}, None).unwrap();
        assert_eq!(values.moves.len(), 1);
        assert_eq!(values.moves[0].mv, Move::Pass);
        assert_eq!(values.moves[0].value, solve::solve(&passing).score);
    }

    #[test]
    fn valuing_moves_can_be_cancelled() {
        let board = game("f5 d6 c3 d3 c4").board();
        let cancel = AtomicBool::new(true);
        let cancelled = move_values(&board, &quick(), &mut |_| {}, Some(&cancel));
        assert_eq!(cancelled, Err(ReviewError::Cancelled));
    }
}
