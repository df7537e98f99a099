//! Measures the fair-play signal ([`outflank_api::fair_play`]) on games between the engine's
//! computer levels, which stand in for players of their ratings.
//!
//! ```text
//! cargo run --release -p outflank-api --example fair_play_signal -- [--games N] [--quick]
//!     [--seed S] [--threads T] [--depth D] [--exact E] [--window N] [--save FILE]
//!     [--load FILE]
//! ```
//!
//! Each pair of neighbouring levels plays `--games` games (default 40; 20 with `--quick`, a
//! check that everything runs, whose bands of levels 1 and 10 are too small to assess against),
//! and each level plays the level three above it half as many (at least 10). Each game starts
//! from an XOT opening drawn with `--seed` (default 1), played twice with colours swapped. Each
//! game is reviewed as the server reviews rated games (`--depth` 12, exact from `--exact` 20
//! empties), from the position after the opening, and each side's moves become a
//! [`GameStats`]. Then:
//!
//! - **bands**: level k's band is its games against levels k − 1 and k + 1, the players of its
//!   rating;
//! - **false positives**: every run of 10 (`--window`) consecutive games of level k against its neighbours
//!   is assessed against level k's band made of its other games; none should be flagged;
//! - **detection**: every run of 10 consecutive games of a stronger level against level k is
//!   assessed against level k's band, as if the stronger level played under level k's rating:
//!   three levels up should be flagged; one level up (the neighbours' games again) is shown
//!   for comparison.
//!
//! The same arguments give the same games and the same table on any machine and with any
//! number of threads. `--save FILE` writes every game's statistics as JSON, and `--load FILE`
//! reads them back instead of playing and reviewing again.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use outflank_api::fair_play::{
    Assessment, Band, FLAG_SCORE, GameStats, MIN_GAMES, MoveFacts, assess, band_of,
};
use outflank_engine::ai::{Level, Search};
use outflank_engine::analysis::{
    Class, DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES, PlyReview, ReviewOptions, review,
};
use outflank_engine::xot::{self, Symmetry};
use outflank_engine::{Board, Color, Game, Move};
use serde::{Deserialize, Serialize};

const USAGE: &str = "fair_play_signal [--games N] [--quick] [--seed S] [--threads T] \
                     [--depth D] [--exact E] [--window N] [--save FILE] [--load FILE]";

/// How many levels up the stronger side of a detection pairing plays. One level up is
/// measured on the neighbours' games; three levels up gets pairings of its own.
const GAPS: [u8; 2] = [1, 3];

struct Options {
    games: usize,
    seed: u64,
    threads: usize,
    review: ReviewOptions,
    /// Games in a window.
    window: usize,
    save: Option<String>,
    load: Option<String>,
}

fn main() {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}\nusage: {USAGE}");
            std::process::exit(2);
        }
    };
    let games = match &options.load {
        Some(path) => load(path),
        None => play_all(&options),
    };
    if let Some(path) = &options.save {
        let json = serde_json::to_string_pretty(&games).unwrap_or_default();
        if let Err(error) = std::fs::write(path, json) {
            eprintln!("cannot write {path}: {error}");
            std::process::exit(1);
        }
    }
    report(&games, options.window);
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        games: 40,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        review: ReviewOptions {
            depth: DEFAULT_DEPTH,
            exact_empties: DEFAULT_EXACT_EMPTIES,
            ..ReviewOptions::default()
        },
        window: MIN_GAMES,
        save: None,
        load: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--games" => options.games = number(&value("--games")?)?,
            "--quick" => options.games = 20,
            "--seed" => options.seed = number(&value("--seed")?)?,
            "--threads" => options.threads = number(&value("--threads")?)?,
            "--depth" => options.review.depth = number(&value("--depth")?)?,
            "--exact" => options.review.exact_empties = number(&value("--exact")?)?,
            "--window" => options.window = number(&value("--window")?)?,
            "--save" => options.save = Some(value("--save")?),
            "--load" => options.load = Some(value("--load")?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    // Each opening is played with both colours.
    options.games = options.games.max(2).next_multiple_of(2);
    options.threads = options.threads.max(1);
    options.window = options.window.max(MIN_GAMES);
    Ok(options)
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{text:?} is not a number"))
}

/// One reviewed game between two levels.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Played {
    black: u8,
    white: u8,
    /// The XOT opening the game started from.
    opening: String,
    /// Black's statistics, then White's.
    stats: [GameStats; 2],
}

impl Played {
    /// The statistics of `level`'s side (Black's when both sides are `level`).
    fn of(&self, level: u8) -> &GameStats {
        if self.black == level { &self.stats[0] } else { &self.stats[1] }
    }
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every pairing played, weaker level first, with its number of games: `games` for
/// neighbours (their games make the bands and the false-positive windows), half as many but at
/// least one window's worth for the wider gaps of [`GAPS`].
fn pairings(games: usize) -> Vec<(u8, u8, usize)> {
    let top = Level::ALL.len() as u8;
    let mut pairs = Vec::new();
    for gap in GAPS {
        let games = if gap == 1 { games } else { (games / 2).max(MIN_GAMES).next_multiple_of(2) };
        pairs.extend((1..=top - gap).map(|weak| (weak, weak + gap, games)));
    }
    pairs
}

/// One game to play: a pairing, an opening and who has Black.
struct Job {
    black: Level,
    white: Level,
    opening: xot::Opening,
}

fn jobs(options: &Options) -> Vec<Job> {
    let openings = xot::openings();
    let mut jobs = Vec::new();
    for (index, (weak, strong, games)) in pairings(options.games).into_iter().enumerate() {
        let (Some(weak), Some(strong)) = (Level::new(weak), Level::new(strong)) else {
            continue;
        };
        let mut rng = Rng(options.seed ^ (index as u64 + 1).wrapping_mul(0x0f1a_2026));
        for _ in 0..games / 2 {
            let symmetry = Symmetry::ALL[rng.below(Symmetry::ALL.len())];
            let opening = openings[rng.below(openings.len())].under(symmetry);
            jobs.push(Job { black: weak, white: strong, opening });
            jobs.push(Job { black: strong, white: weak, opening });
        }
    }
    jobs
}

fn play_all(options: &Options) -> Vec<Played> {
    let jobs = jobs(options);
    let started = Instant::now();
    eprintln!(
        "{} games ({} a pairing of neighbours), reviews at depth {}, exact from {} empties, {} threads",
        jobs.len(),
        options.games,
        options.review.depth,
        options.review.exact_empties,
        options.threads
    );
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let times = Mutex::new((Duration::ZERO, Duration::ZERO));
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(jobs.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..options.threads.min(jobs.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(index) else { break };
                    let (played, playing, reviewing) = play_and_review(job, &options.review);
                    let mut spent = times.lock().unwrap_or_else(|e| e.into_inner());
                    spent.0 += playing;
                    spent.1 += reviewing;
                    drop(spent);
                    results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(played);
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if finished.is_multiple_of(20) || finished == jobs.len() {
                        eprintln!(
                            "{finished}/{} games, {:.0} s",
                            jobs.len(),
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let (playing, reviewing) = times.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "{:.0} s in all; playing {:.0} s, reviewing {:.0} s (summed over threads)",
        started.elapsed().as_secs_f64(),
        playing.as_secs_f64(),
        reviewing.as_secs_f64()
    );
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

/// A reviewed game, and the time spent playing it and reviewing it.
fn play_and_review(job: &Job, options: &ReviewOptions) -> (Played, Duration, Duration) {
    let started = Instant::now();
    let mut game = Game::new(job.opening.board());
    let mut searches = [Search::for_level(job.black), Search::for_level(job.white)];
    while !game.is_over() {
        let board: Board = game.board();
        let side = usize::from(board.side_to_move() == Color::White);
        let mv = match searches[side].run(&board, None) {
            Ok(choice) => choice.mv,
            Err(_) => break,
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    let played = started.elapsed();
    let plies = review(&game, options, &mut |_| {}, None).unwrap_or_default();
    let reviewed = started.elapsed() - played;
    let side = |color: Color| GameStats::from_moves(&facts(&plies, color));
    let game = Played {
        black: job.black.number(),
        white: job.white.number(),
        opening: job.opening.to_string(),
        stats: [side(Color::Black), side(Color::White)],
    };
    (game, played, reviewed)
}

/// `color`'s moves as the review saw them, passes left out. Computers' move times say
/// nothing about people's, so none is given.
fn facts(plies: &[PlyReview], color: Color) -> Vec<MoveFacts> {
    plies
        .iter()
        .filter(|ply| ply.color == color && ply.played != Move::Pass)
        .map(|ply| MoveFacts {
            loss: ply.loss,
            forced: ply.class == Class::Forced,
            exact: ply.exact,
            think_ms: None,
        })
        .collect()
}

fn load(path: &str) -> Vec<Played> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| {
        eprintln!("cannot read {path}: {error}");
        std::process::exit(1);
    });
    serde_json::from_str(&text).unwrap_or_else(|error| {
        eprintln!("{path}: {error}");
        std::process::exit(1);
    })
}

/// The games of `level` against `opponent`, in the order played.
fn games_between(games: &[Played], level: u8, opponent: u8) -> Vec<GameStats> {
    games
        .iter()
        .filter(|game| {
            (game.black, game.white) == (level, opponent)
                || (game.black, game.white) == (opponent, level)
        })
        .map(|game| game.of(level).clone())
        .collect()
}

/// Level `level`'s games against its neighbours, alternating between them as far as both
/// last: a player meeting players a little above and a little below.
fn neighbour_games(games: &[Played], level: u8) -> Vec<GameStats> {
    let below = if level > 1 { games_between(games, level, level - 1) } else { Vec::new() };
    let above = games_between(games, level, level + 1);
    let mut mixed = Vec::with_capacity(below.len() + above.len());
    for index in 0..below.len().max(above.len()) {
        mixed.extend(below.get(index).cloned());
        mixed.extend(above.get(index).cloned());
    }
    mixed
}

/// Level `level`'s band: its rating's band, made of `games`.
fn band(level: u8, games: &[GameStats]) -> Band {
    let (low, high) = band_of(f64::from(Level::new(level).map_or(0, Level::elo)));
    Band::from_games(low, high, games)
}

/// What the windows (runs of consecutive games) gave.
#[derive(Default)]
struct Windows {
    windows: u32,
    /// Windows with no assessment (too few band games).
    unassessed: u32,
    flagged: u32,
    /// The largest (false positives) or smallest (detection) z of the mean loss, of the share
    /// of best moves, of the perfect-endgame rate and of their sum.
    extremes: [Option<f64>; 4],
}

impl Windows {
    fn add(&mut self, assessment: Option<Assessment>, keep_largest: bool) {
        self.windows += 1;
        let Some(assessment) = assessment else {
            self.unassessed += 1;
            return;
        };
        self.flagged += u32::from(assessment.flagged);
        let zs = [
            Some(assessment.z_loss),
            Some(assessment.z_best),
            assessment.z_perfect,
            Some(assessment.score),
        ];
        for (extreme, z) in self.extremes.iter_mut().zip(zs) {
            *extreme = match (*extreme, z) {
                (Some(old), Some(new)) => {
                    Some(if keep_largest { old.max(new) } else { old.min(new) })
                }
                (old, new) => old.or(new),
            };
        }
    }

    fn assessed(&self) -> u32 {
        self.windows - self.unassessed
    }

    fn rate(&self) -> String {
        if self.assessed() == 0 {
            return "—".into();
        }
        format!(
            "{}/{} ({:.0} %)",
            self.flagged,
            self.assessed(),
            100.0 * f64::from(self.flagged) / f64::from(self.assessed())
        )
    }

    /// The extremes as table cells.
    fn zs(&self) -> String {
        let cells: Vec<String> =
            self.extremes.iter().map(|z| z.map_or("—".into(), |z| format!("{z:.1}"))).collect();
        cells.join(" | ")
    }
}

/// The tables, for windows of `size` consecutive games.
fn report(games: &[Played], size: usize) {
    println!(
        "Windows of {size} consecutive games; flagged when z loss + z best + z perfect \
         ≥ {FLAG_SCORE}.\n"
    );
    let levels: Vec<u8> = Level::ALL.iter().map(|level| level.number()).collect();
    let neighbours: BTreeMap<u8, Vec<GameStats>> =
        levels.iter().map(|&level| (level, neighbour_games(games, level))).collect();

    println!("## Bands (each level's games against its neighbours)\n");
    println!("| level | rating | games | mean loss | best moves | perfect endgames |");
    println!("|---|---|---|---|---|---|");
    for &level in &levels {
        let band = band(level, &neighbours[&level]);
        println!(
            "| {level} | {} | {} | {:.2} ± {:.2} | {:.1} % ± {:.1} | {:.0} % of {} |",
            Level::new(level).map_or(0, Level::elo),
            band.mean_loss.count,
            band.mean_loss.mean,
            band.mean_loss.sd,
            100.0 * band.best_share.mean,
            100.0 * band.best_share.sd,
            100.0 * band.perfect_rate.mean,
            band.perfect_rate.count,
        );
    }

    println!("\n## False positives: level k against its neighbours, beside level k's band\n");
    println!("| level | windows | flagged | largest z: loss | best | perfect | score |");
    println!("|---|---|---|---|---|---|---|");
    let mut total = Windows::default();
    for &level in &levels {
        let own = &neighbours[&level];
        let mut windows = Windows::default();
        for start in 0..own.len().saturating_sub(size - 1) {
            let range = start..start + size;
            // The band leaves the window's own games out.
            let others: Vec<GameStats> = own
                .iter()
                .enumerate()
                .filter(|(index, _)| !range.contains(index))
                .map(|(_, game)| game.clone())
                .collect();
            let assessment = assess(&own[range], &band(level, &others));
            total.add(assessment.clone(), true);
            windows.add(assessment, true);
        }
        println!("| {level} | {} | {} | {} |", windows.windows, windows.rate(), windows.zs());
    }
    println!("| all | {} | {} | {} |", total.windows, total.rate(), total.zs());

    println!("\n## Detection: a stronger level under level k's rating, beside level k's band\n");
    println!(
        "| levels up | pairing | windows | flagged | smallest z: loss | best | perfect | score |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for gap in GAPS {
        let mut total = Windows::default();
        for weak in levels.iter().copied().filter(|&level| level + gap <= levels.len() as u8) {
            let strong = weak + gap;
            let weak_band = band(weak, &neighbours[&weak]);
            let played = games_between(games, strong, weak);
            let mut windows = Windows::default();
            for window in played.windows(size) {
                let assessment = assess(window, &weak_band);
                total.add(assessment.clone(), false);
                windows.add(assessment, false);
            }
            println!(
                "| {gap} | {strong} as {weak} | {} | {} | {} |",
                windows.windows,
                windows.rate(),
                windows.zs()
            );
        }
        println!("| {gap} | all | {} | {} | {} |", total.windows, total.rate(), total.zs());
    }
}
