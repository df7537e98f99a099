use super::layout::{self, FEATURES, PHASE_LEN, PHASES, TABLE_OFFSETS, TABLE_SIZES, TABLES};
use super::weights::{FILE_LEN, MAGIC, VERSION, Weights, WeightsError, fnv1a64};
use super::*;
use crate::{Board, Move};

/// A small deterministic generator (Knuth's MMIX LCG, upper bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 16
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions of random games, at every stage from the start to the end.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Lcg(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut board = Board::start();
        let stop = rng.below(61);
        let mut ply = 0;
        while !board.is_game_over() && ply < stop {
            let moves: Vec<_> = board.legal_moves().into_iter().collect();
            let mv = if moves.is_empty() {
                Move::Pass
            } else {
                Move::Place(moves[rng.below(moves.len())])
            };
            board = board.play(mv).expect("a legal move");
            ply += 1;
        }
        positions.push(board);
    }
    positions
}

/// The square of the original board seen at row `r`, column `c` of view `view` (as is,
/// flipped top–bottom, transposed, transposed then flipped).
fn view_square(view: usize, r: usize, c: usize) -> usize {
    match view {
        0 => r * 8 + c,
        1 => (7 - r) * 8 + c,
        2 => c * 8 + r,
        _ => c * 8 + (7 - r),
    }
}

/// Square lists (row, column) of each pattern instance, table by table, read in the views.
fn reference_instances() -> Vec<(usize, Vec<usize>)> {
    let sq = |cells: &[(usize, usize)], view: usize| -> Vec<usize> {
        cells.iter().map(|&(r, c)| view_square(view, r, c)).collect()
    };
    let mut edge: Vec<(usize, usize)> = (0..8).map(|c| (0, c)).collect();
    edge.extend([(1, 1), (1, 6)]);
    let block_a1: Vec<_> = (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect();
    let block_h1: Vec<_> = (0..3).flat_map(|r| (0..3).map(move |c| (r, 7 - c))).collect();
    let rect_a1: Vec<_> = (0..2).flat_map(|r| (0..5).map(move |c| (r, c))).collect();
    let rect_h1: Vec<_> = (0..2).flat_map(|r| (0..5).map(move |c| (r, 7 - c))).collect();

    let mut instances = Vec::new();
    for view in 0..4 {
        instances.push((0, sq(&edge, view)));
    }
    for view in 0..2 {
        instances.push((1, sq(&block_a1, view)));
        instances.push((1, sq(&block_h1, view)));
    }
    for view in 0..4 {
        instances.push((2, sq(&rect_a1, view)));
        instances.push((2, sq(&rect_h1, view)));
    }
    for r in 1..4 {
        let line: Vec<_> = (0..8).map(|c| (r, c)).collect();
        for view in 0..4 {
            instances.push((2 + r, sq(&line, view)));
        }
    }
    let diagonal: Vec<_> = (0..8).map(|i| (i, i)).collect();
    for view in 0..2 {
        instances.push((6, sq(&diagonal, view)));
    }
    for k in 1..5 {
        let above: Vec<_> = (0..8 - k).map(|i| (i, i + k)).collect();
        let below: Vec<_> = (0..8 - k).map(|i| (i + k, i)).collect();
        for view in 0..2 {
            instances.push((6 + k, sq(&above, view)));
            instances.push((6 + k, sq(&below, view)));
        }
    }
    instances
}

/// The features of a position read square by square from [`reference_instances`].
fn reference_features(p: u64, o: u64) -> Vec<usize> {
    let mut out = Vec::new();
    for (table, squares) in reference_instances() {
        let mut index = 0;
        for &square in squares.iter().rev() {
            let digit = if p >> square & 1 != 0 {
                1
            } else if o >> square & 1 != 0 {
                2
            } else {
                0
            };
            index = index * 3 + digit;
        }
        out.push(TABLE_OFFSETS[table] + index);
    }
    let moves_p = movegen::moves(p, o).count_ones().min(35) as usize;
    let moves_o = movegen::moves(o, p).count_ones().min(35) as usize;
    out.push(TABLE_OFFSETS[11] + moves_p);
    out.push(TABLE_OFFSETS[12] + moves_o);
    out.push(TABLE_OFFSETS[13] + ((!(p | o)).count_ones() & 1) as usize);
    out
}

fn fast_features(p: u64, o: u64) -> Vec<usize> {
    let mut out = Vec::new();
    let moves_p = movegen::moves(p, o).count_ones();
    let moves_o = movegen::moves(o, p).count_ones();
    layout::features(p, o, moves_p, moves_o, |i| out.push(i));
    out
}

/// Weights with a pseudo-random value for every entry, equal for an entry and its mirror.
fn random_tied_weights(seed: u64) -> Weights {
    let mut values = Vec::with_capacity(PHASES * PHASE_LEN);
    for phase in 0..PHASES {
        for table in 0..TABLES {
            for index in 0..TABLE_SIZES[table] {
                let shared = index.min(layout::mirror_index(table, index));
                let key = ((phase * PHASE_LEN + TABLE_OFFSETS[table] + shared) as u64)
                    ^ seed.rotate_left(17);
                let mut rng = Lcg(key.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                values.push((rng.next() % 4001) as i16 - 2000);
            }
        }
    }
    Weights::from_values(values)
}

#[test]
fn layout_sizes_add_up() {
    assert_eq!(FEATURES, 49);
    assert_eq!(PHASE_LEN, 167_339);
    assert_eq!(FILE_LEN, 8 + 10 + 4 * TABLES + 2 * PHASES * PHASE_LEN + 8);
    for (table, &size) in TABLE_SIZES.iter().enumerate().take(11) {
        let squares = reference_instances().iter().find(|(t, _)| *t == table).unwrap().1.len();
        assert_eq!(size, 3usize.pow(squares as u32), "table {table}");
    }
    for phase in 0..PHASES {
        assert_eq!(layout::phase(5 * phase as u32), phase);
    }
    assert_eq!(layout::phase(60), PHASES - 1);
}

#[test]
fn board_symmetries_match_a_square_by_square_reference() {
    for board in random_positions(200, 1) {
        let x = board.player().0;
        for square in 0..64 {
            let (r, c) = (square / 8, square % 8);
            let bit = x >> square & 1;
            assert_eq!(layout::flip_vertical(x) >> ((7 - r) * 8 + c) & 1, bit);
            assert_eq!(layout::mirror_horizontal(x) >> (r * 8 + 7 - c) & 1, bit);
            assert_eq!(layout::transpose(x) >> (c * 8 + r) & 1, bit);
        }
    }
}

#[test]
fn instances_are_distinct_and_closed_under_symmetry() {
    let instances = reference_instances();
    assert_eq!(instances.len() + 3, FEATURES);
    let sets: Vec<(usize, Vec<usize>)> = instances
        .iter()
        .map(|(t, s)| {
            let mut s = s.clone();
            s.sort_unstable();
            (*t, s)
        })
        .collect();
    for (i, a) in sets.iter().enumerate() {
        assert!(!sets[..i].contains(a), "instance {i} repeated");
        for s in 0..8 {
            let mut image: Vec<usize> =
                a.1.iter()
                    .map(|&sq| layout::symmetry(1 << sq, s).trailing_zeros() as usize)
                    .collect();
            image.sort_unstable();
            assert!(sets.contains(&(a.0, image)), "instance {i} under symmetry {s}");
        }
    }
}

#[test]
fn fast_features_match_the_reference() {
    for board in random_positions(2000, 2) {
        let (p, o) = board.raw();
        assert_eq!(fast_features(p, o), reference_features(p, o), "{board:?}");
    }
    // Full and empty boards too.
    assert_eq!(fast_features(!0, 0), reference_features(!0, 0));
    assert_eq!(fast_features(0, !0), reference_features(0, !0));
    assert_eq!(fast_features(0, 0), reference_features(0, 0));
}

#[test]
fn mirror_index_is_an_involution_that_respects_the_tables() {
    for (table, &size) in TABLE_SIZES.iter().enumerate() {
        for index in (0..size).step_by(7) {
            let mirrored = layout::mirror_index(table, index);
            assert!(mirrored < size);
            assert_eq!(layout::mirror_index(table, mirrored), index);
        }
    }
    // The top edge with a mover disc on a1 and an opponent X-square on b2 becomes one with the
    // disc on h1 and the opponent on g2.
    assert_eq!(layout::mirror_index(0, 1 + 2 * 6561), 2187 + 2 * 19683);
}

#[test]
fn evaluation_is_exactly_symmetric() {
    let random = random_tied_weights(3);
    for board in random_positions(1000, 4) {
        let (p, o) = board.raw();
        let expected = (evaluate_with(&random, p, o), evaluate(p, o));
        for s in 1..8 {
            let (sp, so) = (layout::symmetry(p, s), layout::symmetry(o, s));
            assert_eq!((evaluate_with(&random, sp, so), evaluate(sp, so)), expected, "{s}");
        }
    }
}

#[test]
fn evaluation_stays_within_bounds() {
    let extremes = [
        Weights::from_values(vec![i16::MAX; PHASES * PHASE_LEN]),
        Weights::from_values(vec![i16::MIN; PHASES * PHASE_LEN]),
        random_tied_weights(5),
    ];
    for board in random_positions(2000, 6) {
        let (p, o) = board.raw();
        for weights in extremes.iter().chain([&*WEIGHTS]) {
            let score = evaluate_with(weights, p, o);
            assert!(score.abs() < PROVEN, "{score} for {board:?}");
        }
    }
}

#[test]
fn evaluation_given_the_movers_moves_equals_the_evaluation() {
    for board in random_positions(2000, 7) {
        let (p, o) = board.raw();
        let moves = crate::movegen::moves(p, o);
        assert_eq!(evaluate_knowing(&WEIGHTS, p, o, moves), evaluate(p, o), "{board:?}");
    }
}

#[test]
fn embedded_weights_pass_their_checks() {
    for embedded in [EMBEDDED, ORDER_EMBEDDED] {
        assert_eq!(embedded.len(), FILE_LEN);
        assert_eq!(embedded[..8], MAGIC);
        assert_eq!(u16::from_le_bytes([embedded[8], embedded[9]]), VERSION);
        let weights = Weights::from_bytes(embedded).expect("valid embedded weights");
        assert!(weights.values().iter().any(|&v| v != 0), "trained, not all zero");
        assert_eq!(weights.to_bytes(), embedded);
    }
    assert_ne!(EMBEDDED, ORDER_EMBEDDED, "play and ordering have weights of their own");
}

#[test]
fn ordering_evaluation_given_the_movers_moves_equals_its_evaluation() {
    for board in random_positions(500, 8) {
        let (p, o) = board.raw();
        let moves = crate::movegen::moves(p, o);
        let weights = order_weights();
        assert_eq!(evaluate_knowing(weights, p, o, moves), evaluate_with(weights, p, o));
    }
}

#[test]
fn trained_evaluation_prefers_corners() {
    // Black to move can take a1; a position where White holds a1 instead is worse for Black.
    let rest = format!("{}{}", "OX------OOX-----OOOX----OOOOX---", "-".repeat(24));
    let with_corner: Board = format!("X-------{rest} X").parse().unwrap();
    let without: Board = format!("O-------{rest} X").parse().unwrap();
    let (p, o) = with_corner.raw();
    let (q, r) = without.raw();
    assert!(evaluate(p, o) > evaluate(q, r));
}

#[test]
fn weights_round_trip() {
    let weights = random_tied_weights(7);
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), FILE_LEN);
    assert_eq!(Weights::from_bytes(&bytes), Ok(weights));
    assert_eq!(Weights::from_bytes(&Weights::zero().to_bytes()), Ok(Weights::zero()));
}

/// `bytes` with its checksum recomputed.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let checksum = fnv1a64(&bytes[..body]);
    bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    bytes
}

#[test]
fn weights_errors() {
    let good = Weights::zero().to_bytes();

    let mut bad_magic = good.clone();
    bad_magic[0] = b'X';
    assert_eq!(Weights::from_bytes(&bad_magic), Err(WeightsError::BadMagic));
    assert_eq!(Weights::from_bytes(b"OFP"), Err(WeightsError::BadMagic));
    assert_eq!(Weights::from_bytes(&[]), Err(WeightsError::BadMagic));

    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(Weights::from_bytes(&version), Err(WeightsError::UnsupportedVersion(9)));

    let short = &good[..good.len() - 1];
    assert_eq!(
        Weights::from_bytes(short),
        Err(WeightsError::WrongSize { expected: FILE_LEN, actual: FILE_LEN - 1 })
    );
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(Weights::from_bytes(&long), Err(WeightsError::WrongSize { .. })));
    assert!(matches!(Weights::from_bytes(&good[..12]), Err(WeightsError::WrongSize { .. })));

    let mut corrupt = good.clone();
    corrupt[1000] ^= 1;
    assert!(matches!(Weights::from_bytes(&corrupt), Err(WeightsError::ChecksumMismatch { .. })));

    // A consistent file for another layout: one table entry more, in every phase.
    let mut other = good[..FILE_LEN - 8].to_vec();
    let last_size = 18 + 4 * (TABLES - 1);
    other[last_size] += 1;
    other.extend(std::iter::repeat_n(0, 2 * PHASES));
    other.extend([0; 8]);
    assert_eq!(Weights::from_bytes(&resealed(other)), Err(WeightsError::LayoutMismatch));
    // Another number of units per disc.
    let mut units = good.clone();
    units[10] = 100;
    assert_eq!(Weights::from_bytes(&resealed(units)), Err(WeightsError::LayoutMismatch));
}

/// Fixed-depth negamax over `eval` (no pruning: the depths here are small).
fn negamax(p: u64, o: u64, depth: u32, eval: fn(u64, u64) -> i32) -> i32 {
    let moves = movegen::moves(p, o);
    if moves == 0 {
        if movegen::moves(o, p) == 0 {
            return super::super::eval::final_score(p, o);
        }
        return -negamax(o, p, depth, eval);
    }
    if depth == 0 {
        return eval(p, o);
    }
    let mut best = i32::MIN + 1;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let flipped = movegen::flips(p, o, square);
        let score = -negamax(o ^ flipped, p ^ flipped ^ (1 << square), depth - 1, eval);
        best = best.max(score);
    }
    best
}

/// The move of a fixed-depth search over `eval`, or the exact solver's from 12 empties.
fn choose(board: &Board, depth: u32, eval: fn(u64, u64) -> i32) -> Move {
    if board.has_no_moves() {
        return Move::Pass;
    }
    if board.empty().count() <= 12 {
        return crate::solve::solve(board).best.expect("a move");
    }
    let (p, o) = board.raw();
    let mut best = (i32::MIN, Move::Pass);
    for square in board.legal_moves() {
        let flipped = movegen::flips(p, o, square.index());
        let score = -negamax(o ^ flipped, p ^ flipped ^ square.bit(), depth - 1, eval);
        if score > best.0 {
            best = (score, Move::Place(square));
        }
    }
    best.1
}

/// Pattern against the hand-weighted evaluation at the same fixed depth (1 and 3 plies, both
/// solving exactly from 12 empties), 100 random openings each played with both colours. With
/// the shipped weights the pattern side scores about 88 % at depth 1 and 89 % at depth 3
/// (`--nocapture` prints it); the test asks for more than 60 %.
#[test]
fn pattern_beats_the_hand_weighted_evaluation() {
    let mut rng = Lcg(99);
    for depth in [1, 3] {
        let (mut points, mut games, mut discs) = (0.0, 0, 0);
        for _ in 0..100 {
            let mut opening = Board::start();
            for _ in 0..8 {
                let moves: Vec<_> = opening.legal_moves().into_iter().collect();
                opening = opening.play(Move::Place(moves[rng.below(moves.len())])).unwrap();
            }
            for pattern_side in [opening.side_to_move(), opening.side_to_move().opposite()] {
                let mut board = opening;
                while !board.is_game_over() {
                    let eval: fn(u64, u64) -> i32 = if board.side_to_move() == pattern_side {
                        evaluate
                    } else {
                        super::super::eval::evaluate
                    };
                    board = board.play(choose(&board, depth, eval)).unwrap();
                }
                let diff = board.discs(pattern_side).count() as i32
                    - board.discs(pattern_side.opposite()).count() as i32;
                points += if diff > 0 {
                    1.0
                } else if diff == 0 {
                    0.5
                } else {
                    0.0
                };
                discs += diff;
                games += 1;
            }
        }
        println!(
            "depth {depth}: pattern scores {points}/{games} ({:.1} %), {:+.2} discs a game",
            100.0 * points / f64::from(games),
            f64::from(discs) / f64::from(games)
        );
        assert!(points > 0.6 * f64::from(games), "depth {depth}: {points}/{games}");
    }
}
