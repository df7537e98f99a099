//! The recursive search above the last four empties.
//!
//! Fail-soft alpha-beta with principal variation search: the first move gets the full window,
//! the others a null window and a re-search when they beat it. Positions with many empties
//! use the transposition table (with enhanced transposition cutoffs), order moves
//! fastest-first and try a stability cutoff; positions with few empties order by parity only.

use super::stability::stable_discs;
use super::tt::NO_MOVE;
use super::{SQUARE_CLASSES, Search, odd_quadrants};
use crate::movegen;
use crate::{Move, Square};

/// Most empties searched by parity ordering alone.
const SHALLOW_MAX: u32 = 6;
/// Fewest empties at which positions are stored in the transposition table; below, a
/// table lookup (a likely cache miss) costs more than it saves.
const TABLE_MIN: u32 = 8;
/// Fewest empties at which children are looked up in the table before searching
/// (enhanced transposition cutoff).
const ETC_MIN: u32 = 10;
/// Fewest empties at which moves are ordered by a shallow search ([`Search::estimate`], two
/// plies deep, one more every three empties) rather than by the replies they leave.
const ESTIMATE_MIN: u32 = 16;
/// Deepest ordering search, so that many empties do not make ordering dearer than solving.
const ESTIMATE_MAX_DEPTH: u32 = 6;
/// Fewest empties at which a parallel solve's threads claim the positions they search, and
/// leave other threads' claims for last.
const CLAIM_MIN: u32 = 12;
/// Whether ordering searches use the trained evaluation.
const TRAINED_ORDERING: bool = true;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A move with its flips and its ordering key.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    flipped: u64,
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

/// Lowest alpha at which the stability cutoff is worth trying with `empties` empties: the
/// opponent must own enough stable discs to bring the best possible score down to alpha.
#[inline]
fn stability_threshold(empties: u32) -> i32 {
    2 * empties as i32 - 2
}

/// Bigger than any estimate.
const INFINITE: i32 = 1 << 20;

/// Counts `moves`, corners twice.
#[inline]
fn weighted_mobility(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// A rough evaluation for move ordering, for the side to move: mobility, potential mobility
/// and corner discs.
fn evaluate(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    let mobility =
        weighted_mobility(movegen::moves(p, o)) - weighted_mobility(movegen::moves(o, p));
    let potential = (movegen::neighbours(o) & empty).count_ones() as i32
        - (movegen::neighbours(p) & empty).count_ones() as i32;
    let corners = corner_stability(p) as i32 - corner_stability(o) as i32;
    mobility * 16 + potential * 4 + corners * 32
}

impl Search<'_> {
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
            let score = -self.solve_any(o, p, -beta, -alpha, empties);
            return (score, Some(Move::Pass));
        }
        if self.visit() {
            return (0, None);
        }
        let start = self.candidates.len();
        self.push_moves(p, o, moves, empties, NO_MOVE);
        let end = self.candidates.len();
        if let Some(shared) = self.shared.filter(|shared| shared.helper > 0) {
            // A helper starts elsewhere among the root moves than the leader does.
            for i in start..end {
                self.pick(i, end);
            }
            let turn = shared.helper as usize % (end - start);
            self.candidates[start..end].rotate_left(turn);
            for candidate in &mut self.candidates[start..end] {
                candidate.key = 0;
            }
        }
        let mut alpha = alpha;
        let mut best_score = i32::MIN;
        let mut best = None;
        for i in start..end {
            let candidate = self.pick(i, end);
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let score = self.pvs_child(np, no, alpha, beta, empties - 1, i == start);
            if self.stopped.is_some() {
                return (0, None);
            }
            if score > best_score {
                best_score = score;
                best = Square::new(candidate.square).map(Move::Place);
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        self.candidates.truncate(start);
        (best_score, best)
    }

    /// Searches a child position (the opponent to move) and returns its score for us: the
    /// first child with the full window, the others with a null window first.
    #[inline]
    fn pvs_child(
        &mut self,
        np: u64,
        no: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
        first: bool,
    ) -> i32 {
        if first || beta - alpha <= 1 {
            return -self.solve_any(np, no, -beta, -alpha, empties);
        }
        let score = -self.solve_any(np, no, -alpha - 1, -alpha, empties);
        if score > alpha && score < beta && self.stopped.is_none() {
            -self.solve_any(np, no, -beta, -alpha, empties)
        } else {
            score
        }
    }

    /// The score of any position with `empties` empty squares, within `(alpha, beta)`.
    pub(super) fn solve_any(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
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
            n if n <= SHALLOW_MAX => self.shallow(p, o, alpha, beta, n),
            n => self.deep(p, o, alpha, beta, n),
        }
    }

    /// Few empties: parity ordering, no table.
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u32) -> i32 {
        if self.visit() {
            return 0;
        }
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return self.final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, empties);
        }
        if alpha >= stability_threshold(empties) {
            let upper = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
        }
        let odd = odd_quadrants(!(p | o));
        let mut best = i32::MIN;
        let mut first = true;
        for group in [odd, !odd] {
            for class in SQUARE_CLASSES {
                let mut rest = moves & group & class;
                while rest != 0 {
                    let square = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let flipped = movegen::flips(p, o, square);
                    let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
                    let score = self.pvs_child(np, no, alpha, beta, empties - 1, first);
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
    fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, empties: u32) -> i32 {
        if self.visit() {
            return 0;
        }
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return self.final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha, empties);
        }
        if alpha >= stability_threshold(empties) {
            let upper = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
        }
        let mut table_move = NO_MOVE;
        let use_table = empties >= TABLE_MIN;
        if let Some(entry) = if use_table { self.table.probe(p, o) } else { None } {
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
            table_move = entry.best;
        }
        let start = self.candidates.len();
        self.push_moves(p, o, moves, empties, table_move);
        let alpha_start = alpha;
        let claim =
            self.shared.filter(|_| empties >= CLAIM_MIN).map(|s| (s.busy, s.busy.claim(p, o)));
        let (best, best_move) = self.search_moves(p, o, alpha, beta, empties, start);
        if let Some((busy, key)) = claim {
            busy.release(key);
        }
        self.candidates.truncate(start);
        if use_table && self.stopped.is_none() {
            self.table.store(p, o, empties, alpha_start, beta, best, best_move);
        }
        best
    }

    /// Searches the candidates from `start` to the end of the stack, best-looking first: the
    /// best score and move, or an enhanced transposition cutoff.
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        start: usize,
    ) -> (i32, u8) {
        let end = self.candidates.len();
        if empties >= ETC_MIN {
            for candidate in &self.candidates[start..end] {
                let square = usize::from(candidate.square);
                let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
                if let Some(entry) = self.table.probe(np, no) {
                    let score = -i32::from(entry.upper);
                    if score >= beta {
                        return (score, candidate.square);
                    }
                }
            }
        }
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        // In a parallel solve, moves into positions another thread is searching wait until
        // the others are done (by then the table may hold their result).
        let busy = self.shared.filter(|_| empties > CLAIM_MIN).map(|shared| shared.busy);
        let mut deferred = [Candidate::default(); 32];
        let mut deferred_count = 0;
        for i in start..end {
            let candidate = self.pick(i, end);
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            if i > start
                && deferred_count < deferred.len()
                && busy.is_some_and(|busy| busy.is_busy(np, no))
            {
                deferred[deferred_count] = candidate;
                deferred_count += 1;
                continue;
            }
            let score = self.pvs_child(np, no, alpha, beta, empties - 1, i == start);
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
        for candidate in &deferred[..deferred_count] {
            let square = usize::from(candidate.square);
            let (np, no) = (o ^ candidate.flipped, p ^ candidate.flipped ^ (1 << square));
            let score = self.pvs_child(np, no, alpha, beta, empties - 1, false);
            if self.stopped.is_some() {
                return (0, NO_MOVE);
            }
            if score > best {
                best = score;
                best_move = candidate.square;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        (best, best_move)
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

    /// A shallow alpha-beta search over [`evaluate`], `depth` plies deep.
    fn estimate(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.visit() {
            return 0;
        }
        if depth == 0 {
            return if TRAINED_ORDERING {
                crate::ai::pattern::evaluate(p, o)
            } else {
                evaluate(p, o)
            };
        }
        let moves = movegen::moves(p, o);
        if moves == 0 {
            if movegen::moves(o, p) == 0 {
                return (p.count_ones() as i32 - o.count_ones() as i32) * 1000;
            }
            return -self.estimate(o, p, depth, -beta, -alpha);
        }
        let mut best = -INFINITE;
        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let flipped = movegen::flips(p, o, square);
            let score =
                -self.estimate(o ^ flipped, p ^ flipped ^ (1 << square), depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        best
    }

    /// The moves of `p` with their flips and ordering keys: the table's move first, then
    /// fastest-first (fewest replies for the opponent, corners counted twice), then fewer
    /// potential replies, more stable corner discs and better squares.
    fn push_moves(&mut self, p: u64, o: u64, moves: u64, empties: u32, table_move: u8) {
        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let flipped = movegen::flips(p, o, square);
            let key = if square as u8 == table_move {
                i32::MAX
            } else if empties >= ESTIMATE_MIN {
                let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let depth = (2 + (empties - ESTIMATE_MIN) / 3).min(ESTIMATE_MAX_DEPTH);
                -self.estimate(np, no, depth, -INFINITE, INFINITE)
            } else {
                let (np, no) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let empty = !(np | no);
                let replies = movegen::moves(np, no);
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                let potential = (movegen::neighbours(no) & empty).count_ones() as i32;
                let corners = corner_stability(no) as i32;
                -mobility * (1 << 15) + corners * (1 << 11) - potential * (1 << 5)
                    + SQUARE_VALUE[square]
            };
            self.candidates.push(Candidate { flipped, square: square as u8, key });
        }
    }
}
