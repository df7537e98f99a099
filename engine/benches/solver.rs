//! Exact solves of positions with 14 and 18 empties, reached by fixed random games, on one
//! thread and (the 18-empty one) on two.

use criterion::{Criterion, criterion_group, criterion_main};
use outflank_engine::solve::{SolveOptions, solve, solve_with};
use outflank_engine::{Board, Move};

/// The position of a random game (fixed by `seed`) once `empties` squares are left.
fn position(seed: u64, empties: u32) -> Board {
    let mut state = seed;
    let mut board = Board::start();
    while board.empty().count() > empties && !board.is_game_over() {
        let moves: Vec<_> = board.legal_moves().into_iter().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Move::Place(moves[((state >> 33) % moves.len() as u64) as usize])
        };
        board = board.play(mv).expect("a legal move");
    }
    board
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let fourteen: Vec<Board> = (1..=4).map(|seed| position(seed, 14)).collect();
    group.bench_function("four positions with 14 empties", |b| {
        b.iter(|| fourteen.iter().map(|board| solve(board).score).sum::<i32>())
    });
    let eighteen = position(7, 18);
    group.bench_function("one position with 18 empties", |b| b.iter(|| solve(&eighteen).score));
    let two = SolveOptions { threads: 2, ..SolveOptions::default() };
    group.bench_function("one position with 18 empties, two threads", |b| {
        b.iter(|| solve_with(&eighteen, &two).map(|solution| solution.score))
    });
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
