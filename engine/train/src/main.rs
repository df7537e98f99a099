//! `outflank-train`: generates self-play training data and fits the engine's pattern
//! evaluation. Run without arguments for the usage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use outflank_train::blend;
use outflank_train::data::Settings;
use outflank_train::exact_check::{self, CheckOptions};
use outflank_train::fit::{self, FitOptions, PhaseLambda};
use outflank_train::generate::{self, GenerateOptions};
use outflank_train::positions;

const USAGE: &str = "\
usage:
  outflank-train generate --out FILE --games N [--seed S] [--threads T] [--minutes M]
                          [--solve-empties E] [--random-min A] [--random-max B]
                          [--random-per-mille R] [--search-nodes K] [--solve-node-limit L]
                          [--label-nodes N --label-depth D --label-max-empties M]
                          [--play trained|hand-tuned]
  outflank-train fit --out WEIGHTS [--seed S] [--threads T] [--holdout F] [--lambda X]
                     [--lambda-empties LOW-HIGH=X]... [--iterations I] [--window W]
                     [--chain 0|1] DATA...
  outflank-train eval-stats --weights WEIGHTS [--seed S] [--holdout F] DATA...
  outflank-train blend --out WEIGHTS --share S FIRST SECOND
  outflank-train exact-check --weights WEIGHTS --positions N [--seed S] [--threads T]
                             [--empties LOW-HIGH] [--label-depth D] [--label-nodes K]
                             [--search-nodes K] [--solve-node-limit L]
  outflank-train positions --out FILE.obf --positions N [--seed S] [--empties LOW-HIGH] DATA...

generate plays self-play games (resuming after the games already in FILE) with the engine's
trained evaluation (or, with --play hand-tuned, its hand-tuned one, to start from scratch) and
labels their positions with exact endgame results (and, with --label-nodes, the positions
before the solve point with at most M empties by a D-ply search); fit fits the pattern weights by least squares and
reports the held-out error by phase; eval-stats reports the error of a weights file; blend
writes each weight as S times FIRST's plus (1 - S) times SECOND's; exact-check plays new games
(seed 1001 unless given) to positions of LOW to HIGH empties (20-28), solves each exactly and
reports the error of the weights' evaluation and of a D-ply search (12, at most 1000000 nodes)
against the exact values; positions writes N positions of the data files with LOW to HIGH
empties (10-55), drawn for the seed (1), as an OBF file, for outflank-engine probcut-fit --file.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Options of the form `--name value`, and the other arguments.
struct Args {
    named: Vec<(String, String)>,
    positional: Vec<String>,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut named = Vec::new();
        let mut positional = Vec::new();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if let Some(name) = arg.strip_prefix("--") {
                let value = iter.next().ok_or_else(|| format!("--{name} needs a value"))?;
                named.push((name.to_owned(), value.clone()));
            } else {
                positional.push(arg.clone());
            }
        }
        Ok(Args { named, positional })
    }

    fn take(&mut self, name: &str) -> Option<String> {
        let at = self.named.iter().position(|(n, _)| n == name)?;
        Some(self.named.remove(at).1)
    }

    fn number<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        match self.take(name) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| format!("--{name}: \"{text}\" is not a number")),
        }
    }

    /// Every value of an option that may be repeated, in order.
    fn all<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut values = Vec::new();
        while let Some(text) = self.take(name) {
            values.push(parse(&text)?);
        }
        Ok(values)
    }

    fn required(&mut self, name: &str) -> Result<String, String> {
        self.take(name).ok_or_else(|| format!("--{name} is required\n\n{USAGE}"))
    }

    fn finish(&self) -> Result<(), String> {
        match self.named.first() {
            Some((name, _)) => Err(format!("unknown option --{name}\n\n{USAGE}")),
            None => Ok(()),
        }
    }
}

/// The data files named on the command line: at least one.
fn data_files(args: &Args) -> Result<Vec<PathBuf>, String> {
    if args.positional.is_empty() {
        return Err(format!("no data files\n\n{USAGE}"));
    }
    Ok(args.positional.iter().map(PathBuf::from).collect())
}

/// `LOW-HIGH` empties, both from 1 to 60, `LOW` at most `HIGH`.
fn empties_range(text: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let parsed = text.split_once('-').and_then(|(low, high)| {
        Some((low.trim().parse::<u32>().ok()?, high.trim().parse::<u32>().ok()?))
    });
    match parsed {
        Some((low, high)) if (1..=high).contains(&low) && high <= 60 => Ok(low..=high),
        _ => Err(format!("--empties: \"{text}\" is not LOW-HIGH with 1 <= LOW <= HIGH <= 60")),
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.to_owned());
    };
    let mut args = Args::parse(rest)?;
    match command.as_str() {
        "generate" => {
            let d = Settings::default();
            let settings = Settings {
                seed: args.number("seed", d.seed)?,
                solve_empties: args.number("solve-empties", d.solve_empties)?,
                random_min: args.number("random-min", d.random_min)?,
                random_max: args.number("random-max", d.random_max)?,
                random_per_mille: args.number("random-per-mille", d.random_per_mille)?,
                search_nodes: args.number("search-nodes", d.search_nodes)?,
                solve_node_limit: args.number("solve-node-limit", d.solve_node_limit)?,
                label_nodes: args.number("label-nodes", d.label_nodes)?,
                label_depth: args.number("label-depth", d.label_depth)?,
                label_max_empties: args.number("label-max-empties", d.label_max_empties)?,
                play: match args.take("play") {
                    Some(text) => text.parse().map_err(|e| format!("--play: {e}"))?,
                    None => d.play,
                },
            };
            if settings.label_nodes > 0 && settings.label_depth == 0 {
                return Err("--label-nodes needs --label-depth".into());
            }
            if settings.random_min > settings.random_max {
                return Err("--random-min is above --random-max".into());
            }
            let out = PathBuf::from(args.required("out")?);
            let games = args.number("games", 0u32)?;
            let threads = args.number("threads", default_threads())?;
            let minutes: f64 = args.number("minutes", 0.0)?;
            args.finish()?;
            let options = GenerateOptions {
                settings,
                games,
                threads,
                time_limit: (minutes > 0.0).then(|| Duration::from_secs_f64(minutes * 60.0)),
                progress: true,
            };
            let summary = generate::generate(&out, &options).map_err(|e| e.to_string())?;
            println!(
                "{}: {} games ({} skipped), {} positions",
                out.display(),
                summary.games,
                summary.skipped,
                summary.positions
            );
            Ok(())
        }
        "fit" => {
            let d = FitOptions::default();
            let options = FitOptions {
                seed: args.number("seed", d.seed)?,
                threads: args.number("threads", default_threads())?,
                holdout: args.number("holdout", d.holdout)?,
                lambda: args.number("lambda", d.lambda)?,
                phase_lambdas: args.all("lambda-empties", |text| {
                    text.parse::<PhaseLambda>().map_err(|e| format!("--lambda-empties: {e}"))
                })?,
                iterations: args.number("iterations", d.iterations)?,
                window: args.number("window", d.window)?,
                chain: args.number("chain", u8::from(d.chain))? != 0,
                progress: true,
            };
            let files = data_files(&args)?;
            let out = PathBuf::from(args.required("out")?);
            args.finish()?;
            fit::fit_files(&files, &out, &options).map_err(|e| e.to_string())
        }
        "eval-stats" => {
            // Only the held-out split matters here: fitting options are refused as unknown
            // rather than silently ignored.
            let d = FitOptions::default();
            let options = FitOptions {
                seed: args.number("seed", d.seed)?,
                holdout: args.number("holdout", d.holdout)?,
                iterations: 0,
                ..d
            };
            let files = data_files(&args)?;
            let weights = PathBuf::from(args.required("weights")?);
            args.finish()?;
            fit::eval_stats(&files, &weights, &options).map_err(|e| e.to_string())
        }
        "blend" => {
            let out = PathBuf::from(args.required("out")?);
            let text = args.required("share")?;
            let share: f64 =
                text.parse().map_err(|_| format!("--share: \"{text}\" is not a number"))?;
            args.finish()?;
            let [first, second] = args.positional.as_slice() else {
                return Err(format!("blend needs two weight files\n\n{USAGE}"));
            };
            blend::blend_files(Path::new(first), Path::new(second), share, &out)
                .map_err(|e| e.to_string())
        }
        "exact-check" => {
            let d = Settings::default();
            let settings = Settings {
                seed: args.number("seed", 1001)?,
                search_nodes: args.number("search-nodes", d.search_nodes)?,
                solve_node_limit: args.number("solve-node-limit", 4_000_000_000)?,
                label_depth: args.number("label-depth", 12)?,
                label_nodes: args.number("label-nodes", 1_000_000)?,
                ..d
            };
            if settings.label_depth == 0 {
                return Err("--label-depth must be at least 1".into());
            }
            let empties = match args.take("empties") {
                None => 20..=28,
                Some(text) => empties_range(&text)?,
            };
            let weights = PathBuf::from(args.required("weights")?);
            let positions = args.number("positions", 0u32)?;
            let threads = args.number("threads", default_threads())?;
            args.finish()?;
            if positions == 0 {
                return Err("--positions must be at least 1".into());
            }
            let weights = fit::read_weights(&weights).map_err(|e| e.to_string())?;
            let options = CheckOptions { settings, positions, empties, threads, progress: true };
            let report = exact_check::check(&weights, &options);
            print!("{}", exact_check::table(&report, settings.label_depth));
            Ok(())
        }
        "positions" => {
            let out = PathBuf::from(args.required("out")?);
            let count = args.number("positions", 0usize)?;
            let seed = args.number("seed", 1u64)?;
            let empties = match args.take("empties") {
                None => 10..=55,
                Some(text) => empties_range(&text)?,
            };
            let files = data_files(&args)?;
            args.finish()?;
            if count == 0 {
                return Err("--positions must be at least 1".into());
            }
            let boards =
                positions::sample(&files, count, seed, empties).map_err(|e| e.to_string())?;
            positions::write_obf(&out, &boards).map_err(|e| e.to_string())?;
            println!("{}: {} positions", out.display(), boards.len());
            Ok(())
        }
        _ => Err(format!("unknown command \"{command}\"\n\n{USAGE}")),
    }
}
