//! `bestmove --level 1-10|easy|medium|hard "<position or move list>"`: the computer's move.
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
        } else if arg.len() > 2 && arg.starts_with("--") && !looks_like_position(arg) {
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
            "level": level.number(),
            "level_elo": level.elo(),
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

const LEVEL_NEEDED: &str = "bestmove needs --level 1 to 10 (or easy, medium, hard)";

/// Whether the text starts like a position string (possibly a broken one): a first word of at
/// least 32 characters without digits. Move lists always hold digits, options are short.
fn looks_like_position(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    first.chars().count() >= 32 && !first.chars().any(|c| c.is_ascii_digit())
}

/// A position string, or else a move list from the start.
pub fn parse_board(text: &str) -> Result<Board, CliError> {
    if looks_like_position(text) {
        Ok(text.parse::<Board>()?)
    } else {
        Ok(text.parse::<Record>()?.game().board())
    }
}
