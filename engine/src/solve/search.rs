//! The recursive search above the last four empties.
//!
//! Fail-soft alpha-beta with principal variation search: the first move gets the full window,
//! the others a null window and a re-search when they beat it. Positions with many empties
//! use the transposition table (with enhanced transposition cutoffs), try the table's move
//! before generating the others, order the rest fastest-first (weighing the pattern
//! evaluation from 14 empties, by a shallow search from 17; both with the ordering weights,
//! [`crate::ai::pattern::order_weights`]) and try a stability cutoff;
//! positions with five or six empties order by parity only. A parent's move list already holds each
//! child's legal moves, which the child takes instead of generating them again. In a parallel
//! solve, nodes of [`SPLIT_MIN`] or more empties share their moves out once the first has not
//! refuted them ([`super::parallel`]).
//!
//! The same search also runs as a selective presearch before an exact solve of
//! [`PRESEARCH_MIN`] or more empties: nodes of [`PROBCUT_MIN`] or more empties are cut when a
//! shallow search is far beyond the window (ProbCut), and the bounds it stores are marked as
//! likely. The exact search takes only the moves of such entries, so it searches first what
//! the presearch found best, and still proves every score itself.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::parallel::{Pool, SplitPoint};
use super::stability::stable_discs;
use super::tt::NO_MOVE;
use super::{SQUARE_CLASSES, Search, SolveError, odd_quadrants};
use crate::ai::pattern;
use crate::movegen;
use crate::{Move, Square};

/// Most empties searched by parity ordering alone: at six, fastest-first ordering saves 4 %
/// of the nodes on FFO #40-#49 but takes more time.
const SHALLOW_MAX: u32 = 6;
/// Fewest empties at which positions are stored in the transposition table; below, a
/// table lookup (a likely cache miss) costs more than it saves (from seven empties, 4.6 %
/// fewer nodes than from eight on FFO #40-#49 and about 1.5 % less time).
const TABLE_MIN: u32 = 7;
/// Fewest empties at which children are looked up in the table before searching
/// (enhanced transposition cutoff).
const ETC_MIN: u32 = 10;
/// Fewest empties at which moves are ordered by a shallow search ([`Search::estimate`], two
/// plies deep, one more every three empties) rather than by the replies they leave.
const ESTIMATE_MIN: u32 = 17;
/// Fewest empties at which every ordering estimate is exact; below, the moves worse than the
/// best estimated so far get a bound only (about 2 % fewer nodes on FFO #40-#49; bounds at
/// every depth cost 7.7 % more).
const EXACT_ESTIMATE_MIN: u32 = 20;
/// Fewest empties at which the fastest-first keys also weigh the pattern evaluation of each
/// child; below, evaluating costs more time than the nodes it saves (on FFO #40-#49, from 14
/// empties 11 % fewer nodes, from 12 empties 15 % fewer but no faster).
const EVAL_KEY_MIN: u32 = 14;
/// What a disc of the child's evaluation weighs in a fastest-first key: a quarter of one
/// reply of the opponent's (on FFO #40-#49, 10.9 % fewer nodes; a whole reply 6.1 %, half
/// of one 9.3 %, an eighth 9.5 %).
const EVAL_KEY_PER_DISC: i32 = 1 << 13;
/// Deepest ordering search, so that many empties do not make ordering dearer than solving.
const ESTIMATE_MAX_DEPTH: u32 = 6;
/// Fewest empties at which a node of a parallel solve shares its moves with idle threads
/// (Young Brothers Wait); below, a subtree is too small to be worth the hand-over.
const SPLIT_MIN: u32 = 12;

/// Fewest empties of a position worth a presearch: a selective search whose moves, left in
/// the table, order the exact search (about 15 % fewer nodes on FFO #40-#49; with 20 empties
/// it costs more than it saves).
pub(super) const PRESEARCH_MIN: u32 = 22;
/// Fewest empties at which a node of the presearch tries a probable cut-off.
const PROBCUT_MIN: u32 = 10;
/// How far (1/100 disc) a shallow search's score must be beyond the window for the presearch
/// to cut, chosen by node counts: with the ordering weights, 9 discs took the fewest nodes on FFO #40-#49 (542 M, against 553 M at 8, 567 M at
/// 7 and at 10, 586 M at 12) and 1.1 % fewer than 10 on 60 positions of other games.
const PROBCUT_MARGIN: i32 = 900;

/// The depth of the shallow search that decides a probable cut-off: two plies at
/// [`PROBCUT_MIN`] empties, one more every four empties.
#[inline]
fn probcut_depth(empties: u32) -> u32 {
    2 + (empties - PROBCUT_MIN) / 4
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Stands for legal moves not computed yet: never a real move set, since a position always
/// has discs.
const UNKNOWN: u64 = u64::MAX;

/// A move with its flips and its ordering key.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    flipped: u64,
    /// The opponent's legal moves after this one.
    moves: u64,
    square: u8,
    key: i32,
}

/// A fixed bonus by square: corners are good, squares next to an empty corner bad.
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// Discs of `p` that are corners or next to an owned corner along an edge.
#[inline]
fn corner_stability(p: u64) -> u32 {
    let anchored = ((p & 0x0100_0000_0000_0001) << 1)
        | ((p & 0x8000_0000_0000_0080) >> 1)
        | ((p & 0x0000_0000_0000_0081) << 8)
        | ((p & 0x8100_0000_0000_0000) >> 8)
        | CORNERS;
    (anchored & p).count_ones()
}

/// How far below `2 * empties` alpha may be for the stability cutoff to be tried (2 before;
/// 10 saves about 5 % of the nodes on FFO #40-#49, and more saves nothing more).
const STABILITY_MARGIN: i32 = 10;

/// Lowest alpha at which the stability cutoff is worth trying with `empties` empties: the
/// opponent must own enough stable discs to bring the best possible score down to alpha.
#[inline]
fn stability_threshold(empties: u32) -> i32 {
    2 * empties as i32 - STABILITY_MARGIN
}

/// The stability cutoff: the score's upper bound, when the opponent's stable discs bring it to
/// `alpha` or below. Not tried when `alpha` is far below a full board's score, nor when the
/// opponent has too few discs for enough of them to be stable.
#[inline]
pub(super) fn stability_cutoff(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha < stability_threshold(empties) || 64 - 2 * o.count_ones() as i32 > alpha {
        return None;
    }
    let upper = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
    (upper <= alpha).then_some(upper)
}

/// An evaluation's unit: 1/100 disc.
const DISC: i32 = 100;
/// What a disc of a finished game weighs in ordering estimates: ten times an evaluated one, so
/// that a proven win ranks above any likely one.
const FINISHED_FIRST: i32 = 10 * DISC;

/// Bigger than any estimate.
const INFINITE: i32 = 1 << 20;
/// The best score of a node before any move is scored: below every score, and safe to negate
/// (a search stopped by its node limit or a cancel may return it).
pub(super) const NO_SCORE: i32 = -2 * INFINITE;

/// Counts `moves`, corners twice.
#[inline]
fn weighted_mobility(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

impl<'a> Search<'a> {
    /// The root: the score within `(alpha, beta)` and a move achieving it.
    pub(super) fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        let empties = (!(p | o)).count_ones();
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                self.nodes += 1;
                return (self.final_score(p, o), None);
            }
            self.nodes += 1;
            let score = -self.solve_any(o, p, -beta, -alpha, empties, UNKNOWN);
            return (score, Some(Move::Pass));
        }
        if self.visit() {
            return (0, None);
        }
        let table_move = self.table_for(empties).probe(p, o).map_or(NO_MOVE, |entry| entry.best);
        let (score, square) = self.deep_moves(p, o, moves, alpha, beta, empties, table_move);
        if self.selective && self.stopped.is_none() {
            // The exact search starts from the presearch's best move.
            self.table_for(empties).store(p, o, empties, alpha, beta, score, square, true);
        }
        if self.stopped.is_some() {
            return (0, None);
        }
        (score, Square::new(square).map(Move::Place))
    }

    /// Searches a child position (the opponent to move) and returns its score for us: the
    /// first child with the full window, the others with a null window first.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn pvs_child(
        &mut self,
        np: u64,
        no: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
        first: bool,
        moves: u64,
    ) -> i32 {
        if first || beta - alpha <= 1 {
            return -self.solve_any(np, no, -beta, -alpha, empties, moves);
        }
        let score = -self.solve_any(np, no, -alpha - 1, -alpha, empties, moves);
        if score > alpha && score < beta && self.stopped.is_none() {
            -self.solve_any(np, no, -beta, -alpha, empties, moves)
        } else {
            score
        }
    }

    /// The score of any position with `empties` empty squares, within `(alpha, beta)`;
    /// `moves` are the mover's legal moves if known, else [`UNKNOWN`].
    pub(super) fn solve_any(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
        moves: u64,
    ) -> i32 {
        match empties {
            0 => {
                self.nodes += 1;
                self.final_score(p, o)
            }
            1 => self.solve_1(p, (!(p | o)).trailing_zeros() as usize),
            2 => {
                let empty = !(p | o);
                let first = empty.trailing_zeros() as usize;
                let second = (empty & (empty - 1)).trailing_zeros() as usize;
                self.solve_2(p, o, alpha, beta, [first, second])
            }
            3 => {
                let empty = !(p | o);
                let first = empty.trailing_zeros() as usize;
                let rest = empty & (empty - 1);
                let second = rest.trailing_zeros() as usize;
                let third = (rest & (rest - 1)).trailing_zeros() as usize;
                self.solve_3(p, o, alpha, beta, [first, second, third])
            }
            4 => self.solve_4(p, o, alpha, beta),
            n => {
                let moves = if moves == UNKNOWN { movegen::moves(p, o) } else { moves };
                if n <= SHALLOW_MAX {
                    self.shallow(p, o, alpha, beta, n, moves)
                } else {
                    self.deep(p, o, alpha, beta, n, moves)
                }
            }
        }
    }

    /// Few empties: parity ordering, no table.
    fn shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        moves: u64,
    ) -> i32 {
        if self.visit() {
            return 0;
        }
        if moves == 0 {
            let replies = movegen::moves(o, p);
            if replies == 0 {
                return self.final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, empties, replies);
        }
        if let Some(upper) = stability_cutoff(p, o, alpha, empties) {
            return upper;
        }
        let odd = odd_quadrants(!(p | o));
        let mut best = NO_SCORE;
        let mut first = true;
        for group in [odd, !odd] {
            for class in SQUARE_CLASSES {
                let mut rest = moves & group & class;
                while rest != 0 {
                    let square = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let flipped = movegen::flips(p, o, square);
                    let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
                    let score = self.pvs_child(np, no, alpha, beta, empties - 1, first, UNKNOWN);
                    first = false;
                    if score > best {
                        best = score;
                        if score >= beta {
                            return score;
                        }
                        alpha = alpha.max(score);
                    }
                }
            }
        }
        best
    }

    /// Many empties: table, enhanced transposition cutoff, stability and fastest-first.
    fn deep(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
        moves: u64,
    ) -> i32 {
        if self.visit() {
            return 0;
        }
        if moves == 0 {
            let replies = movegen::moves(o, p);
            if replies == 0 {
                return self.final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha, empties, replies);
        }
        if let Some(upper) = stability_cutoff(p, o, alpha, empties) {
            return upper;
        }
        let mut table_move = NO_MOVE;
        let use_table = empties >= TABLE_MIN;
        if let Some(entry) = if use_table { self.table_for(empties).probe(p, o) } else { None } {
            if self.selective || !entry.selective {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                if lower == upper {
                    return lower;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            table_move = entry.best;
        }
        if self.selective
            && empties >= PROBCUT_MIN
            && let Some(score) = self.probable_cut(p, o, alpha, beta, empties)
        {
            if use_table && self.stopped.is_none() {
                self.table_for(empties).store(p, o, empties, alpha, beta, score, NO_MOVE, true);
            }
            return score;
        }
        let alpha_start = alpha;
        let (best, best_move) = self.deep_moves(p, o, moves, alpha, beta, empties, table_move);
        if use_table && self.stopped.is_none() {
            let table = self.table_for(empties);
            table.store(p, o, empties, alpha_start, beta, best, best_move, self.selective);
        }
        best
    }

    /// The moves of a deep node: the table's move first, alone (when it refutes the
    /// position, no other move is even generated), then the others in order.
    #[allow(clippy::too_many_arguments)]
    fn deep_moves(
        &mut self,
        p: u64,
        o: u64,
        mut moves: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        table_move: u8,
    ) -> (i32, u8) {
        let mut best = NO_SCORE;
        let mut best_move = NO_MOVE;
        if table_move != NO_MOVE && moves & (1 << table_move) != 0 {
            let square = usize::from(table_move);
            let flipped = movegen::flips(p, o, square);
            let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
            let score = self.pvs_child(np, no, alpha, beta, empties - 1, true, UNKNOWN);
            if self.stopped.is_some() {
                return (0, NO_MOVE);
            }
            if score >= beta {
                return (score, table_move);
            }
            (best, best_move) = (score, table_move);
            alpha = alpha.max(score);
            moves &= !(1 << square);
            if moves == 0 {
                return (best, best_move);
            }
        }
        let start = self.candidates.len();
        self.push_moves(p, o, moves, empties);
        let (score, square) =
            self.search_moves(p, o, alpha, beta, empties, start, best == NO_SCORE);
        self.candidates.truncate(start);
        if score > best && self.stopped.is_none() { (score, square) } else { (best, best_move) }
    }

    /// Searches the candidates from `start` to the end of the stack, best-looking first: the
    /// best score and move, or an enhanced transposition cutoff. `first` says that no move of
    /// the node was searched yet (the first gets the full window). In a parallel solve, the
    /// moves after the first go to a split point when a thread is idle.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        start: usize,
        first: bool,
    ) -> (i32, u8) {
        let end = self.candidates.len();
        if empties >= ETC_MIN {
            let table = self.table_for(empties - 1);
            for candidate in &self.candidates[start..end] {
                let square = usize::from(candidate.square);
                let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
                if let Some(entry) =
                    table.probe(np, no).filter(|entry| self.selective || !entry.selective)
                {
                    let score = -i32::from(entry.upper);
                    if score >= beta {
                        return (score, candidate.square);
                    }
                }
            }
        }
        // After the table's cutoffs, which make these evaluations needless.
        if empties >= ESTIMATE_MIN {
            self.estimate_keys(p, o, empties, start);
        } else if empties >= EVAL_KEY_MIN {
            self.weigh_evaluations(p, o, start);
        }
        let mut best = NO_SCORE;
        let mut best_move = NO_MOVE;
        for i in start..end {
            if let Some(pool) = self.pool
                && (i > start || !first)
                && empties >= SPLIT_MIN
                && pool.has_idle()
            {
                // The first move did not refute the node: the others go to a split
                // point, best-looking first.
                let mut rest = self.candidates[i..end].to_vec();
                rest.sort_by_key(|candidate| std::cmp::Reverse(candidate.key));
                let split = SplitPoint::new(
                    p,
                    o,
                    empties,
                    alpha,
                    beta,
                    best,
                    best_move,
                    rest,
                    self.selective,
                    self.split.clone(),
                );
                return self.split(pool, split);
            }
            let candidate = self.pick(i, end);
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let first = first && i == start;
            let score = self.pvs_child(np, no, alpha, beta, empties - 1, first, candidate.moves);
            if self.stopped.is_some() {
                return (0, NO_MOVE);
            }
            if score > best {
                best = score;
                best_move = candidate.square;
                if score >= beta {
                    return (best, best_move);
                }
                alpha = alpha.max(score);
            }
        }
        (best, best_move)
    }

    /// Searches the moves of `split` with the other threads and returns its best score and
    /// move. Once no move is left to take, helps with split points below it until every
    /// thread is done there.
    fn split(&mut self, pool: &'a Pool, split: SplitPoint) -> (i32, u8) {
        let split = Arc::new(split);
        pool.publish(&split);
        self.work_split(&split);
        pool.withdraw(&split);
        if self.stopped.is_some() {
            split.stop.store(true, Ordering::Relaxed);
        }
        while let Some(below) = pool.wait_for_work(Some(&split), self.stopped.is_none()) {
            self.work_split(&below);
            pool.leave(&below);
            if self.aborted {
                // Only `below` (or a split point up to `split`) stopped: carry on waiting.
                self.stopped = None;
                self.aborted = false;
            }
        }
        if split.parent_stopped() {
            // A split point further up was refuted or stopped: unwind to it.
            if self.stopped.is_none() {
                self.stopped = Some(SolveError::Cancelled);
                self.aborted = true;
            }
            return (0, NO_MOVE);
        }
        if self.stopped.is_some() && !self.aborted {
            return (0, NO_MOVE);
        }
        // Done, or stopped by a refutation of this very node.
        self.stopped = None;
        self.aborted = false;
        split.result()
    }

    /// Takes moves of `split` and searches them until none is left or the node is refuted.
    pub(super) fn work_split(&mut self, split: &Arc<SplitPoint>) {
        let outer = self.split.replace(Arc::clone(split));
        let outer_selective = std::mem::replace(&mut self.selective, split.selective);
        while let Some((candidate, alpha)) = split.take() {
            let square = usize::from(candidate.square);
            let (p, o) = (split.p, split.o);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let (beta, empties) = (split.beta, split.empties - 1);
            let score = self.pvs_child(np, no, alpha, beta, empties, false, candidate.moves);
            if self.stopped.is_some() || split.record(candidate.square, score) {
                break;
            }
        }
        self.split = outer;
        self.selective = outer_selective;
    }

    /// Swaps the best-looking candidate of `i..end` into place `i` and returns it.
    #[inline]
    fn pick(&mut self, i: usize, end: usize) -> Candidate {
        let mut best = i;
        for j in i + 1..end {
            if self.candidates[j].key > self.candidates[best].key {
                best = j;
            }
        }
        self.candidates.swap(i, best);
        self.candidates[i]
    }

    /// A shallow alpha-beta search over the evaluation with the ordering weights (in 1/100
    /// disc), `depth` plies deep; a game finished on the way scores its disc difference times
    /// `per_disc`.
    fn estimate(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        per_disc: i32,
    ) -> i32 {
        if self.visit() {
            return 0;
        }
        if depth == 0 {
            return pattern::evaluate_with(pattern::order_weights(), p, o);
        }
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return (p.count_ones() as i32 - o.count_ones() as i32) * per_disc;
            }
            return -self.estimate(o, p, depth, -beta, -alpha, per_disc);
        }
        // Corners first and squares next to corners last, the order that cuts off soonest
        // for its cost; the score is the same in any order.
        let mut best = -INFINITE;
        for class in SQUARE_CLASSES {
            let mut rest = moves & class;
            while rest != 0 {
                let square = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let flipped = movegen::flips(p, o, square);
                let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let score = -self.estimate(np, no, depth - 1, -beta, -alpha, per_disc);
                if score > best {
                    best = score;
                    if score >= beta {
                        return best;
                    }
                    alpha = alpha.max(score);
                }
            }
        }
        best
    }

    /// Presearch only: `beta` when a shallow search says the score is very likely at least
    /// `beta`, `alpha` when very likely at most `alpha` (ProbCut).
    fn probable_cut(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> Option<i32> {
        let depth = probcut_depth(empties);
        if beta < 64 {
            let high = beta * DISC + PROBCUT_MARGIN;
            if self.estimate(p, o, depth, high - 1, high, DISC) >= high {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let low = alpha * DISC - PROBCUT_MARGIN;
            if self.estimate(p, o, depth, low, low + 1, DISC) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// The moves of `p` with their flips and, below [`ESTIMATE_MIN`] empties, fastest-first
    /// ordering keys: fewest replies for the opponent (corners counted twice), then more
    /// stable corner discs, fewer potential replies and better squares; from [`EVAL_KEY_MIN`]
    /// empties [`Search::weigh_evaluations`] adds to them once the table's cutoffs are tried.
    /// With more empties the keys are left for [`Search::estimate_keys`].
    fn push_moves(&mut self, p: u64, o: u64, moves: u64, empties: u32) {
        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let flipped = movegen::flips(p, o, square);
            let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
            let replies = movegen::moves(np, no);
            let key = if empties >= ESTIMATE_MIN {
                0
            } else {
                let empty = !(np | no);
                let mobility = weighted_mobility(replies);
                let potential = (movegen::neighbours(no) & empty).count_ones() as i32;
                let corners = corner_stability(no) as i32;
                -mobility * (1 << 15) + corners * (1 << 11) - potential * (1 << 5)
                    + SQUARE_VALUE[square]
            };
            self.candidates.push(Candidate { flipped, moves: replies, square: square as u8, key });
        }
    }

    /// Adds to the fastest-first keys of the candidates from `start` on the evaluation (with the
    /// ordering weights) of the position each leaves, [`EVAL_KEY_PER_DISC`] a disc.
    fn weigh_evaluations(&mut self, p: u64, o: u64, start: usize) {
        let weights = pattern::order_weights();
        for candidate in &mut self.candidates[start..] {
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let value = -pattern::evaluate_knowing(weights, np, no, candidate.moves);
            candidate.key += value * EVAL_KEY_PER_DISC / DISC;
        }
    }

    /// Replaces the keys of the candidates from `start` on by shallow searches
    /// ([`Search::estimate`], two plies deep, one more every three empties). Below
    /// [`EXACT_ESTIMATE_MIN`] empties only an estimate that beats every earlier one is exact;
    /// the others are bounds, from a window closed at the best so far, which order them well
    /// enough for fewer nodes.
    fn estimate_keys(&mut self, p: u64, o: u64, empties: u32, start: usize) {
        let depth = (2 + (empties - ESTIMATE_MIN) / 3).min(ESTIMATE_MAX_DEPTH);
        let mut best = -INFINITE;
        for i in start..self.candidates.len() {
            let candidate = self.candidates[i];
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let ceiling = if empties >= EXACT_ESTIMATE_MIN { INFINITE } else { -best };
            let estimate = -self.estimate(np, no, depth, -INFINITE, ceiling, FINISHED_FIRST);
            best = best.max(estimate);
            self.candidates[i].key = estimate;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::numbers;

    #[test]
    fn the_stability_cutoff_is_taken_exactly_when_the_stable_discs_allow_it() {
        let mut numbers = numbers(0x2545_F491_4F6C_DD1D);
        let mut next = move || numbers.next().unwrap();
        let mut cutoffs = 0;
        for _ in 0..20_000 {
            // Nearly full boards, where stable discs are common.
            let empty = next() & next() & next();
            let o = next() & !empty;
            let p = !(o | empty);
            let empties = empty.count_ones();
            for alpha in -64..=64 {
                let upper = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
                let allowed = alpha >= stability_threshold(empties) && upper <= alpha;
                let expected = allowed.then_some(upper);
                assert_eq!(stability_cutoff(p, o, alpha, empties), expected, "{p:#x} {o:#x}");
                cutoffs += usize::from(expected.is_some());
            }
        }
        assert!(cutoffs > 0);
    }
}
