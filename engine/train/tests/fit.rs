//! The trainer on a small synthetic data set: it learns, and the same seed gives the same
//! weights whatever the thread count.

use outflank_engine::ai::pattern::layout::PHASES;
use outflank_engine::{Board, Move};
use outflank_train::data::Sample;
use outflank_train::fit::{
    Dataset, FitOptions, PhaseLambda, PhaseLambdaError, error_table, evaluate, fit, is_held_out,
};
use outflank_train::rng::Rng;

/// Positions of random games, labelled by a simple rule the patterns can express: the
/// mobility difference plus 4 per corner ahead, plus a little noise.
fn synthetic(count: usize, seed: u64) -> Dataset {
    let mut rng = Rng::new(seed);
    let mut dataset = Dataset::default();
    let corners = 0x8100_0000_0000_0081u64;
    while dataset.samples.len() < count {
        let mut board = Board::start();
        let plies = 8 + rng.below(45);
        for _ in 0..plies {
            if board.is_game_over() {
                break;
            }
            let moves: Vec<_> = board.legal_moves().into_iter().collect();
            let mv = if moves.is_empty() {
                Move::Pass
            } else {
                Move::Place(moves[rng.below(moves.len() as u64) as usize])
            };
            board = board.play(mv).unwrap();
        }
        if board.has_no_moves() {
            continue;
        }
        let (p, o) = (board.player().0, board.opponent().0);
        let mobility = board.legal_moves().count() as i32
            - board.pass_unchecked().legal_moves().count() as i32;
        let corner = (p & corners).count_ones() as i32 - (o & corners).count_ones() as i32;
        let noise = rng.below(3) as i32 - 1;
        let label = (mobility + 4 * corner + noise).clamp(-64, 64) as i8;
        let game = dataset.samples.len() as u32;
        dataset.samples.push(Sample { player: p, opponent: o, label, outcome: label });
        dataset.held_out.push(is_held_out(5, 0, game, 0.1));
    }
    dataset
}

/// A fit at λ = 1 with the phases independent (towards 0) on two threads.
fn independent_phases(iterations: usize) -> FitOptions {
    FitOptions { iterations, lambda: 1.0, threads: 2, chain: false, ..FitOptions::default() }
}

#[test]
fn fit_reduces_the_error_and_is_reproducible() {
    let dataset = synthetic(6000, 1);
    let options = independent_phases(60);
    let weights = fit(&dataset, &options).unwrap();

    let before = error_table(&dataset, |held| held, |_| 0).overall;
    let after =
        error_table(&dataset, |held| held, |s| evaluate(&weights, s.player, s.opponent)).overall;
    assert!(before.0 > 300, "{before:?}");
    assert!(after.1 < before.1 * 0.5, "held-out MAE {} from {}", after.1, before.1);

    let again = fit(&dataset, &FitOptions { threads: 1, ..options.clone() }).unwrap();
    assert_eq!(weights, again, "the same data and seed give the same weights");

    // Chained phases, each regularised towards the previous one, learn as well.
    let chained = fit(&dataset, &FitOptions { chain: true, ..options.clone() }).unwrap();
    let error = error_table(&dataset, |held| held, |s| evaluate(&chained, s.player, s.opponent));
    assert!(error.overall.1 < before.1 * 0.5, "chained: {}", error.overall.1);
    assert_eq!(chained, fit(&dataset, &FitOptions { chain: true, ..options }).unwrap());
}

#[test]
fn a_phase_lambda_changes_only_the_phases_of_its_range() {
    let dataset = synthetic(3000, 2);
    let options = independent_phases(30);
    let plain = fit(&dataset, &options).unwrap();
    // An overwhelming λ for 20–29 empties (phases 4 and 5) keeps their weights at 0.
    let smoothed = FitOptions { phase_lambdas: vec!["20-29=1e12".parse().unwrap()], ..options };
    let weights = fit(&dataset, &smoothed).unwrap();
    for k in 0..PHASES {
        if k == 4 || k == 5 {
            assert!(plain.phase(k).iter().any(|&w| w != 0), "phase {k} learns without it");
            assert!(weights.phase(k).iter().all(|&w| w == 0), "phase {k}");
        } else {
            assert_eq!(weights.phase(k), plain.phase(k), "phase {k}");
        }
    }
}

#[test]
fn the_last_phase_lambda_naming_a_phase_wins() {
    let options = FitOptions {
        lambda: 10.0,
        phase_lambdas: vec!["10-29=100".parse().unwrap(), "25-29=30".parse().unwrap()],
        ..FitOptions::default()
    };
    let lambdas: Vec<f64> = (0..PHASES).map(|k| options.lambda_of(k)).collect();
    assert_eq!(
        lambdas,
        [10.0, 10.0, 100.0, 100.0, 100.0, 30.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0]
    );
}

#[test]
fn a_phase_lambda_must_cover_whole_phases() {
    assert_eq!("55-60=5".parse::<PhaseLambda>(), Ok(PhaseLambda { empties: 55..=60, lambda: 5.0 }));
    assert_eq!(
        "10-27=100".parse::<PhaseLambda>(),
        Err(PhaseLambdaError::NotWholePhases { low: 10, high: 27 })
    );
    assert_eq!(
        "12-29=100".parse::<PhaseLambda>(),
        Err(PhaseLambdaError::NotWholePhases { low: 12, high: 29 })
    );
    assert_eq!(
        "55-59=100".parse::<PhaseLambda>(),
        Err(PhaseLambdaError::NotWholePhases { low: 55, high: 59 })
    );
    assert_eq!("10-29".parse::<PhaseLambda>(), Err(PhaseLambdaError::Syntax("10-29".to_owned())));
    assert_eq!("10-29=-1".parse::<PhaseLambda>(), Err(PhaseLambdaError::Lambda("-1".to_owned())));
}
