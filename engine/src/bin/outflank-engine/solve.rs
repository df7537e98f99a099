//! `solve`: the exact score and best move of one position, or of every position in an OBF file.
//!
//! ```text
//! solve "<64-char position> <X|O>" [--scoring discs|empties-to-winner] [--threads N]
//! solve --file PATH [--limit N] [--threads N]
//! ```
//! `--threads` (default 1) solves each position with that many threads.
//! OBF lines hold a position, its side to move, then `MOVE:score` pairs, best first, scored
//! with the empties going to the winner; files are therefore solved under that convention.

use std::time::Instant;

use outflank_engine::Board;
use outflank_engine::solve::{Scoring, Solution, SolveOptions, solve_with};
use serde_json::json;

use crate::obf;
use crate::{CliError, threads_option};

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let mut args = args.to_vec();
    let scoring = match take_option(&mut args, "--scoring")?.as_deref() {
        None => None,
        Some("discs") => Some(Scoring::Discs),
        Some("empties-to-winner") => Some(Scoring::EmptiesToWinner),
        Some(other) => {
            return Err(CliError(format!(
                "unknown scoring {other:?}; expected discs or empties-to-winner"
            )));
        }
    };
    let limit = take_option(&mut args, "--limit")?
        .map(|text| {
            text.parse::<usize>()
                .map_err(|_| CliError(format!("--limit {text:?} is not a number of positions")))
        })
        .transpose()?;
    let threads = take_option(&mut args, "--threads")?
        .map(|text| threads_option(&text))
        .transpose()?
        .unwrap_or(1);
    let file = take_option(&mut args, "--file")?;
    // Positions may start with "--" too, but they are 64 squares long.
    let is_flag = |arg: &&String| {
        arg.starts_with("--") && arg.split_whitespace().next().map_or(0, str::len) < 64
    };
    if let Some(flag) = args.iter().find(is_flag) {
        return Err(CliError(format!("unknown option {flag:?} for solve")));
    }
    match file {
        Some(path) => {
            if !args.is_empty() {
                return Err(CliError("give either a position or --file, not both".into()));
            }
            solve_file(&path, scoring.unwrap_or(Scoring::EmptiesToWinner), limit, threads, json)
        }
        None => {
            if limit.is_some() {
                return Err(CliError("--limit only applies with --file".into()));
            }
            if args.is_empty() {
                return Err(CliError(
                    "solve needs a position \"<64 squares> <X|O>\" or --file PATH".into(),
                ));
            }
            let text = args.join(" ");
            let board: Board = text.parse()?;
            solve_one(&board, scoring.unwrap_or_default(), threads, json)
        }
    }
}

/// Removes `name VALUE` (or `name=VALUE`) from `args`, returning the value.
fn take_option(args: &mut Vec<String>, name: &str) -> Result<Option<String>, CliError> {
    let prefix = format!("{name}=");
    if let Some(at) = args.iter().position(|arg| arg.starts_with(&prefix)) {
        let value = args.remove(at)[prefix.len()..].to_owned();
        return Ok(Some(value));
    }
    let Some(at) = args.iter().position(|arg| arg == name) else {
        return Ok(None);
    };
    if at + 1 >= args.len() {
        return Err(CliError(format!("{name} needs a value")));
    }
    let value = args.remove(at + 1);
    args.remove(at);
    Ok(Some(value))
}

/// A solve with its wall time.
struct Timed {
    solution: Solution,
    seconds: f64,
}

fn timed_solve(board: &Board, scoring: Scoring, threads: usize) -> Result<Timed, CliError> {
    let options = SolveOptions { scoring, threads, ..SolveOptions::default() };
    let started = Instant::now();
    let solution = solve_with(board, &options)?;
    Ok(Timed { solution, seconds: started.elapsed().as_secs_f64() })
}

fn rate(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9)
}

fn scoring_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Discs => "discs",
        Scoring::EmptiesToWinner => "empties-to-winner",
    }
}

fn best_text(solution: &Solution) -> String {
    solution.best.map_or_else(|| "none (game over)".to_owned(), |mv| mv.to_string())
}

fn solve_one(board: &Board, scoring: Scoring, threads: usize, json: bool) -> Result<(), CliError> {
    let Timed { solution, seconds } = timed_solve(board, scoring, threads)?;
    if json {
        let value = json!({
            "position": board.to_string(),
            "side": board.side_to_move().name(),
            "scoring": scoring_name(scoring),
            "empties": board.empty().count(),
            "score": solution.score,
            "best": solution.best.map(|mv| mv.to_string()),
            "nodes": solution.nodes,
            "seconds": seconds,
            "nodes_per_second": rate(solution.nodes, seconds).round(),
        });
        println!("{value}");
    } else {
        println!(
            "score {:+} for {} ({}), best {}, {} nodes in {seconds:.3} s ({:.1} M nodes/s)",
            solution.score,
            board.side_to_move(),
            scoring_name(scoring),
            best_text(&solution),
            solution.nodes,
            rate(solution.nodes, seconds) / 1e6,
        );
    }
    Ok(())
}

fn solve_file(
    path: &str,
    scoring: Scoring,
    limit: Option<usize>,
    threads: usize,
    json: bool,
) -> Result<(), CliError> {
    let entries = obf::read(path, limit)?;

    let mut rows = Vec::new();
    let (mut nodes, mut seconds, mut mismatches) = (0u64, 0f64, 0usize);
    for entry in &entries {
        let timed = timed_solve(&entry.board, scoring, threads)?;
        let solution = timed.solution;
        let mismatch = entry.expected.filter(|&expected| expected != solution.score);
        nodes += solution.nodes;
        seconds += timed.seconds;
        mismatches += usize::from(mismatch.is_some());
        let empties = entry.board.empty().count();
        if json {
            rows.push(json!({
                "line": entry.line,
                "position": entry.board.to_string(),
                "empties": empties,
                "score": solution.score,
                "expected": entry.expected,
                "mismatch": mismatch.is_some(),
                "best": solution.best.map(|mv| mv.to_string()),
                "nodes": solution.nodes,
                "seconds": timed.seconds,
            }));
        } else {
            let note = mismatch
                .map_or(String::new(), |expected| format!("  MISMATCH (file says {expected:+})"));
            println!(
                "line {:>3}: {empties:>2} empties, score {:+3}, best {:>4}, {:>12} nodes, {:>8.3} s{note}",
                entry.line,
                solution.score,
                best_text(&solution),
                solution.nodes,
                timed.seconds,
            );
        }
    }
    if json {
        let value = json!({
            "file": path,
            "scoring": scoring_name(scoring),
            "positions": rows,
            "solved": entries.len(),
            "mismatches": mismatches,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": rate(nodes, seconds).round(),
        });
        println!("{value}");
    } else {
        println!(
            "{} positions, {mismatches} mismatches, {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
            entries.len(),
            rate(nodes, seconds) / 1e6,
        );
    }
    Ok(())
}
