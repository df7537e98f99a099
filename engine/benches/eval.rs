//! The static evaluations on positions of random games (every stage of the game): the
//! trained pattern evaluation through the engine's own entry point
//! ([`Search::static_score`]), the hand-weighted one for comparison, and the parts of the
//! pattern evaluation (its indices alone, through the engine's public pattern layout; the
//! parsing of the weights file).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use outflank_engine::ai::pattern::layout;
use outflank_engine::ai::pattern::weights::Weights;
use outflank_engine::ai::{Evaluation, Search, SearchLimits};
use outflank_engine::{Board, Move};

/// Positions of random games (fixed seed), `count` of them, from all stages of the game, or
/// only those with `empties` empty squares.
fn positions(count: usize, empties: Option<std::ops::RangeInclusive<u32>>) -> Vec<Board> {
    let mut state = 7u64;
    let mut next = |n: usize| {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % n as u64) as usize
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = Board::start();
        let plies = next(58);
        for _ in 0..plies {
            if board.is_game_over() {
                break;
            }
            let moves: Vec<_> = board.legal_moves().into_iter().collect();
            let mv =
                if moves.is_empty() { Move::Pass } else { Move::Place(moves[next(moves.len())]) };
            board = board.play(mv).expect("a legal move");
        }
        if empties.as_ref().is_none_or(|range| range.contains(&board.empty().count())) {
            out.push(board);
        }
    }
    out
}

fn eval(c: &mut Criterion) {
    let boards = positions(1000, None);
    // A search evaluates positions of about the same number of empties: one weight set.
    let midgame = positions(1000, Some(30..=34));
    let limits =
        SearchLimits { max_depth: 1, node_budget: 1, exact_empties: 0, exact_node_limit: 0 };
    let mut group = c.benchmark_group("evaluation");
    for (name, evaluation) in [
        ("pattern, 1000 positions", Evaluation::Pattern),
        ("full, 1000 positions", Evaluation::Full),
    ] {
        let search = Search::new(limits).with_evaluation(evaluation);
        // The first call parses the embedded weights.
        black_box(search.static_score(&Board::start()));
        group.bench_function(name, |b| {
            b.iter(|| boards.iter().map(|board| search.static_score(black_box(board))).sum::<i32>())
        });
        group.bench_function(format!("{name} with 30-34 empties"), |b| {
            b.iter(|| {
                midgame.iter().map(|board| search.static_score(black_box(board))).sum::<i32>()
            })
        });
    }
    group.bench_function("pattern indices only, 1000 positions", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for board in &boards {
                let (p, o) = (black_box(board.player().0), board.opponent().0);
                layout::features(p, o, 0, 0, |index| total += index);
            }
            total
        })
    });
    group.bench_function("parse the weights file", |b| {
        let bytes = include_bytes!("../weights/eval.bin");
        b.iter(|| Weights::from_bytes(black_box(bytes)).map(|w| w.values().len()))
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
