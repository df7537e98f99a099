//! The exact check on a handful of small positions: deterministic, independent of the thread
//! count, each position at its drawn empties with the solver's value, and positions beyond the
//! solver's node limit counted apart.

use outflank_engine::ai::pattern::weights::Weights;
use outflank_engine::solve::solve;
use outflank_train::data::Settings;
use outflank_train::exact_check::{CheckOptions, CheckReport, check, table};
use outflank_train::fit::evaluate;

fn weights() -> Weights {
    Weights::from_bytes(include_bytes!("../../weights/eval.bin")).unwrap()
}

/// Eight positions of 10 to 14 empties, from games of a 2,000-node search.
fn options(threads: usize) -> CheckOptions {
    CheckOptions {
        settings: Settings {
            seed: 5,
            search_nodes: 2_000,
            label_depth: 3,
            label_nodes: 10_000,
            ..Settings::default()
        },
        positions: 8,
        empties: 10..=14,
        threads,
        progress: false,
    }
}

#[test]
fn a_check_does_not_depend_on_the_number_of_threads() {
    let weights = weights();
    let one = check(&weights, &options(1));
    assert_eq!(check(&weights, &options(3)), one);
    assert_eq!(one.checked.len() as u32 + one.ended + one.unsolved, 8);
}

#[test]
fn each_position_has_its_drawn_empties_the_solvers_value_and_the_evaluation() {
    let weights = weights();
    let report = check(&weights, &options(2));
    assert!(report.checked.len() >= 6, "{report:?}");
    let mut empties = Vec::new();
    for checked in &report.checked {
        let board = checked.board;
        assert!((10..=14).contains(&board.empty().count()), "{board:?}");
        assert!(!board.legal_moves().is_empty(), "the side to move has a move: {board:?}");
        assert_eq!(checked.exact, solve(&board).score, "{board:?}");
        let (p, o) = (board.player().0, board.opponent().0);
        assert_eq!(checked.evaluation, evaluate(&weights, p, o));
        empties.push(board.empty().count());
    }
    empties.dedup();
    assert!(empties.len() >= 2, "the empties are drawn, not fixed: {empties:?}");
    assert!(report.checked.windows(2).all(|pair| pair[0].index < pair[1].index));
}

#[test]
fn positions_the_solver_cannot_finish_are_counted_and_left_out() {
    let mut options = options(2);
    options.settings.solve_node_limit = 1;
    let report = check(&weights(), &options);
    assert!(report.checked.is_empty(), "{report:?}");
    assert_eq!(report.ended + report.unsolved, 8);
    assert!(report.unsolved > 0);
    assert!(table(&report, 3).ends_with(&format!(
        "left out: {} games ended before their position, {} solves reached the node limit\n",
        report.ended, report.unsolved
    )));
}

#[test]
fn the_table_gives_each_number_of_empties_and_all() {
    let report = CheckReport { checked: Vec::new(), ended: 0, unsolved: 0 };
    let text = table(&report, 12);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("empties  positions  evaluation  12-ply search  predicting 0"));
    assert_eq!(lines[1], "all              0        0.00           0.00          0.00");
    let report = check(&weights(), &options(2));
    let text = table(&report, 3);
    for checked in &report.checked {
        let empties = checked.board.empty().count().to_string();
        assert!(text.lines().any(|line| line.split_whitespace().next() == Some(&empties)));
    }
    let all = text.lines().find(|line| line.starts_with("all")).unwrap();
    assert_eq!(all.split_whitespace().nth(1), Some(report.checked.len().to_string().as_str()));
}
