//! `probcut-fit [--positions N] [--file PATH]`: measures the spread of deep-minus-shallow
//! search scores that ProbCut's margins rest on, and prints the table for `src/ai/probcut.rs`.
//!
//! Positions come from self-play (balanced openings continued by level-7 play, sampled every
//! few plies from 10 to 55 empties), or with `--file` from an OBF file, such as the training
//! data's positions written by `outflank-train positions`: the first N of them with a move
//! to play. Each is searched with the trained evaluation and no cut-offs
//! at every depth `d` from 3 to 10 and at `d`'s shallow depth; σ is the standard deviation of
//! the difference, by stage of the game. Depths 11 and 12 take depth 10's σ.

use outflank_engine::ai::{Evaluation, Level, Search, SearchLimits};
use outflank_engine::{Board, Move};

use crate::CliError;
use crate::matches::balanced_openings;

const FIT_DEPTHS: std::ops::RangeInclusive<u32> = 3..=10;
const STAGES: usize = 5;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let mut positions = None;
    let mut file = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--positions" => {
                let value =
                    args.next().ok_or_else(|| CliError("--positions needs a number".into()))?;
                positions =
                    Some(value.parse().map_err(|_| {
                        CliError(format!("--positions needs a number, not {value:?}"))
                    })?);
            }
            "--file" => {
                file = Some(args.next().ok_or_else(|| CliError("--file needs a path".into()))?);
            }
            other => return Err(CliError(format!("unknown argument {other:?} for probcut-fit"))),
        }
    }
    let boards = match file {
        Some(path) => {
            let playable = |board: &Board| !board.is_game_over() && !board.must_pass();
            let boards: Vec<Board> = crate::obf::read(path, None)?
                .into_iter()
                .map(|entry| entry.board)
                .filter(playable)
                .take(positions.unwrap_or(usize::MAX))
                .collect();
            if boards.is_empty() {
                return Err(CliError(format!("{path} holds no position with a move to play")));
            }
            boards
        }
        None => sample_positions(positions.unwrap_or(300)),
    };
    // sums[stage][depth]: (n, Σx, Σx²) of deep − shallow.
    let mut sums = [[(0u64, 0f64, 0f64); 11]; STAGES];
    for board in &boards {
        let stage = stage(board.empty().count());
        let mut scores = [None; 11];
        for depth in 0..=*FIT_DEPTHS.end() {
            scores[depth as usize] = fixed_depth(board, depth);
        }
        for depth in FIT_DEPTHS {
            let shallow = (depth - 1) / 2;
            if let (Some(deep), Some(low)) = (scores[depth as usize], scores[shallow as usize]) {
                let x = f64::from(deep - low);
                let cell = &mut sums[stage][depth as usize];
                *cell = (cell.0 + 1, cell.1 + x, cell.2 + x * x);
            }
        }
    }
    let sigma = |cell: (u64, f64, f64)| {
        let n = cell.0.max(1) as f64;
        let mean = cell.1 / n;
        ((cell.2 / n - mean * mean).max(0.0)).sqrt().round() as i32
    };
    let rows: Vec<Vec<i32>> = sums
        .iter()
        .map(|row| {
            let mut fitted: Vec<i32> = FIT_DEPTHS.map(|d| sigma(row[d as usize])).collect();
            let last = *fitted.last().unwrap_or(&400);
            fitted.extend([last, last]);
            fitted
        })
        .collect();
    if json {
        let counts: Vec<Vec<u64>> =
            sums.iter().map(|row| FIT_DEPTHS.map(|d| row[d as usize].0).collect()).collect();
        println!(
            "{}",
            serde_json::json!({ "positions": boards.len(), "sigma": rows, "samples": counts })
        );
    } else {
        println!(
            "// {} positions; σ in 1/100 disc, depths 3 to 12, stages by empties",
            boards.len()
        );
        for (row, label) in rows.iter().zip(["0-19", "20-29", "30-39", "40-49", "50-60"]) {
            let cells: Vec<String> = row.iter().map(i32::to_string).collect();
            println!("    [{}], // {label} empties", cells.join(", "));
        }
    }
    Ok(())
}

fn stage(empties: u32) -> usize {
    ((empties / 10) as usize).saturating_sub(1).min(STAGES - 1)
}

/// The trained evaluation's score of `board` searched exactly `depth` plies, no cut-offs;
/// `None` for a proven result.
fn fixed_depth(board: &Board, depth: u32) -> Option<i32> {
    let limits = SearchLimits {
        max_depth: depth.max(1),
        node_budget: u64::MAX / 4,
        exact_empties: 0,
        exact_node_limit: 0,
    };
    if depth == 0 {
        return Some(
            Search::new(SearchLimits { max_depth: 1, ..limits })
                .with_evaluation(Evaluation::Pattern)
                .static_score(board),
        );
    }
    let choice = Search::new(limits)
        .with_evaluation(Evaluation::Pattern)
        .with_probcut(false)
        .run(board, None)
        .ok()?;
    (!choice.exact && choice.mv != Move::Pass && choice.depth == depth).then_some(choice.score)
}

/// Positions from self-play, every third ply from 55 down to 10 empties.
fn sample_positions(count: usize) -> Vec<Board> {
    let mut positions = Vec::with_capacity(count);
    let mut player = Search::for_level(Level::MEDIUM);
    for opening in balanced_openings(count.div_ceil(12).max(1)) {
        let mut board = opening;
        let mut ply = 0;
        while !board.is_game_over() && positions.len() < count {
            let empties = board.empty().count();
            if (10..=55).contains(&empties) && ply % 3 == 0 && !board.must_pass() {
                positions.push(board);
            }
            let mv = if board.must_pass() {
                Move::Pass
            } else {
                match player.run(&board, None) {
                    Ok(choice) => choice.mv,
                    Err(_) => break,
                }
            };
            board = board.play(mv).unwrap_or(board);
            ply += 1;
        }
    }
    positions
}
