//! Self-play training data: games from varied openings, solved exactly near the end.
//!
//! Game `n` of a file with seed `s` depends on `(s, n)` only: a random number (between
//! `random_min` and `random_max`) of uniformly random plies from the start, then the engine's
//! search over its trained evaluation with a small node budget, with now and then (`random_per_mille`) a uniformly random
//! move instead. At `solve_empties` empties the position is solved exactly
//! ([`solve_with`], disc-difference scoring, node-limited: a game whose solve reaches the
//! limit is skipped), and the game goes on along the solver's best line, each position solved
//! again. Every position with a legal move gets as its outcome the final disc difference of
//! perfect play from the solve point, for its own mover (a game that ends before the solve
//! point, its actual result, which is exact too). That outcome is its label too, except for
//! positions before the solve point with at most `label_max_empties` empties when
//! `label_nodes` is set: their label is the value of a deeper search (`label_depth` plies over
//! the trained evaluation, at most `label_nodes` nodes), as the strongest programs label their
//! midgame positions. One game's outcome is shared by all its early positions and carries every
//! mistake played after them; a search's value is the position's own.
//!
//! Positions are deduplicated across the file by their canonical form over the 8 symmetries:
//! a game block holds only positions no earlier game of the file has (the first label wins).
//! Workers play games in parallel; the writer puts them in the file in game order, so the file
//! does not depend on the number of threads, and a resumed run continues after the last
//! complete game.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use outflank_engine::ai::pattern::layout::canonical;
use outflank_engine::ai::{Evaluation, Search, SearchLimits};
use outflank_engine::solve::{Goal, Scoring, SolveOptions, solve_with};
use outflank_engine::{Board, Move};
use thiserror::Error;

use crate::data::{self, DataError, GameBlock, HEADER_LEN, Play, Sample, Settings, Version};
use crate::rng::Rng;

/// A generation run.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub settings: Settings,
    /// Total games the file should hold when the run ends.
    pub games: u32,
    /// Worker threads.
    pub threads: usize,
    /// Stop handing out new games after this long (games already started are finished).
    pub time_limit: Option<Duration>,
    /// Show progress on stderr.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games in the file.
    pub games: u32,
    /// Positions in the file.
    pub positions: u64,
    /// Games of the file skipped because a solve reached its node limit.
    pub skipped: u32,
    /// Games played by this run.
    pub played: u32,
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum GenerateError {
    #[error("{0}")]
    Data(#[from] DataError),
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("the file was generated with other settings ({0:?}); use another output file")]
    OtherSettings(Box<Settings>),
    #[error("the file is of an older format version, which can be read but not extended")]
    OldVersion,
}

/// The searches a game is played and labelled with.
#[derive(Debug)]
pub struct Engines {
    /// Plays the engine's moves.
    pub play: Search,
    /// Labels positions before the solve point (when the settings ask for it).
    pub label: Search,
}

impl Engines {
    /// The searches for `settings`.
    ///
    /// Both use the evaluation of `settings.play`: the trained one is the weights shipped in
    /// the engine at the time (each generation of weights plays and labels the games the next
    /// one learns from), so the data depends on the commit it is made at, and on nothing else.
    pub fn new(settings: &Settings) -> Engines {
        let label = Search::new(SearchLimits {
            max_depth: settings.label_depth,
            node_budget: settings.label_nodes.max(1),
            exact_empties: 0,
            exact_node_limit: 0,
        })
        .with_evaluation(evaluation(settings.play));
        Engines { play: game_search(settings), label }
    }
}

/// The value of `board` for its mover in discs by `search`: forced moves and passes are played
/// out first, so that the search always has a choice to make (the engine's search does not
/// search a lone legal move).
pub fn search_label(board: &Board, search: &mut Search) -> i32 {
    let mut board = *board;
    let mut sign = 1;
    loop {
        let moves = board.legal_moves();
        if moves.is_empty() {
            if board.is_game_over() {
                return sign * (board.player().count() as i32 - board.opponent().count() as i32);
            }
            board = board.play(Move::Pass).expect("a forced pass is legal");
        } else if moves.count() == 1 {
            let only = moves.into_iter().next().expect("one move");
            board = board.play(Move::Place(only)).expect("a legal move");
        } else {
            let choice = search.run(&board, None).expect("a position with a move, never cancelled");
            let discs = (f64::from(choice.score) / 100.0).round() as i32;
            return sign * discs.clamp(-64, 64);
        }
        sign = -sign;
    }
}

/// Plays a game from the start the way the generator's games are played (random plies first,
/// then `search` with a few random moves, drawn from `rng`) until it ends or has `empties`
/// empties left: the positions where a move was chosen, in order, and the board reached.
pub fn play_until(
    settings: &Settings,
    rng: &mut Rng,
    search: &mut Search,
    empties: u32,
) -> (Vec<Board>, Board) {
    let mut board = Board::start();
    let mut chosen: Vec<Board> = Vec::new();
    let span = u64::from(settings.random_max.saturating_sub(settings.random_min)) + 1;
    let random_plies = settings.random_min as u64 + rng.below(span);
    let mut ply = 0u64;
    while !board.is_game_over() && board.empty().count() > empties {
        let moves = board.legal_moves();
        if moves.is_empty() {
            board = board.play(Move::Pass).expect("a forced pass is legal");
            continue;
        }
        chosen.push(board);
        let random = ply < random_plies || rng.below(1000) < u64::from(settings.random_per_mille);
        let mv = if random {
            let squares: Vec<_> = moves.into_iter().collect();
            Move::Place(squares[rng.below(squares.len() as u64) as usize])
        } else {
            search.run(&board, None).expect("a position with a move, never cancelled").mv
        };
        board = board.play(mv).expect("a legal move");
        ply += 1;
    }
    (chosen, board)
}

/// One game played: its labelled positions, or `None` when a solve hit its node limit.
pub fn play_game(settings: &Settings, game: u32, engines: &mut Engines) -> Option<Vec<Sample>> {
    let mut rng = Rng::for_stream(settings.seed, u64::from(game));
    // Positions before the solve point, and the board at it.
    let (before, mut board) =
        play_until(settings, &mut rng, &mut engines.play, settings.solve_empties);

    let mut samples = Vec::with_capacity(before.len() + settings.solve_empties as usize);
    let exact = |board: &Board, outcome: i32| Sample {
        player: board.player().0,
        opponent: board.opponent().0,
        label: outcome as i8,
        outcome: outcome as i8,
    };
    // A position before the solve point: its outcome, and a search's value as its label if
    // the settings ask for one.
    let mut early = |board: &Board, outcome: i32| {
        let searched =
            settings.label_nodes > 0 && board.empty().count() <= settings.label_max_empties;
        let label = if searched { search_label(board, &mut engines.label) } else { outcome };
        Sample { label: label as i8, ..exact(board, outcome) }
    };
    if board.is_game_over() {
        // Ended before the solve point: the actual result is exact.
        let side = board.side_to_move();
        let diff = board.player().count() as i32 - board.opponent().count() as i32;
        for b in &before {
            let outcome = if b.side_to_move() == side { diff } else { -diff };
            samples.push(early(b, outcome));
        }
        return Some(samples);
    }

    let options = SolveOptions {
        scoring: Scoring::Discs,
        goal: Goal::Exact,
        node_limit: Some(settings.solve_node_limit),
        // One thread per solve (the workers are the parallelism), so that every solve and
        // its move are deterministic.
        ..SolveOptions::default()
    };
    let mut solution = solve_with(&board, &options).ok()?;
    let side = board.side_to_move();
    let root = solution.score;
    for b in &before {
        let outcome = if b.side_to_move() == side { root } else { -root };
        samples.push(early(b, outcome));
    }
    // Along the best line, each position solved again for its own best move.
    loop {
        let mv = solution.best.expect("a game not over has a best move");
        if mv != Move::Pass {
            samples.push(exact(&board, solution.score));
        }
        let next = board.play(mv).expect("the solver's move is legal");
        if next.is_game_over() {
            break;
        }
        let next_solution = solve_with(&next, &options).ok()?;
        debug_assert_eq!(next_solution.score, -solution.score, "the best line keeps its score");
        board = next;
        solution = next_solution;
    }
    Some(samples)
}

/// The search that plays the engine's moves of a game.
pub fn game_search(settings: &Settings) -> Search {
    Search::new(SearchLimits {
        max_depth: 60,
        node_budget: settings.search_nodes,
        exact_empties: 0,
        exact_node_limit: 0,
    })
    .with_evaluation(evaluation(settings.play))
}

/// The engine's evaluation for `play`.
fn evaluation(play: Play) -> Evaluation {
    match play {
        Play::Trained => Evaluation::Pattern,
        Play::HandTuned => Evaluation::Full,
    }
}

/// Keeps the positions of `samples` not in `seen` (by canonical form), adding them to it.
fn dedupe(samples: Vec<Sample>, seen: &mut HashSet<(u64, u64)>) -> Vec<Sample> {
    samples.into_iter().filter(|s| seen.insert(canonical(s.player, s.opponent))).collect()
}

/// Generates (or resumes) the data file at `path`.
///
/// # Errors
/// An existing file that is not a data file or was generated with other settings; I/O errors.
pub fn generate(path: &Path, options: &GenerateOptions) -> Result<Summary, GenerateError> {
    let settings = options.settings;
    let mut seen = HashSet::new();
    let mut summary = Summary { games: 0, positions: 0, skipped: 0, played: 0 };

    let file = if path.exists() && std::fs::metadata(path)?.len() > 0 {
        let existing = data::read(path)?;
        if existing.version != Version::Three {
            return Err(GenerateError::OldVersion);
        }
        if existing.settings != settings {
            return Err(GenerateError::OtherSettings(Box::new(existing.settings)));
        }
        for block in &existing.games {
            for s in &block.samples {
                seen.insert(canonical(s.player, s.opponent));
            }
            summary.positions += block.samples.len() as u64;
            summary.skipped += u32::from(block.samples.is_empty());
        }
        summary.games = existing.games.len() as u32;
        let file = OpenOptions::new().write(true).open(path)?;
        // Drop a partial block left by a killed run.
        file.set_len(existing.complete_len.max(HEADER_LEN as u64))?;
        file
    } else {
        let mut file = File::create(path)?;
        file.write_all(&settings.header())?;
        file
    };
    let mut out = BufWriter::new(file);
    io::Seek::seek(&mut out, io::SeekFrom::End(0))?;
    if summary.games >= options.games {
        return Ok(summary);
    }

    let next_game = AtomicU64::new(u64::from(summary.games));
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let start_positions = summary.positions;
    let (sender, receiver) = mpsc::channel::<(u32, Option<Vec<Sample>>)>();
    let mut progress = Progress::new(options.progress);

    std::thread::scope(|scope| -> Result<(), GenerateError> {
        for _ in 0..options.threads.max(1) {
            let sender = sender.clone();
            let (next_game, stop) = (&next_game, &stop);
            scope.spawn(move || {
                let mut engines = Engines::new(&settings);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    if game >= u64::from(options.games) {
                        break;
                    }
                    let samples = play_game(&settings, game as u32, &mut engines);
                    if sender.send((game as u32, samples)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);

        let mut pending = BTreeMap::new();
        let mut result = Ok(());
        loop {
            let received = receiver.recv_timeout(Duration::from_millis(500));
            match received {
                Ok((game, samples)) => {
                    pending.insert(game, samples);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(samples) = pending.remove(&summary.games) {
                let samples = match samples {
                    Some(samples) => dedupe(samples, &mut seen),
                    None => {
                        summary.skipped += 1;
                        Vec::new()
                    }
                };
                summary.positions += samples.len() as u64;
                let block = GameBlock { game: summary.games, samples };
                if let Err(error) = data::write_block(&mut out, &block) {
                    stop.store(true, Ordering::Relaxed);
                    result = Err(error.into());
                }
                summary.games += 1;
                summary.played += 1;
            }
            if options.time_limit.is_some_and(|limit| start.elapsed() >= limit) {
                stop.store(true, Ordering::Relaxed);
            }
            if progress.due() {
                if let Err(error) = out.flush() {
                    stop.store(true, Ordering::Relaxed);
                    result = Err(error.into());
                }
                let rate = (summary.positions - start_positions) as f64
                    / start.elapsed().as_secs_f64().max(1e-9);
                progress.show(&format!(
                    "games {}/{} · positions {} · {:.0} positions/s · skipped {} · {:.0} s",
                    summary.games,
                    options.games,
                    summary.positions,
                    rate,
                    summary.skipped,
                    start.elapsed().as_secs_f64()
                ));
            }
        }
        result
    })?;
    out.flush()?;
    progress.finish(&format!(
        "games {} · positions {} · skipped {} · {} played in {:.1} s",
        summary.games,
        summary.positions,
        summary.skipped,
        summary.played,
        start.elapsed().as_secs_f64()
    ));
    Ok(summary)
}

/// A progress line on stderr: redrawn in place on a terminal, one line every 10 s otherwise
/// (a log file).
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    terminal: bool,
    last: Option<Instant>,
}

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        Progress { enabled, terminal: io::stderr().is_terminal(), last: None }
    }

    /// Whether it is time to show a new line.
    pub fn due(&mut self) -> bool {
        let interval =
            if self.terminal { Duration::from_millis(500) } else { Duration::from_secs(10) };
        let due = self.last.is_none_or(|last| last.elapsed() >= interval);
        if due {
            self.last = Some(Instant::now());
        }
        due
    }

    pub fn show(&self, line: &str) {
        if !self.enabled {
            return;
        }
        if self.terminal {
            eprint!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
    }

    pub fn finish(&self, line: &str) {
        if !self.enabled {
            return;
        }
        if self.terminal {
            eprintln!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
    }
}
