//! The search: iterative deepening negamax alpha–beta with principal-variation search and a
//! transposition table, handing the last empties to the exact solver.

use std::sync::atomic::{AtomicBool, Ordering};

use super::eval::{DISC, Evaluation, PROVEN, final_score, plain};
use super::ordering::MoveList;
use super::probcut;
use super::tt::{self, Bound, NO_MOVE, Table};
use super::{Choice, Level, SearchError};
use crate::solve::{self, Goal, Solution, SolveError, SolveOptions};
use crate::{Board, Move, Square, movegen};

/// Bounds of one search. Every bound counts work, never time, so results are reproducible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration, in plies (a forced pass does not count).
    pub max_depth: u32,
    /// Nodes the midgame search may visit; the iteration that runs out is cut short.
    pub node_budget: u64,
    /// With this many empties or fewer, the exact solver is tried first (0: never).
    pub exact_empties: u32,
    /// Nodes the exact solver may visit. If they run out, a win/loss/draw solve gets half as
    /// many, and its move is played if it wins or draws; otherwise the midgame search decides.
    pub exact_node_limit: u64,
}

impl SearchLimits {
    /// These limits shrunk so that a whole search visits at most about `max_nodes` nodes (at
    /// least a few hundred, enough for a one-ply look): a third for the exact solver (and
    /// half as much again if it must fall back to win/loss/draw), half for the midgame. The
    /// solver is tried only as deep as such a share usually finishes. Limits already within
    /// the bound are unchanged.
    pub fn within(self, max_nodes: u64) -> SearchLimits {
        let max_nodes = max_nodes.max(MIN_NODES);
        let exact_node_limit = self.exact_node_limit.min(max_nodes / 3);
        // A deeper solve rarely finishes within a smaller share; a failed one would only
        // waste it.
        let solvable = match exact_node_limit {
            0..20_000 => 10,
            20_000..200_000 => 12,
            200_000..2_000_000 => 14,
            2_000_000..16_000_000 => 18,
            _ => u32::MAX,
        };
        SearchLimits {
            max_depth: self.max_depth,
            node_budget: self.node_budget.min(max_nodes / 2),
            exact_empties: self.exact_empties.min(solvable),
            exact_node_limit,
        }
    }
}

/// The fewest nodes [`SearchLimits::within`] leaves a search.
const MIN_NODES: u64 = 300;

/// Larger than any score.
const INFINITY: i32 = 30_000;

/// Nodes with less depth left than this skip the transposition table: they are the most
/// numerous and cheapest to redo, and would crowd out the valuable entries.
const TABLE_DEPTH: u32 = 2;

/// Nodes between two polls of the cancel flag.
const POLL_INTERVAL: u64 = 1024;

/// A reusable search: the limits, the evaluation and the transposition table.
///
/// Each [`Search::run`] starts from an empty table, so its result depends only on the board
/// and the settings.
#[derive(Debug)]
pub struct Search {
    limits: SearchLimits,
    evaluation: Evaluation,
    spread: i32,
    probcut: bool,
    table: Table,
}

impl Search {
    /// A search with these limits and the trained evaluation, always choosing the best move.
    pub fn new(limits: SearchLimits) -> Search {
        Search::with(limits, Evaluation::Pattern, 0)
    }

    /// The search a level plays with.
    pub fn for_level(level: Level) -> Search {
        Search::with(level.limits(), level.evaluation(), level.spread())
    }

    /// The search a level plays with, within about `max_nodes` nodes
    /// ([`SearchLimits::within`]): the computer short of time on its clock.
    pub fn for_level_within(level: Level, max_nodes: u64) -> Search {
        Search::with(level.limits().within(max_nodes), level.evaluation(), level.spread())
    }

    fn with(limits: SearchLimits, evaluation: Evaluation, spread: i32) -> Search {
        // About one entry per two nodes of budget, between 1 Ki and 1 Mi entries.
        let entries = (limits.node_budget / 2).clamp(1 << 10, 1 << 20) as usize;
        // ProbCut's margins were measured with the trained evaluation.
        let probcut = evaluation.is_pattern();
        Search { limits, evaluation, spread, probcut, table: Table::new(entries) }
    }

    /// The same search over another evaluation (ProbCut follows: on for the trained one, with
    /// either weights).
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Search {
        self.evaluation = evaluation;
        self.probcut = evaluation.is_pattern();
        self
    }

    /// The same search with probabilistic cut-offs (ProbCut, `ai::probcut`) on or off.
    /// They are on for the trained evaluation, whose margins were measured.
    pub fn with_probcut(mut self, on: bool) -> Search {
        self.probcut = on;
        self
    }

    /// The static evaluation of `board` for the side to move, in 1/100 disc (no search).
    pub fn static_score(&self, board: &Board) -> i32 {
        let (p, o) = board.raw();
        self.evaluation.score(p, o)
    }

    /// The limits of this search.
    pub fn limits(&self) -> SearchLimits {
        self.limits
    }

    /// Chooses a move for the side to move of `board`.
    ///
    /// A side that must pass gets [`Move::Pass`] at once (depth 0, no nodes). With at most
    /// `exact_empties` empties the exact solver is tried first; if it runs out of nodes, the
    /// midgame search decides. A position with a single legal move is not searched.
    ///
    /// # Errors
    /// [`SearchError::GameOver`] if neither side can move; [`SearchError::Cancelled`] if
    /// `cancel` is set before or during the search (no move is returned then).
    pub fn run(
        &mut self,
        board: &Board,
        cancel: Option<&AtomicBool>,
    ) -> Result<Choice, SearchError> {
        let is_cancelled = || cancel.is_some_and(|flag| flag.load(Ordering::Relaxed));
        if is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let (p, o) = board.raw();
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return Err(SearchError::GameOver);
            }
            let score = plain(-self.evaluation.score(o, p));
            return Ok(Choice { mv: Move::Pass, score, depth: 0, nodes: 0, exact: false });
        }

        let empties = board.empty().count();
        let mut spent = 0;
        if empties <= self.limits.exact_empties && self.limits.exact_node_limit > 0 {
            match solve_end(board, self.limits.exact_node_limit, cancel)? {
                Endgame::Solved(choice) => return Ok(choice),
                Endgame::Unsolved { nodes } => spent = nodes,
            }
        }

        if moves.count_ones() == 1 {
            let square = moves.trailing_zeros() as usize;
            let flipped = movegen::flips(p, o, square);
            let score = plain(-self.evaluation.score(o ^ flipped, p ^ flipped ^ (1 << square)));
            let mv = Move::Place(Square::ALL[square]);
            return Ok(Choice { mv, score, depth: 0, nodes: spent, exact: false });
        }

        self.table.clear();
        let mut worker = Worker {
            table: &mut self.table,
            evaluation: self.evaluation,
            probcut: self.probcut,
            cancel,
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
        };
        let mut choice = worker.deepen(p, o, self.limits, self.spread, empties);
        if is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        choice.nodes += spent;
        Ok(choice)
    }
}

/// What the exact solver made of a position.
enum Endgame {
    Solved(Choice),
    /// No move it could vouch for, after visiting `nodes` nodes.
    Unsolved {
        nodes: u64,
    },
}

/// The exact solver's choice: first the exact score; if that takes more than `limit` nodes,
/// only who wins (with half as many nodes), and that move is kept if it wins or draws.
fn solve_end(
    board: &Board,
    limit: u64,
    cancel: Option<&AtomicBool>,
) -> Result<Endgame, SearchError> {
    let empties = board.empty().count();
    let mut spent = 0;
    for (goal, node_limit) in [(Goal::Exact, limit), (Goal::WinLossDraw, limit / 2)] {
        let options =
            SolveOptions { goal, node_limit: Some(node_limit), cancel, ..SolveOptions::default() };
        match solve::solve_with(board, &options) {
            Ok(Solution { score, best: Some(mv), nodes }) if goal == Goal::Exact || score >= 0 => {
                let exact = goal == Goal::Exact;
                return Ok(Endgame::Solved(Choice {
                    mv,
                    score: score * DISC,
                    depth: empties,
                    nodes: spent + nodes,
                    exact,
                }));
            }
            Ok(solution) => spent += solution.nodes,
            Err(SolveError::Cancelled) => return Err(SearchError::Cancelled),
            Err(SolveError::NodeLimit(nodes)) => spent += nodes,
        }
    }
    Ok(Endgame::Unsolved { nodes: spent })
}

/// A root move and its latest score.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    square: u8,
    flipped: u64,
    score: i32,
}

/// The state of one midgame search.
struct Worker<'a> {
    table: &'a mut Table,
    evaluation: Evaluation,
    /// Whether nodes try probabilistic cut-offs.
    probcut: bool,
    cancel: Option<&'a AtomicBool>,
    nodes: u64,
    /// The node count at which the search stops.
    budget: u64,
    /// Set when the budget ran out or the flag was raised; scores after it are meaningless.
    stopped: bool,
}

impl Worker<'_> {
    /// Iterative deepening from depth 1. The first iteration always completes; later ones stop
    /// when the node budget runs out. The root has at least one legal move.
    fn deepen(
        &mut self,
        p: u64,
        o: u64,
        limits: SearchLimits,
        spread: i32,
        empties: u32,
    ) -> Choice {
        let list = MoveList::ordered(p, o, movegen::moves(p, o), NO_MOVE);
        let mut roots = [RootMove { square: 0, flipped: 0, score: -INFINITY }; 64];
        let roots = &mut roots[..list.len()];
        for (i, root) in roots.iter_mut().enumerate() {
            (root.square, root.flipped) = list.get(i);
        }

        let mut best = (roots[0].square, -INFINITY, 0, false);
        let max_depth = limits.max_depth.max(1);
        for depth in 1..=max_depth {
            let finished = if spread > 0 {
                self.root_all(p, o, depth, roots)
            } else {
                self.root_pvs(p, o, depth, roots)
            };
            if finished || roots[0].score > -INFINITY {
                // A cut-short iteration searched the previous best move again first: whatever
                // leads now is at least as well founded.
                best = (roots[0].square, roots[0].score, depth, finished && depth >= empties);
            }
            if !finished || self.stopped || depth >= empties {
                break;
            }
            self.budget = limits.node_budget;
            if self.nodes >= self.budget {
                break;
            }
        }

        let (mut square, mut score, depth, exact) = best;
        if spread > 0 {
            // Among the moves within `spread` of the best, pick one by the position's hash,
            // in square order so that the pick does not depend on the search order.
            let mut candidates = [(0u8, 0i32); 64];
            let mut count = 0;
            for root in roots.iter().filter(|r| r.score >= score - spread) {
                candidates[count] = (root.square, root.score);
                count += 1;
            }
            let candidates = &mut candidates[..count];
            candidates.sort_unstable();
            if let Some(&(chosen, chosen_score)) =
                candidates.get((tt::hash(p, o) % count.max(1) as u64) as usize)
            {
                (square, score) = (chosen, chosen_score);
            }
        }
        Choice {
            mv: Move::Place(Square::ALL[usize::from(square)]),
            score: plain(score),
            depth,
            nodes: self.nodes,
            exact,
        }
    }

    /// One principal-variation iteration at the root. Leaves the best move first in `roots`
    /// (the others keep their order) and says whether the iteration finished. Scores of moves
    /// not searched in a cut-short iteration are reset to `-INFINITY`.
    fn root_pvs(&mut self, p: u64, o: u64, depth: u32, roots: &mut [RootMove]) -> bool {
        let mut alpha = -INFINITY;
        let mut best = 0;
        for root in roots.iter_mut() {
            root.score = -INFINITY;
        }
        for (i, root) in roots.iter_mut().enumerate() {
            let (np, no) = (o ^ root.flipped, p ^ root.flipped ^ (1 << root.square));
            let score = if i == 0 {
                -self.negamax(np, no, depth - 1, -INFINITY, INFINITY)
            } else {
                let probe = -self.negamax(np, no, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && !self.stopped {
                    -self.negamax(np, no, depth - 1, -INFINITY, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            root.score = score;
            if score > alpha {
                alpha = score;
                best = i;
            }
        }
        roots[..=best].rotate_right(1);
        !self.stopped
    }

    /// One iteration scoring every root move with a full window (for choices among near-best
    /// moves). Sorts `roots` best first and says whether the iteration finished.
    fn root_all(&mut self, p: u64, o: u64, depth: u32, roots: &mut [RootMove]) -> bool {
        let mut scores = [0; 64];
        for (root, score) in roots.iter().zip(&mut scores) {
            let (np, no) = (o ^ root.flipped, p ^ root.flipped ^ (1 << root.square));
            *score = -self.negamax(np, no, depth - 1, -INFINITY, INFINITY);
            if self.stopped {
                return false;
            }
        }
        for (root, &score) in roots.iter_mut().zip(&scores) {
            root.score = score;
        }
        roots.sort_by_key(|root| -root.score);
        true
    }

    /// Counts a node; says whether the search must stop.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget
            || (self.nodes.is_multiple_of(POLL_INTERVAL)
                && self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Fail-soft negamax alpha–beta with principal-variation search, for the mover `p`.
    fn negamax(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.visit() {
            return 0;
        }
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.negamax(o, p, depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.evaluation.score(p, o);
        }

        let mut hint = NO_MOVE;
        let use_table = depth >= TABLE_DEPTH;
        let entry = if use_table { self.table.probe(p, o) } else { None };
        if let Some(entry) = entry {
            hint = entry.best;
            if u32::from(entry.depth) >= depth {
                let score = i32::from(entry.score);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::Empty => false,
                };
                if cut {
                    return score;
                }
            }
        }

        if self.probcut
            && depth >= probcut::MIN_DEPTH
            && beta - alpha == 1
            && let Some(score) = self.probcut(p, o, depth, beta)
        {
            return score;
        }

        let list = MoveList::ordered(p, o, moves, hint);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_square = NO_MOVE;
        for i in 0..list.len() {
            let (square, flipped) = list.get(i);
            let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
            let score = if i == 0 {
                -self.negamax(np, no, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(np, no, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(np, no, depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_square = square;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if use_table {
            self.table.store(p, o, depth, best_score, bound, best_square);
        }
        best_score
    }

    /// A null-window node at `beta`, `depth` plies deep: `beta` if a shallow search says the
    /// score is well above it, `beta - 1` if well below, `None` when it cannot tell.
    fn probcut(&mut self, p: u64, o: u64, depth: u32, beta: i32) -> Option<i32> {
        let empties = (!(p | o)).count_ones();
        let margin = probcut::margin(depth, empties);
        let shallow = probcut::shallow_depth(depth);
        let high = beta + margin;
        if high < PROVEN && self.negamax(p, o, shallow, high - 1, high) >= high {
            return Some(beta);
        }
        let low = beta - 1 - margin;
        if !self.stopped && low > -PROVEN && self.negamax(p, o, shallow, low, low + 1) <= low {
            return Some(beta - 1);
        }
        if self.stopped { Some(0) } else { None }
    }
}
