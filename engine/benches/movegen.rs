//! Move generation, flips and perft from the start.
//!
//! `cargo bench -p outflank-engine --bench movegen`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outflank_engine::{Board, perft};

/// Positions along a fixed game, so the benchmark sees openings, midgames and endgames.
fn positions() -> Vec<Board> {
    let mut boards = vec![Board::start()];
    let mut board = Board::start();
    let mut pick = 7usize;
    while !board.is_game_over() {
        let moves: Vec<_> = board.legal_moves().into_iter().collect();
        board = if moves.is_empty() {
            board.pass_unchecked()
        } else {
            pick = pick.wrapping_mul(31).wrapping_add(17);
            board.play_unchecked(moves[pick % moves.len()])
        };
        boards.push(board);
    }
    boards
}

fn bench_movegen(c: &mut Criterion) {
    let boards = positions();
    c.bench_function("legal_moves over one game", |b| {
        b.iter(|| boards.iter().map(|board| black_box(board).legal_moves().count()).sum::<u32>())
    });
    c.bench_function("flips of every legal move over one game", |b| {
        b.iter(|| {
            let mut total = 0;
            for board in &boards {
                for square in board.legal_moves() {
                    total += black_box(board).flips(square).count();
                }
            }
            total
        })
    });
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("perft(8) from the start", |b| {
        b.iter(|| perft(black_box(&Board::start()), 8))
    });
    group.finish();
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
