//! `match <player> <player> [--openings N] [--threads N]`: a match between two computer
//! players from balanced openings, each opening played twice with colours swapped.
//!
//! A player is a level (`1`–`10`, `easy`, `medium`, `hard`) or `classic-hard`: the strongest
//! level as it was with the hand-tuned evaluation (2,000,000 nodes, exact from 20 empties, no
//! probabilistic cut-offs), kept as a yardstick. `classic-N` and `trained-N` play level `N`'s
//! budgets over the hand-tuned or the shipped trained evaluation; with `--weights FILE`,
//! `candidate-N` plays them over the weights in `FILE`, so that a newly fitted weights file
//! meets the shipped one before it replaces it. The openings are fixed: the
//! first `N` eight-ply lines of a seeded random walk whose position a short search scores
//! within 1.5 discs of even, so the same command always plays the same games. Prints the
//! score, the mean disc margin, each side's time per move and the Elo difference the score
//! implies.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use outflank_engine::ai::pattern::weights::Weights;
use outflank_engine::ai::{Evaluation, Level, Search, SearchLimits};
use outflank_engine::{Board, Move};

use crate::CliError;

const USAGE: &str = "match needs two players: match <player> <player> [--openings N] [--threads N] [--weights FILE]";

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Level(Level),
    /// A level's budgets over another evaluation: `classic-7`, `trained-7`, `candidate-7`.
    Evaluated(Level, Evaluation),
    /// The hand-tuned evaluation at the old Hard budget.
    ClassicHard,
}

impl Player {
    /// `candidate` is the evaluation `candidate-N` plays with, if `--weights` gave one.
    fn parse(text: &str, candidate: Option<Evaluation>) -> Result<Player, CliError> {
        if text.eq_ignore_ascii_case("classic-hard") {
            return Ok(Player::ClassicHard);
        }
        let lower = text.to_ascii_lowercase();
        if let Some(level) = lower.strip_prefix("candidate-") {
            let evaluation =
                candidate.ok_or_else(|| CliError("candidate-N needs --weights FILE".to_owned()))?;
            return Ok(Player::Evaluated(level.parse()?, evaluation));
        }
        for (prefix, evaluation) in
            [("classic-", Evaluation::Full), ("trained-", Evaluation::Pattern)]
        {
            if let Some(level) = lower.strip_prefix(prefix) {
                return Ok(Player::Evaluated(level.parse()?, evaluation));
            }
        }
        Ok(Player::Level(text.parse()?))
    }

    fn search(self) -> Search {
        match self {
            Player::Level(level) => Search::for_level(level),
            Player::Evaluated(level, evaluation) => {
                Search::for_level(level).with_evaluation(evaluation)
            }
            Player::ClassicHard => Search::new(SearchLimits {
                max_depth: 60,
                node_budget: 2_000_000,
                exact_empties: 20,
                exact_node_limit: 16_000_000,
            })
            .with_evaluation(Evaluation::Full),
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Level(level) => write!(f, "level {level}"),
            Player::Evaluated(level, evaluation) => {
                let name = match evaluation {
                    Evaluation::Full => "hand-tuned",
                    Evaluation::Simple => "square table",
                    Evaluation::Pattern => "trained",
                    Evaluation::PatternWith(_) => "candidate weights",
                };
                write!(f, "level {level} ({name})")
            }
            Player::ClassicHard => f.write_str("classic Hard"),
        }
    }
}

/// Plies of every opening.
const OPENING_PLIES: usize = 8;

/// How far from even (1/100 disc) an opening may be scored.
const BALANCED: i32 = 150;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let mut players = Vec::new();
    let mut openings = 20;
    let mut weights = None;
    let mut threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--openings" => openings = number(args.next(), "--openings")?,
            "--threads" => threads = number(args.next(), "--threads")?,
            "--weights" => {
                let path = args.next().ok_or_else(|| CliError("--weights needs a file".into()))?;
                weights = Some(read_weights(path)?);
            }
            other if other.starts_with("--") => {
                return Err(CliError(format!("unknown option {other:?} for match")));
            }
            other => players.push(other),
        }
    }
    let candidate = weights.map(Evaluation::PatternWith);
    let players = players
        .into_iter()
        .map(|text| Player::parse(text, candidate))
        .collect::<Result<Vec<_>, _>>()?;
    let [first, second] = players[..] else {
        return Err(CliError(USAGE.into()));
    };
    let openings = balanced_openings(openings.max(1));
    let report = play_match(first, second, &openings, threads.max(1));
    if json {
        let value = serde_json::json!({
            "first": first.to_string(),
            "second": second.to_string(),
            "games": report.games,
            "first_points": report.points,
            "first_score": report.score(),
            "mean_margin": report.mean_margin(),
            "first_ms_per_move": report.ms_per_move(0),
            "second_ms_per_move": report.ms_per_move(1),
            "elo_difference": report.elo_difference(),
        });
        println!("{value}");
    } else {
        println!(
            "{first} vs {second}: {:.1}/{} ({:.1} %), mean margin {:+.2} discs, \
             {:.1} ms/move vs {:.1} ms/move, Elo difference {:+.0}",
            report.points,
            report.games,
            100.0 * report.score(),
            report.mean_margin(),
            report.ms_per_move(0),
            report.ms_per_move(1),
            report.elo_difference(),
        );
    }
    Ok(())
}

/// A weights file, kept for the rest of the process (a match's searches borrow it).
fn read_weights(path: &str) -> Result<&'static Weights, CliError> {
    let bytes =
        std::fs::read(path).map_err(|error| CliError(format!("cannot read {path}: {error}")))?;
    let weights =
        Weights::from_bytes(&bytes).map_err(|error| CliError(format!("{path}: {error}")))?;
    Ok(Box::leak(Box::new(weights)))
}

fn number(value: Option<&String>, option: &str) -> Result<usize, CliError> {
    let value = value.ok_or_else(|| CliError(format!("{option} needs a number")))?;
    value.parse().map_err(|_| CliError(format!("{option} needs a number, not {value:?}")))
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The first `count` balanced eight-ply openings of a fixed random walk.
pub fn balanced_openings(count: usize) -> Vec<Board> {
    let mut rng = Rng(0x0f1a_0c4e_2026_1201);
    let judge =
        SearchLimits { max_depth: 8, node_budget: 200_000, exact_empties: 0, exact_node_limit: 0 };
    let mut search = Search::new(judge);
    let mut openings: Vec<Board> = Vec::with_capacity(count);
    while openings.len() < count {
        let mut board = Board::start();
        for _ in 0..OPENING_PLIES {
            let moves: Vec<_> = board.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            board = board.play(Move::Place(moves[rng.below(moves.len())])).unwrap_or(board);
        }
        if board.legal_moves().is_empty() || openings.contains(&board) {
            continue;
        }
        if search.run(&board, None).is_ok_and(|choice| choice.score.abs() <= BALANCED) {
            openings.push(board);
        }
    }
    openings
}

/// What a match came to, from the first player's point of view.
#[derive(Debug, Default)]
pub struct Report {
    pub games: usize,
    /// 1 a win, ½ a draw.
    pub points: f64,
    /// Sum of the first player's final disc margins.
    pub margin: i64,
    /// Moves and time spent searching, per player.
    pub moves: [u64; 2],
    pub time: [Duration; 2],
}

impl Report {
    pub fn score(&self) -> f64 {
        self.points / self.games.max(1) as f64
    }

    pub fn mean_margin(&self) -> f64 {
        self.margin as f64 / self.games.max(1) as f64
    }

    pub fn ms_per_move(&self, player: usize) -> f64 {
        self.time[player].as_secs_f64() * 1000.0 / self.moves[player].max(1) as f64
    }

    /// The Elo difference a score implies, with half a point added to each side so that a
    /// clean sweep gives a finite number.
    pub fn elo_difference(&self) -> f64 {
        let games = self.games as f64 + 1.0;
        let score = (self.points + 0.5) / games;
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Plays every opening twice (each player once as Black) on `threads` threads.
pub fn play_match(first: Player, second: Player, openings: &[Board], threads: usize) -> Report {
    let jobs: Vec<(Board, bool)> =
        openings.iter().flat_map(|&board| [(board, true), (board, false)]).collect();
    let next = AtomicUsize::new(0);
    let report = Mutex::new(Report::default());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut searches = [first.search(), second.search()];
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(start, first_moves_first)) = jobs.get(job) else { break };
                    let game = play_game(start, &mut searches, first_moves_first);
                    let mut report = report.lock().unwrap_or_else(|e| e.into_inner());
                    report.games += 1;
                    report.points += match game.margin.signum() {
                        1 => 1.0,
                        0 => 0.5,
                        _ => 0.0,
                    };
                    report.margin += i64::from(game.margin);
                    for player in 0..2 {
                        report.moves[player] += game.moves[player];
                        report.time[player] += game.time[player];
                    }
                }
            });
        }
    });
    report.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One game's outcome for the first player.
struct Game {
    margin: i32,
    moves: [u64; 2],
    time: [Duration; 2],
}

/// Plays `start` to the end; `searches[0]` is the first player, to move first in `start`
/// when `first_moves_first`.
fn play_game(start: Board, searches: &mut [Search; 2], first_moves_first: bool) -> Game {
    let mut board = start;
    let mut to_move = usize::from(!first_moves_first);
    let first_color = if first_moves_first { start.side_to_move() } else { !start.side_to_move() };
    let mut game = Game { margin: 0, moves: [0; 2], time: [Duration::ZERO; 2] };
    while !board.is_game_over() {
        let mv = if board.must_pass() {
            Move::Pass
        } else {
            let started = Instant::now();
            let choice = searches[to_move].run(&board, None);
            game.time[to_move] += started.elapsed();
            game.moves[to_move] += 1;
            match choice {
                Ok(choice) => choice.mv,
                Err(_) => break,
            }
        };
        board = board.play(mv).unwrap_or(board);
        to_move = 1 - to_move;
    }
    let counts = board.counts();
    game.margin = i32::from(counts.discs(first_color)) - i32::from(counts.discs(!first_color));
    game
}
