//! `bestmove --level easy|medium|hard "<position or move list>"`: the computer's move.
//!
//! The argument is a position string (`"<64 squares a1..h8> <X|O>"`) or a move list from the
//! start (`d3 c5 f6` or `d3c5f6`, passes optional). Several arguments are joined with spaces.
//! The score is for the side to move, in 1/100 disc (`--json`: `"score"`), exact when marked.

use std::time::Instant;

use outflank_engine::ai::{Level, best_move};
use outflank_engine::{Board, Record};

use crate::CliError;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let mut level = None;
    let mut words = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--level" {
            let value = args.next().ok_or_else(|| CliError(LEVEL_NEEDED.into()))?;
            level = Some(value.parse::<Level>()?);
        } else if let Some(value) = arg.strip_prefix("--level=") {
            level = Some(value.parse::<Level>()?);
        } else if arg.starts_with("--") {
            return Err(CliError(format!("unknown option {arg:?} for bestmove")));
        } else {
            words.push(arg.as_str());
        }
    }
    let level = level.ok_or_else(|| CliError(LEVEL_NEEDED.into()))?;
    if words.is_empty() {
        return Err(CliError("bestmove needs a position or a move list".into()));
    }
    let board = parse_board(&words.join(" "))?;

    let started = Instant::now();
    let choice = best_move(&board, level, None)?;
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let value = serde_json::json!({
            "level": level.name(),
            "move": choice.mv.to_string(),
            "score": choice.score,
            "exact": choice.exact,
            "depth": choice.depth,
            "nodes": choice.nodes,
            "seconds": seconds,
        });
        println!("{value}");
    } else {
        let exact = if choice.exact { " (exact)" } else { "" };
        println!(
            "{level}: {} score {:+.2} discs{exact}, depth {}, {} nodes, {seconds:.3} s",
            choice.mv,
            f64::from(choice.score) / 100.0,
            choice.depth,
            choice.nodes,
        );
    }
    Ok(())
}

const LEVEL_NEEDED: &str = "bestmove needs --level easy, medium or hard";

/// A position string if the text starts with a long run of square letters, else a move list.
fn parse_board(text: &str) -> Result<Board, CliError> {
    let first = text.split_whitespace().next().unwrap_or("");
    let looks_like_position =
        first.len() >= 32 && first.chars().all(|c| matches!(c, 'X' | 'x' | 'O' | 'o' | '*' | '-' | '.'));
    if looks_like_position {
        Ok(text.parse::<Board>()?)
    } else {
        Ok(text.parse::<Record>()?.game().board())
    }
}
