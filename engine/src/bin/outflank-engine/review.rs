//! `review [--depth N] [--exact N] [--threads N] "<record or move list>"`: every ply of a
//! game judged.
//!
//! The argument is a record (SPEC §4), a GGF game or a bare move list; several arguments are
//! joined with spaces, and `-` reads the game from stdin. Values are whole discs: before and
//! after the move for Black, best and played for the mover. The positions are shared among
//! `--threads` threads, by default one a core; the review is the same for any number.

use std::io::Read;
use std::time::Instant;

use outflank_engine::analysis::{self, ReviewOptions, Source};
use outflank_engine::ggf;

use crate::CliError;

/// `--depth N`, `--exact N` and `--threads N` (by default one a core) read into review
/// options, and the other arguments, for `command`; an unknown option is refused (a position
/// string may start with `--`).
pub fn options_and_words(
    args: &[String],
    command: &str,
) -> Result<(ReviewOptions, Vec<String>), CliError> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut options = ReviewOptions { threads: cores, ..ReviewOptions::default() };
    let mut words = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--depth" => options.depth = number(args.next(), "--depth")?,
            "--exact" => options.exact_empties = number(args.next(), "--exact")?,
            "--threads" => match number(args.next(), "--threads")? {
                threads @ 1..=256 => options.threads = threads as usize,
                other => return Err(CliError(format!("--threads {other} is not 1 to 256"))),
            },
            other if other.starts_with("--") && other.len() < 32 => {
                return Err(CliError(format!("unknown option {other:?} for {command}")));
            }
            _ => words.push(arg.clone()),
        }
    }
    if options.depth == 0 {
        return Err(CliError("--depth must be at least 1".into()));
    }
    Ok((options, words))
}

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let (options, words) = options_and_words(args, "review")?;
    let mut text = words.join(" ");
    if text == "-" {
        text.clear();
        std::io::stdin().read_to_string(&mut text)?;
    }
    if text.trim().is_empty() {
        return Err(CliError("review needs a record or a move list".into()));
    }
    let game = ggf::parse_game_text(&text)?;

    // On one thread, each step's time goes to the exact part when its position is solved (the
    // values of the positions come first, last position first, then the judgement of each
    // ply); on several, steps overlap and the time is not split.
    let positions = game.plies().len() + 1;
    let solved = |step: usize| {
        let index = if step < positions { positions - 1 - step } else { step - positions };
        game.board_after(index).is_some_and(|board| board.empty().count() <= options.exact_empties)
    };
    let (mut exact_seconds, mut searched_seconds) = (0.0, 0.0);
    let mut last = (Instant::now(), 0);
    let started = Instant::now();
    let plies = analysis::review(
        &game,
        &options,
        &mut |progress| {
            let (at, step) = last;
            if progress.done > step {
                let spent = at.elapsed().as_secs_f64();
                if solved(step) { exact_seconds += spent } else { searched_seconds += spent }
            }
            last = (Instant::now(), progress.done);
        },
        None,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let split = (options.threads <= 1).then_some((exact_seconds, searched_seconds));
    if json {
        let plies: Vec<_> = plies
            .iter()
            .map(|ply| {
                serde_json::json!({
                    "ply": ply.ply,
                    "color": ply.color.to_string().to_lowercase(),
                    "move": ply.played.to_string(),
                    "value_before": ply.value_before,
                    "value_after": ply.value_after,
                    "best": ply.best.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "best_value": ply.best_value,
                    "played_value": ply.played_value,
                    "loss": ply.loss,
                    "exact": ply.exact,
                    "class": ply.class.name(),
                    "best_line": ply.best_line.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })
            })
            .collect();
        let value = serde_json::json!({
            "exact_from_empties": options.exact_empties,
            "search": options.search_label(),
            "plies": plies,
            "seconds": seconds,
            "threads": options.threads.max(1),
            "exact_seconds": split.map(|(exact, _)| exact),
            "searched_seconds": split.map(|(_, searched)| searched),
        });
        println!("{value}");
    } else {
        for ply in &plies {
            let source = match ply.source {
                Source::Exact => "exact".to_string(),
                Source::Searched { depth } => format!("depth {depth}"),
            };
            let best: Vec<String> = ply.best.iter().map(ToString::to_string).collect();
            let line: Vec<String> = ply.best_line.iter().map(ToString::to_string).collect();
            println!(
                "{:>2}. {:<5} {:<4} {:+3} -> {:+3}  best {} {:+} played {:+} loss {} {:<10} {source:<8} line {}",
                ply.ply,
                ply.color.to_string().to_lowercase(),
                ply.played,
                ply.value_before,
                ply.value_after,
                best.join(","),
                ply.best_value,
                ply.played_value,
                ply.loss,
                ply.class,
                line.join(" "),
            );
        }
        match split {
            Some((exact, searched)) => println!(
                "{} plies reviewed in {seconds:.3} s (exact part {exact:.3} s, searched {searched:.3} s)",
                plies.len()
            ),
            None => println!(
                "{} plies reviewed in {seconds:.3} s on {} threads",
                plies.len(),
                options.threads
            ),
        }
    }
    Ok(())
}

fn number(value: Option<&String>, option: &str) -> Result<u32, CliError> {
    let value = value.ok_or_else(|| CliError(format!("{option} needs a number")))?;
    value.parse().map_err(|_| CliError(format!("{option} needs a number, not {value:?}")))
}
