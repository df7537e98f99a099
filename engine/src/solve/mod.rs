//! Exact endgame solver: the final disc difference under perfect play by both sides.
//!
//! Scores are for the side to move. With [`Scoring::Discs`] (Outflank's rule) a finished game
//! scores its disc difference; [`Scoring::EmptiesToWinner`] gives the empty squares to the
//! winner, as published test suites do. A solve is deterministic: the same board and options
//! give the same score, move and node count on any machine.
//!
//! How: a first search with a window around 0 settles who wins, a second one the exact score
//! on that side (principal variation search, fail-soft); after a presearch (below), the first
//! window is around the presearch's score instead. Positions with 8 or more empties use
//! a transposition table: a small one (1 MB, mostly in cache) for 8 to 11 empties and one of
//! up to 128 MB (for 23 or more empties) above, with enhanced transposition cutoffs from 10
//! empties. A node searches the table's move first, alone, and generates and orders the others
//! only when it did not refute the position: by a shallow search over the pattern evaluation
//! with its own ordering weights (17 or more empties) or fastest-first (fewest replies left to
//! the opponent). Each move keeps the replies it leaves, so the child does not generate its
//! moves again. A stable-disc estimate cuts positions that cannot reach alpha. From 22
//! empties, a selective presearch (probable cut-offs) first leaves its best moves in the table,
//! and the exact search tries them first; it never takes the presearch's bounds. With 5
//! empties, moves in quadrants with an odd number of empties come first; the last four empties
//! have their own solvers, and the last one only counts flips.
//!
//! With [`SolveOptions::threads`] above one, threads share the tables (lockless) and split the
//! moves of nodes whose first move did not refute them (Young Brothers Wait); see
//! [`solve_with`].
//!
//! ```
//! use outflank_engine::solve::{solve, Solution};
//! use outflank_engine::{Board, Move};
//!
//! // Black (X) cannot move; White takes h8, flipping h5-h7 and e5-g7.
//! let board: Board = format!("{}{}- X", "O".repeat(32), "X".repeat(31)).parse().unwrap();
//! let Solution { score, best, .. } = solve(&board);
//! assert_eq!((score, best), (25 - 39, Some(Move::Pass)));
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use thiserror::Error;

use crate::{Board, Move};
use parallel::{PARALLEL_POLL, Pool, SplitPoint};

mod last_empties;
mod parallel;
mod search;
mod stability;
mod tt;

/// How a finished game with empty squares is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scoring {
    /// Outflank's rule: the final disc difference; empty squares count for nobody.
    #[default]
    Discs,
    /// The convention of published test suites (FFO): empty squares go to the winner.
    EmptiesToWinner,
}

/// What the search must establish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Goal {
    /// The exact final score.
    #[default]
    Exact,
    /// Only who wins: the returned score is the sign of the exact score, `-1`, `0` or `1`.
    WinLossDraw,
}

/// Limits and conventions for [`solve_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions<'a> {
    pub scoring: Scoring,
    pub goal: Goal,
    /// Give up with [`SolveError::NodeLimit`] after this many nodes.
    pub node_limit: Option<u64>,
    /// Give up with [`SolveError::Cancelled`] once this flag is set (polled every few thousand
    /// nodes).
    pub cancel: Option<&'a AtomicBool>,
    /// Threads to search with; 0 and 1 mean one (the caller's). More threads share the
    /// transposition table and split the work (see [`solve_with`]); the score is the same,
    /// the node count and the move chosen among equals may differ from run to run.
    pub threads: usize,
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final score for the side to move (or its sign, for [`Goal::WinLossDraw`]).
    pub score: i32,
    /// A move reaching the score: `None` only when the game is over, `Some(Move::Pass)` when
    /// the side to move must pass.
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Why a solve stopped before finding the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    #[error("node limit of {0} reached")]
    NodeLimit(u64),
    #[error("search cancelled")]
    Cancelled,
}

/// Solves `board` exactly, scoring by disc difference, with no limits.
///
/// The work grows about threefold with every empty square: 20 empties take well under a
/// second, 26 about a minute. Use [`solve_with`] with a node limit for positions that may
/// have more.
pub fn solve(board: &Board) -> Solution {
    match solve_with(board, &SolveOptions::default()) {
        Ok(solution) => solution,
        // Without a limit or a cancel flag the search always finishes.
        Err(_) => unreachable!("an unlimited solve cannot stop early"),
    }
}

/// Solves `board` under `options`.
///
/// # Errors
/// [`SolveError::NodeLimit`] when the node limit is reached first, [`SolveError::Cancelled`]
/// when the cancel flag is set during the search.
///
/// With `threads` above one, the caller's thread leads the search and the others help it by
/// Young Brothers Wait: at a node of 12 or more empties whose first move did not refute it,
/// the moves left are shared out among the threads that are idle, and a cutoff there stops
/// the others' searches below it. All of them use the same transposition tables. The leading thread alone decides
/// the result; the helpers stop when it is done. A solve with a node limit runs on one
/// thread whatever `threads` says: a budget in nodes is for bounded, repeatable work.
pub fn solve_with(board: &Board, options: &SolveOptions) -> Result<Solution, SolveError> {
    let (p, o) = board.raw();
    let empties = (!(p | o)).count_ones();
    let table = Tables {
        far: tt::Table::new(table_bits(empties)),
        near: tt::Table::new(NEAR_TABLE_BITS.min(table_bits(empties))),
    };
    let threads = if options.node_limit.is_some() { 1 } else { options.threads.max(1) };
    if threads == 1 || empties < PARALLEL_MIN {
        return solve_on(p, o, options, &table, None);
    }
    let pool = Pool::default();
    let helper_nodes = AtomicU64::new(0);
    let outcome = std::thread::scope(|scope| {
        for _ in 1..threads {
            let (table, pool, helper_nodes) = (&table, &pool, &helper_nodes);
            scope.spawn(move || {
                let helper_options =
                    SolveOptions { node_limit: None, cancel: Some(&pool.done), ..*options };
                let mut search = Search::new(&helper_options, table);
                search.pool = Some(pool);
                search.poll = PARALLEL_POLL;
                search.schedule_check();
                while let Some(split) = pool.wait_for_work(None, true) {
                    search.work_split(&split);
                    pool.leave(&split);
                    if !search.aborted && search.stopped.is_some() {
                        break;
                    }
                    search.stopped = None;
                    search.aborted = false;
                }
                helper_nodes.fetch_add(search.nodes, Ordering::Relaxed);
            });
        }
        let outcome = solve_on(p, o, options, &table, Some(&pool));
        pool.finish();
        outcome
    });
    outcome.map(|solution| Solution {
        nodes: solution.nodes + helper_nodes.load(Ordering::Relaxed),
        ..solution
    })
}

/// Fewest empties worth more than one thread: below, starting threads costs more than the
/// whole solve.
const PARALLEL_MIN: u32 = 14;

/// One thread's solve of `(p, o)`, leading the helpers of `pool` if given.
fn solve_on(
    p: u64,
    o: u64,
    options: &SolveOptions,
    table: &Tables,
    pool: Option<&Pool>,
) -> Result<Solution, SolveError> {
    let mut search = Search::new(options, table);
    if pool.is_some() {
        search.pool = pool;
        search.poll = PARALLEL_POLL;
        search.schedule_check();
    }
    // A flag set before the call cancels at once.
    search.check_limits();
    let (score, best) = search.goal(p, o, options.goal);
    // Leaves are counted without a check, so the last few may have gone past the limit.
    if let Some(limit) = options.node_limit.filter(|&limit| search.nodes > limit) {
        search.stopped.get_or_insert(SolveError::NodeLimit(limit));
    }
    if let Some(error) = search.stopped {
        return Err(error);
    }
    let score = match options.goal {
        Goal::Exact => score,
        Goal::WinLossDraw => score.signum(),
    };
    Ok(Solution { score, best, nodes: search.nodes })
}

/// Nodes between two polls of the cancel flag.
const POLL_INTERVAL: u64 = 4096;

/// The state of one solve.
#[derive(Debug)]
struct Search<'a> {
    scoring: Scoring,
    nodes: u64,
    node_limit: Option<u64>,
    cancel: Option<&'a AtomicBool>,
    /// Node count at which limits are next checked.
    next_check: u64,
    /// Set once the search must unwind; every score computed after it is meaningless.
    stopped: Option<SolveError>,
    table: &'a Tables,
    /// The move lists of the positions being searched, one after the other, so that the
    /// recursion allocates nothing.
    candidates: Vec<search::Candidate>,
    /// With several threads: the split points and idle threads.
    pool: Option<&'a Pool>,
    /// The innermost split point this thread is searching a move of.
    split: Option<Arc<SplitPoint>>,
    /// Whether `stopped` only means that a split point was refuted elsewhere (the search
    /// unwinds to it, then goes on).
    aborted: bool,
    /// Nodes between two polls of the limits and flags.
    poll: u64,
    /// Whether this is the presearch: probable cut-offs, and bounds stored as likely only.
    selective: bool,
}

impl<'a> Search<'a> {
    fn new(options: &SolveOptions<'a>, table: &'a Tables) -> Self {
        let mut search = Search {
            scoring: options.scoring,
            nodes: 0,
            node_limit: options.node_limit,
            cancel: options.cancel,
            next_check: 0,
            stopped: None,
            table,
            candidates: Vec::with_capacity(64 * 64),
            pool: None,
            split: None,
            aborted: false,
            poll: POLL_INTERVAL,
            selective: false,
        };
        search.schedule_check();
        search
    }

    fn schedule_check(&mut self) {
        let poll = self.nodes + self.poll;
        // The limit is exceeded by the node after the last allowed one.
        self.next_check = self.node_limit.map_or(poll, |limit| poll.min(limit.saturating_add(1)));
    }

    /// Counts a node; says whether the search must stop.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
        self.stopped.is_some()
    }

    #[cold]
    fn check_limits(&mut self) {
        if let Some(limit) = self.node_limit
            && self.nodes > limit
        {
            self.stopped = Some(SolveError::NodeLimit(limit));
        }
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            self.stopped = Some(SolveError::Cancelled);
        }
        if self.stopped.is_none() && self.split.as_ref().is_some_and(|split| split.stopped()) {
            self.stopped = Some(SolveError::Cancelled);
            self.aborted = true;
        }
        self.schedule_check();
    }

    /// The score `goal` asks for and a best move. With many empties, a presearch (the same
    /// search, selective) first leaves its best moves in the table to order the exact one, and
    /// its score is where the exact score is looked for first.
    fn goal(&mut self, p: u64, o: u64, goal: Goal) -> (i32, Option<Move>) {
        let guess = if (!(p | o)).count_ones() >= search::PRESEARCH_MIN {
            self.selective = true;
            let (guess, _) = self.goal_searched(p, o, goal, 0);
            self.selective = false;
            guess
        } else {
            0
        };
        self.goal_searched(p, o, goal, guess)
    }

    /// The search `goal` asks for, alone; an exact one looks around `guess` first.
    fn goal_searched(&mut self, p: u64, o: u64, goal: Goal, guess: i32) -> (i32, Option<Move>) {
        match goal {
            Goal::Exact => self.exact(p, o, guess),
            Goal::WinLossDraw => self.root(p, o, -1, 1),
        }
    }

    /// The exact score and a best move: first whether the score is `guess` (a window around
    /// it, which settles most of the tree cheaply), then the exact score on the side of it that
    /// was found.
    fn exact(&mut self, p: u64, o: u64, guess: i32) -> (i32, Option<Move>) {
        let (score, best) = self.root(p, o, guess - 1, guess + 1);
        if score < guess {
            self.root(p, o, -65, score + 1)
        } else if score > guess {
            self.root(p, o, score - 1, 65)
        } else {
            (score, best)
        }
    }

    /// The score of a finished game for the side owning `p`.
    #[inline]
    fn final_score(&self, p: u64, o: u64) -> i32 {
        final_score(self.scoring, p, o)
    }
}

/// The transposition tables: a small one (mostly in cache) for positions with few empties,
/// the most numerous and the quickest to redo, and a large one for the others.
#[derive(Debug)]
struct Tables {
    near: tt::Table,
    far: tt::Table,
}

impl Search<'_> {
    /// The table for positions with `empties` empties.
    #[inline]
    fn table_for(&self, empties: u32) -> &tt::Table {
        if empties < FAR_TABLE_MIN { &self.table.near } else { &self.table.far }
    }
}

/// Buckets of the small table, as a power of two: 1 MB, which mostly stays in a core's own
/// cache (FFO #40-#49 with 1 % more nodes than in 4 MB, and about 4 % faster).
const NEAR_TABLE_BITS: u32 = 14;

/// Fewest empties of the positions kept in the large table. Keeping those of 12 and 13
/// empties in the small one costs 2.2 % more nodes on FFO #40-#49 but saves about 4 % of the
/// time, as their probes then mostly hit the cache.
const FAR_TABLE_MIN: u32 = 14;

/// Buckets of the transposition table, as a power of two: enough for the nodes that store.
fn table_bits(empties: u32) -> u32 {
    empties.saturating_sub(2).clamp(10, 21)
}

/// The score of a finished game for the side owning `p`, under `scoring`.
fn final_score(scoring: Scoring, p: u64, o: u64) -> i32 {
    let diff = p.count_ones() as i32 - o.count_ones() as i32;
    match scoring {
        Scoring::Discs => diff,
        Scoring::EmptiesToWinner => {
            let empties = 64 - (p | o).count_ones() as i32;
            diff + diff.signum() * empties
        }
    }
}

/// The squares in the order shallow searches try them: corners, edges away from corners,
/// the inside, then the squares next to corners (edge, then diagonal).
const SQUARE_CLASSES: [u64; 5] = [
    0x8100_0000_0000_0081,
    0x3C00_8181_8181_003C,
    0x003C_7E7E_7E7E_3C00 & !0x0042_0000_0000_4200,
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];

/// The board's four quadrants.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

/// The quadrants holding an odd number of `empties`. Playing there first tends to leave the
/// opponent the move in the region's last square less often (the parity heuristic).
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    QUADRANTS.iter().filter(|&&q| (empties & q).count_ones() & 1 == 1).fold(0, |acc, &q| acc | q)
}
#[cfg(test)]
mod tests {
    use super::*;

    /// FFO #40 (20 empties).
    fn ffo_40() -> Board {
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X".parse().unwrap()
    }

    #[test]
    fn a_node_limited_solve_asked_for_two_threads_stops_at_its_limit_on_one() {
        let options = SolveOptions { threads: 2, node_limit: Some(50_000), ..Default::default() };
        assert_eq!(solve_with(&ffo_40(), &options), Err(SolveError::NodeLimit(50_000)));
    }

    #[test]
    fn a_parallel_solve_stops_when_cancelled_midway() {
        let cancel = AtomicBool::new(false);
        let options = SolveOptions { threads: 2, cancel: Some(&cancel), ..Default::default() };
        let outcome = std::thread::scope(|scope| {
            let solving = scope.spawn(|| solve_with(&ffo_40(), &options));
            std::thread::sleep(std::time::Duration::from_millis(20));
            cancel.store(true, Ordering::Relaxed);
            solving.join().unwrap()
        });
        assert_eq!(outcome, Err(SolveError::Cancelled));
    }

    #[test]
    fn two_threads_find_the_published_score() {
        let options = SolveOptions {
            threads: 2,
            scoring: Scoring::EmptiesToWinner,
            goal: Goal::Exact,
            ..Default::default()
        };
        let solution = solve_with(&ffo_40(), &options).unwrap();
        assert_eq!((solution.score, solution.best), (38, Some(Move::Place(crate::Square::A2))));
        let sign = solve_with(&ffo_40(), &SolveOptions { goal: Goal::WinLossDraw, ..options });
        assert_eq!(sign.unwrap().score, 1);
    }

    /// FFO #40 searched from the root on one thread, `selective` or not, after every child
    /// was stored as a selective win by the whole board for the opponent.
    fn ffo_40_under_false_selective_entries(selective: bool) -> i32 {
        let (p, o) = ffo_40().raw();
        let options = SolveOptions { scoring: Scoring::EmptiesToWinner, ..Default::default() };
        let table = Tables { far: tt::Table::new(16), near: tt::Table::new(NEAR_TABLE_BITS) };
        let mut moves = crate::movegen::moves(p, o);
        while moves != 0 {
            let square = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let flipped = crate::movegen::flips(p, o, square);
            let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
            table.far.store(np, no, 19, -65, 65, 64, tt::NO_MOVE, true);
        }
        let mut search = Search::new(&options, &table);
        search.selective = selective;
        search.root(p, o, -65, 65).0
    }

    #[test]
    fn a_selective_search_trusts_selective_bounds() {
        assert_eq!(ffo_40_under_false_selective_entries(true), -64);
    }

    #[test]
    fn an_exact_search_takes_no_bound_from_a_selective_entry() {
        assert_eq!(ffo_40_under_false_selective_entries(false), 38);
    }
}
