//! `outflank-engine`: perft, exact endgame solving and best moves from the command line, and
//! an NBoard protocol engine.
//!
//! Every command takes `--json` to print one JSON object on stdout. Bad input prints a one-line
//! error on stderr and exits with code 2.

mod bestmove;
mod matches;
mod nboard;
mod obf;
mod perft;
mod probcut;
mod review;
mod solve;
mod values;
mod xot;

use std::process::ExitCode;

const USAGE: &str = "usage: outflank-engine [--json] <command>
commands:
  perft <depth>                              count leaves of the game tree from the start
  solve \"<64-char position> <X|O>\" [--scoring discs|empties-to-winner]
                                             exact score and best move for the side to move
  solve --file PATH [--limit N]              solve the positions of an OBF file (empties to the
                                             winner, as such files count), flagging mismatches
  bestmove --level 1-10|easy|medium|hard \"<position or move list>\"
  match <player> <player> [--openings N] [--threads N] [--weights FILE]
                                             a match from balanced openings, both colours;
                                             a player is a level, classic-N, trained-N,
                                             classic-hard, or candidate-N (FILE's weights)
  review [--depth N] [--exact N] [--threads N] \"<record, GGF or move list>\" | -
                                             every ply judged: values, best moves, loss, class
  values [--depth N] [--exact N] [--threads N] \"<position or move list>\"
                                             every legal move valued, best first
                                             (review and values: one thread a core by default)
  probcut-fit [--positions N] [--file PATH]  measure the margins of probabilistic cut-offs,
                                             on self-play positions or an OBF file's
  nboard [--threads N]                       be an engine for the NBoard GUI: the NBoard
                                             protocol on stdin and stdout
  xot [--depth N] [--nodes N] [--within DISCS] [--threads N]
                                             the XOT opening list: balanced eight-ply lines";

/// A command-line failure: the message is printed as one line.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(error: E) -> Self {
        CliError(error.to_string())
    }
}

/// The value of a `--threads` option: 1 to 256.
pub fn threads_option(text: &str) -> Result<usize, CliError> {
    text.parse::<usize>()
        .ok()
        .filter(|threads| (1..=256).contains(threads))
        .ok_or_else(|| CliError(format!("--threads {text:?} is not 1 to 256")))
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = take_flag(&mut args, "--json");
    let outcome = match args.first().map(String::as_str) {
        Some("perft") => perft::run(&args[1..], json),
        Some("solve") => solve::run(&args[1..], json),
        Some("bestmove") => bestmove::run(&args[1..], json),
        Some("nboard") => nboard::run(&args[1..], json),
        Some("match") => matches::run(&args[1..], json),
        Some("review") => review::run(&args[1..], json),
        Some("values") => values::run(&args[1..], json),
        Some("probcut-fit") => probcut::run(&args[1..], json),
        Some("xot") => xot::run(&args[1..], json),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(CliError(format!("unknown command {other:?}; try --help"))),
        None => Err(CliError("no command given; try --help".into())),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Removes every `flag` from `args`, saying whether there was one.
pub fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let before = args.len();
    args.retain(|arg| arg != flag);
    args.len() != before
}
