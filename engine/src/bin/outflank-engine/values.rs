//! `values [--depth N] [--exact N] [--threads N] "<position or move list>"`: every legal move
//! valued, best first, as a review values a ply, the moves shared among `--threads` threads
//! (by default one a core).
//!
//! The argument is read as by `bestmove`. Values are whole discs for the side to move, exact
//! when marked; the best line follows.

use std::time::Instant;

use outflank_engine::analysis;

use crate::CliError;
use crate::bestmove::parse_board;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let (options, words) = crate::review::options_and_words(args, "values")?;
    if words.is_empty() {
        return Err(CliError("values needs a position or a move list".into()));
    }
    let board = parse_board(&words.join(" "))?;
    let started = Instant::now();
    let values = analysis::move_values(&board, &options, &mut |_| {}, None)?;
    let seconds = started.elapsed().as_secs_f64();
    let line: Vec<String> = values.best_line.iter().map(ToString::to_string).collect();
    if json {
        let moves: Vec<_> = values
            .moves
            .iter()
            .map(|value| {
                serde_json::json!({
                    "move": value.mv.to_string(),
                    "value": value.value,
                    "exact": value.exact,
                })
            })
            .collect();
        let value = serde_json::json!({
            "exact_from_empties": options.exact_empties,
            "search": options.search_label(),
            "moves": moves,
            "best_line": line,
            "seconds": seconds,
            "threads": options.threads,
        });
        println!("{value}");
    } else {
        for value in &values.moves {
            let exact = if value.exact { " (exact)" } else { "" };
            println!("{:<4} {:+3}{exact}", value.mv, value.value);
        }
        println!("best line {}", line.join(" "));
        println!("{} moves valued in {seconds:.3} s", values.moves.len());
    }
    Ok(())
}
