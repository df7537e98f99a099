//! How far an evaluation is from the truth: positions of new self-play games, each solved
//! exactly, against the evaluation's value and against a search's.
//!
//! A data file's labels above the solve point are search values, so an error measured
//! against them says how well the evaluation predicts a search, not the game. Here the
//! reference is the exact result of perfect play, which the solver can give up to about 30
//! empties.
//!
//! Position `n` with seed `s` depends on `(s, n)` only: a number of empties drawn uniformly
//! from the range, then a game played the way the generator plays its games
//! ([`play_until`]) up to that many empties; if the side to move must pass there, the position
//! after the pass. The position is solved exactly (disc-difference scoring, node-limited); a
//! game that ends before, or a position whose solve reaches the limit, is counted and left
//! out. Each position is worked on by one thread, so the result does not depend on the number
//! of threads.

use std::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use outflank_engine::ai::pattern::weights::Weights;
use outflank_engine::solve::{Goal, Scoring, SolveOptions, solve_with};
use outflank_engine::{Board, Move};

use crate::data::Settings;
use crate::fit::evaluate;
use crate::generate::{Engines, Progress, play_until, search_label};
use crate::rng::Rng;

/// A check run.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// How the games are played (seed, random plies, search nodes), and the search compared
    /// (`label_depth` plies within `label_nodes` nodes), as in generation.
    pub settings: Settings,
    /// Positions tried (some may be left out).
    pub positions: u32,
    /// The empties a position is drawn from.
    pub empties: RangeInclusive<u32>,
    /// Worker threads.
    pub threads: usize,
    /// Show progress on stderr.
    pub progress: bool,
}

/// One position checked; values for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The position's index in the run.
    pub index: u32,
    pub board: Board,
    /// Exact final disc difference with perfect play.
    pub exact: i32,
    /// The evaluation, in 1/100 disc.
    pub evaluation: i32,
    /// The search's value, in discs.
    pub search: i32,
}

/// What a run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// The positions checked, in index order.
    pub checked: Vec<Checked>,
    /// Games that ended before reaching their position.
    pub ended: u32,
    /// Positions whose solve reached the node limit.
    pub unsolved: u32,
}

/// What became of one position.
enum Outcome {
    Checked(Checked),
    Ended,
    Unsolved,
}

/// Checks `weights` on `options.positions` positions.
pub fn check(weights: &Weights, options: &CheckOptions) -> CheckReport {
    let next = AtomicU32::new(0);
    let outcomes = Mutex::new(Vec::new());
    let mut progress = Progress::new(options.progress);
    let done = AtomicU32::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut engines = Engines::new(&options.settings);
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= options.positions {
                            break;
                        }
                        let outcome = check_one(weights, options, index, &mut engines);
                        outcomes.lock().expect("no worker panics").push((index, outcome));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        while !workers.iter().all(|worker| worker.is_finished()) {
            std::thread::sleep(std::time::Duration::from_millis(100));
            if progress.due() {
                progress.show(&format!(
                    "positions {}/{}",
                    done.load(Ordering::Relaxed),
                    options.positions
                ));
            }
        }
    });
    progress.finish(&format!("positions {}/{}", options.positions, options.positions));
    let mut outcomes = outcomes.into_inner().expect("no worker panics");
    outcomes.sort_by_key(|(index, _)| *index);
    let mut report = CheckReport { checked: Vec::new(), ended: 0, unsolved: 0 };
    for (_, outcome) in outcomes {
        match outcome {
            Outcome::Checked(checked) => report.checked.push(checked),
            Outcome::Ended => report.ended += 1,
            Outcome::Unsolved => report.unsolved += 1,
        }
    }
    report
}

fn check_one(
    weights: &Weights,
    options: &CheckOptions,
    index: u32,
    engines: &mut Engines,
) -> Outcome {
    let settings = &options.settings;
    let mut rng = Rng::for_stream(settings.seed, u64::from(index));
    let (low, high) = (*options.empties.start(), *options.empties.end());
    let empties = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
    let (_, mut board) = play_until(settings, &mut rng, &mut engines.play, empties);
    if board.is_game_over() {
        return Outcome::Ended;
    }
    if board.must_pass() {
        board = board.play(Move::Pass).expect("a forced pass is legal");
    }
    let solve = SolveOptions {
        scoring: Scoring::Discs,
        goal: Goal::Exact,
        node_limit: Some(settings.solve_node_limit),
        ..SolveOptions::default()
    };
    let Ok(solution) = solve_with(&board, &solve) else {
        return Outcome::Unsolved;
    };
    Outcome::Checked(Checked {
        index,
        board,
        exact: solution.score,
        evaluation: evaluate(weights, board.player().0, board.opponent().0),
        search: search_label(&board, &mut engines.label),
    })
}

/// The report as a table: for each number of empties and for all, the positions and the mean
/// absolute error in discs against the exact values of the evaluation, of the search and of
/// predicting 0.
pub fn table(report: &CheckReport, label_depth: u32) -> String {
    let mut empties: Vec<u32> = report.checked.iter().map(|c| c.board.empty().count()).collect();
    empties.sort_unstable();
    empties.dedup();
    let mut text = format!(
        "empties  positions  evaluation  {label_depth:>2}-ply search  predicting 0  (mean absolute error in discs against the exact values)\n"
    );
    let row = |name: &str, rows: &[&Checked]| {
        let mean = |error: &dyn Fn(&Checked) -> f64| {
            if rows.is_empty() {
                0.0
            } else {
                rows.iter().map(|c| error(c)).sum::<f64>() / rows.len() as f64
            }
        };
        let exact = |c: &Checked| f64::from(c.exact);
        format!(
            "{name:<7}  {:>9}  {:>10.2}  {:>13.2}  {:>12.2}\n",
            rows.len(),
            mean(&|c| (f64::from(c.evaluation) / 100.0 - exact(c)).abs()),
            mean(&|c| (f64::from(c.search) - exact(c)).abs()),
            mean(&|c| exact(c).abs()),
        )
    };
    for count in empties {
        let rows: Vec<&Checked> =
            report.checked.iter().filter(|c| c.board.empty().count() == count).collect();
        text.push_str(&row(&count.to_string(), &rows));
    }
    text.push_str(&row("all", &report.checked.iter().collect::<Vec<_>>()));
    text.push_str(&format!(
        "left out: {} games ended before their position, {} solves reached the node limit\n",
        report.ended, report.unsolved
    ));
    text
}
