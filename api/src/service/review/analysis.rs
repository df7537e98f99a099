//! Every finished game reviewed by the engine, in the background and below live games.
//!
//! A bounded queue feeds a few workers ([`AnalysisSettings`]). A worker claims the game's row
//! in the store (so on several nodes one of them analyses it), reviews the game on a thread of
//! the idle scheduling class ([`IdleThreads`]) with [`outflank_engine::analysis::review`], and
//! stores the result once, with the puzzles of its players' worst mistakes. Between steps
//! the review waits while any live computer search runs ([`LiveSearches`]), so analyses never
//! slow a game.
//!
//! Played games and imported records wait in two lines, each of [`AnalysisSettings::queue`]
//! places: a worker takes an import only when no played game waits, so imports, which anyone
//! can send many of, never refuse or hold up the review of a game played here. A full line
//! refuses new requests; a game queued in the store at its end waits there. A sweep picks up
//! such rows, and those queued or abandoned by a node that stopped. Reviews asked for wait at
//! most [`PER_PLAYER`] per player and [`PER_ADDRESS`] per client address, however many guest
//! sessions that address holds.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use outflank_engine::analysis::{self, Class, PlyReview, ReviewOptions};
use outflank_engine::{Color, Game, Move};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::mpsc;

use crate::domain::{GameId, GameStatus, PlayerId, Timestamp};
use crate::storage::{
    AnalysisRequester, AnalysisRow, AnalysisStatus, DbError, GameSource, PuzzleRow, QueuedAnalysis,
    Store,
};

use crate::service::compute::{IdleThreads, LiveSearches};
use crate::service::time::Clock;

use super::{fair_play, puzzles};

/// The engine that makes the analyses, stored with each: `outflank-engine 0.1.0`.
pub const ENGINE: &str = concat!("outflank-engine ", env!("CARGO_PKG_VERSION"));
/// Analyses one player may have queued or running at once.
pub const PER_PLAYER: u32 = 3;
/// Analyses asked for from one client address (an IPv4 address or IPv6 /64) that may be queued
/// or running at once: a few people sharing a connection, not one person with many sessions.
pub const PER_ADDRESS: u32 = 6;
/// Workers by default.
pub const DEFAULT_WORKERS: u32 = 1;
/// Queued analyses by default.
pub const DEFAULT_QUEUE: u32 = 200;
/// A claim not renewed for this long is taken to belong to a node that stopped.
const STALE_AFTER_MS: i64 = 10 * 60 * 1000;
/// How often a running analysis renews its claim and writes its progress, at most.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);
/// How often the store is swept for analyses nobody works on.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How many analyses run and wait, and how deep they look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisSettings {
    /// Analyses running at once (each on an idle-class thread).
    pub workers: usize,
    /// Analyses waiting at most in each line (played games, imports); more are refused.
    pub queue: usize,
    /// The engine's review settings.
    pub review: ReviewOptions,
}

impl Default for AnalysisSettings {
    fn default() -> Self {
        AnalysisSettings {
            workers: DEFAULT_WORKERS as usize,
            queue: DEFAULT_QUEUE as usize,
            review: ReviewOptions::default(),
        }
    }
}

/// Why an analysis was not queued.
#[derive(Debug, Error)]
pub enum AnalysisError {
    #[error("there is no such game")]
    NotFound,
    #[error("the game is still being played; it can be analysed once it is over")]
    GameLive,
    #[error(
        "at most {PER_PLAYER} analyses per player may wait at once; try again when one is done"
    )]
    TooMany,
    #[error(
        "at most {PER_ADDRESS} analyses asked for from one address may wait at once; try again \
         when one is done"
    )]
    TooManyFromAddress,
    #[error("the analysis queue is full; please try again later")]
    QueueFull,
    #[error("the analysis could not be stored: {0}")]
    Storage(#[source] DbError),
}

impl From<DbError> for AnalysisError {
    fn from(error: DbError) -> AnalysisError {
        match error {
            DbError::NotFound => AnalysisError::NotFound,
            other => AnalysisError::Storage(other),
        }
    }
}

/// One ply of a stored analysis: the engine's review as stored and sent (colours, moves and
/// classes as their names: `"black"`, `"f5"` or `"pass"`, `"blunder"`). The route adds the
/// boards of the best line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysedPly {
    pub ply: usize,
    pub color: Color,
    #[serde(rename = "move")]
    pub mv: Move,
    pub value_before: i32,
    pub value_after: i32,
    pub best: Vec<Move>,
    pub best_value: i32,
    pub played_value: i32,
    pub loss: i32,
    pub exact: bool,
    pub class: Class,
    pub best_line: Vec<Move>,
}

impl From<&PlyReview> for AnalysedPly {
    fn from(ply: &PlyReview) -> AnalysedPly {
        AnalysedPly {
            ply: ply.ply,
            color: ply.color,
            mv: ply.played,
            value_before: ply.value_before,
            value_after: ply.value_after,
            best: ply.best.clone(),
            best_value: ply.best_value,
            played_value: ply.played_value,
            loss: ply.loss,
            exact: ply.exact,
            class: ply.class,
            best_line: ply.best_line.clone(),
        }
    }
}

/// What a done analysis stores: how it was made and every ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisResult {
    /// Positions with this many empties or fewer were solved.
    pub exact_from_empties: u32,
    /// What the other values come from, e.g. `depth 12`.
    pub search: String,
    pub plies: Vec<AnalysedPly>,
}

/// One side's moves in an analysis, summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// Moves made (passes left out).
    pub moves: u32,
    /// Mean disc loss per move.
    pub mean_loss: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The mean of each move's accuracy (`move_accuracy`) over the moves that had a choice
    /// (forced moves and passes left out), 0 to 100, one decimal; `None` when none had one.
    pub accuracy: Option<f64>,
}

/// Discs lost for a move's accuracy to halve: the mistake threshold.
pub const ACCURACY_HALF_LOSS: f64 = 6.0;

/// A move's accuracy, 0 to 100, from the discs it lost against the best move: 100 for a best
/// move, halved with every [`ACCURACY_HALF_LOSS`] discs lost (`100 × 2^(−loss/6)`): 89 for a
/// loss of 1, 50 for 6, 25 for 12. Many small losses and one big blunder both show, and no
/// single move can drag a game's accuracy below zero.
pub fn move_accuracy(loss: i32) -> f64 {
    100.0 * (-f64::from(loss.max(0)) / ACCURACY_HALF_LOSS).exp2()
}

impl AnalysisResult {
    /// The summary of `color`'s moves.
    pub fn summary(&self, color: Color) -> SideSummary {
        let moves: Vec<&AnalysedPly> =
            self.plies.iter().filter(|ply| ply.color == color && ply.mv != Move::Pass).collect();
        let count = |class: Class| {
            let count = moves.iter().filter(|ply| ply.class == class).count();
            u32::try_from(count).unwrap_or(u32::MAX)
        };
        let total_loss: i64 = moves.iter().map(|ply| i64::from(ply.loss)).sum();
        let mean_loss = if moves.is_empty() {
            0.0
        } else {
            // Two decimals are all a person reads.
            (total_loss as f64 / moves.len() as f64 * 100.0).round() / 100.0
        };
        let chosen: Vec<f64> = moves
            .iter()
            .filter(|ply| ply.class != Class::Forced)
            .map(|ply| move_accuracy(ply.loss))
            .collect();
        let accuracy = (!chosen.is_empty())
            .then(|| (chosen.iter().sum::<f64>() / chosen.len() as f64 * 10.0).round() / 10.0);
        SideSummary {
            moves: u32::try_from(moves.len()).unwrap_or(u32::MAX),
            mean_loss,
            accuracy,
            inaccuracies: count(Class::Inaccuracy),
            mistakes: count(Class::Mistake),
            blunders: count(Class::Blunder),
        }
    }
}

/// The analysis queue and its workers. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Analyses {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    store: Store,
    live: LiveSearches,
    settings: AnalysisSettings,
    /// The name this node claims analyses under.
    node: String,
    /// What claims, progress and results are timed by: the games' clock.
    clock: Clock,
    /// The line of played games' reviews.
    played: mpsc::Sender<GameId>,
    /// The line of imported records' reviews, taken only when no played game waits.
    imported: mpsc::Sender<GameId>,
    /// Games in this node's queue or being analysed here, so the sweep adds none twice.
    pending: Mutex<HashSet<GameId>>,
    /// Where the reviews run: below every thread of live games.
    threads: IdleThreads,
    /// Held by a request from its count of what its player and address have waiting until its
    /// row is queued, so that a burst of requests cannot all pass the caps before any lands.
    requests: tokio::sync::Mutex<()>,
}

impl Inner {
    /// The line of the reviews of games from `source`.
    fn line(&self, source: GameSource) -> &mpsc::Sender<GameId> {
        match source {
            GameSource::Played => &self.played,
            GameSource::Imported => &self.imported,
        }
    }
}

/// The receiving ends of the two lines, shared by the workers.
#[derive(Debug)]
struct Lines {
    played: mpsc::Receiver<GameId>,
    imported: mpsc::Receiver<GameId>,
}

impl Lines {
    /// The next game to review: a played one while any waits, else an import. `None` once
    /// both lines are closed.
    async fn next(&mut self) -> Option<(GameId, GameSource)> {
        tokio::select! {
            biased;
            Some(game_id) = self.played.recv() => Some((game_id, GameSource::Played)),
            Some(game_id) = self.imported.recv() => Some((game_id, GameSource::Imported)),
            else => None,
        }
    }
}

impl Analyses {
    /// Starts `settings.workers` workers claiming analyses as `node`, each reviewing on a
    /// thread of the idle scheduling class (`IdleThreads`), and the sweep. Must be called
    /// inside a Tokio runtime.
    ///
    /// # Errors
    /// When the system refuses the workers' threads.
    pub fn start(
        store: Store,
        live: LiveSearches,
        settings: AnalysisSettings,
        node: String,
        clock: Clock,
    ) -> std::io::Result<Analyses> {
        let (played, played_receiver) = mpsc::channel(settings.queue.max(1));
        let (imported, imported_receiver) = mpsc::channel(settings.queue.max(1));
        let threads = IdleThreads::start("review", settings.workers)?;
        let pending = Mutex::default();
        let inner = Arc::new(Inner {
            store,
            live,
            settings,
            node,
            clock,
            played,
            imported,
            pending,
            threads,
            requests: tokio::sync::Mutex::new(()),
        });
        let lines = Lines { played: played_receiver, imported: imported_receiver };
        let lines = Arc::new(tokio::sync::Mutex::new(lines));
        for _ in 0..settings.workers.max(1) {
            tokio::spawn(worker(Arc::clone(&inner), Arc::clone(&lines)));
        }
        tokio::spawn(sweep(Arc::downgrade(&inner)));
        Ok(Analyses { inner })
    }

    /// The review settings analyses are made with.
    pub fn settings(&self) -> AnalysisSettings {
        self.inner.settings
    }

    /// Queues the analysis of `game_id`, asked for by `by` (`None` when a game ends), in the
    /// line of its source. A game queued, running or analysed by this engine is left as it is,
    /// and its row returned.
    ///
    /// # Errors
    /// [`AnalysisError::NotFound`] for an unknown game, [`AnalysisError::GameLive`] for one
    /// not over, [`AnalysisError::TooMany`] when `by`'s player has [`PER_PLAYER`] analyses
    /// waiting, [`AnalysisError::TooManyFromAddress`] when `by`'s address has [`PER_ADDRESS`],
    /// [`AnalysisError::QueueFull`] when the game's line is full; a storage error otherwise.
    pub async fn request(
        &self,
        game_id: &GameId,
        by: Option<&AnalysisRequester>,
    ) -> Result<AnalysisRow, AnalysisError> {
        let store = &self.inner.store;
        let game = store.game(game_id).await?;
        if game.status == GameStatus::Live {
            return Err(AnalysisError::GameLive);
        }
        if let Some(row) = self.kept(game_id).await? {
            return Ok(row);
        }
        let _counted = match by {
            Some(_) => Some(self.inner.requests.lock().await),
            None => None,
        };
        if let Some(by) = by {
            let open = store.open_analyses_of(by).await?;
            if open.by_player >= PER_PLAYER {
                return Err(AnalysisError::TooMany);
            }
            if open.from_client >= PER_ADDRESS {
                return Err(AnalysisError::TooManyFromAddress);
            }
        }
        let line = self.inner.line(store.game_source(game_id).await?);
        let permit = line.try_reserve().map_err(|_| AnalysisError::QueueFull)?;
        self.enqueue(game_id, by, permit).await
    }

    /// Hands a game that just ended, whose review the store queued with its end, to the
    /// workers, in the line of played games. Nothing is read: a full line leaves it to the sweep,
    /// which finds it in the store (as it finds the reviews of games that ended on a node that
    /// stopped).
    pub fn game_ended(&self, game_id: GameId) {
        if !lock(&self.inner.pending).insert(game_id.clone()) {
            return;
        }
        if let Err(error) = self.inner.played.try_send(game_id) {
            let game_id = error.into_inner();
            lock(&self.inner.pending).remove(&game_id);
            tracing::info!(game = %game_id, "review queue full: the sweep takes the game up later");
        }
    }

    /// The analysis of `game_id` that a new request leaves as it is: one queued, running, or
    /// done by this engine.
    async fn kept(&self, game_id: &GameId) -> Result<Option<AnalysisRow>, AnalysisError> {
        let row = self.inner.store.analysis(game_id).await?;
        Ok(row.filter(|row| {
            row.status.is_open() || (row.status == AnalysisStatus::Done && row.engine == ENGINE)
        }))
    }

    /// Stores `game_id`'s analysis as queued and hands it to the workers with `permit`; a row
    /// stored meanwhile by another request is returned as it is.
    async fn enqueue(
        &self,
        game_id: &GameId,
        by: Option<&AnalysisRequester>,
        permit: mpsc::Permit<'_, GameId>,
    ) -> Result<AnalysisRow, AnalysisError> {
        let now = self.inner.clock.now();
        match self.inner.store.queue_analysis(game_id, ENGINE, by, now).await? {
            QueuedAnalysis::Queued(row) => {
                lock(&self.inner.pending).insert(game_id.clone());
                permit.send(game_id.clone());
                Ok(row)
            }
            QueuedAnalysis::Existing(row) => Ok(row),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Takes games off the lines one at a time, played ones first, and analyses them.
async fn worker(inner: Arc<Inner>, lines: Arc<tokio::sync::Mutex<Lines>>) {
    loop {
        let next = lines.lock().await.next().await;
        let Some((game_id, source)) = next else { break };
        if let Err(error) = analyse(&inner, &game_id, source).await {
            tracing::warn!(game = %game_id, %error, "analysis not stored");
        }
        lock(&inner.pending).remove(&game_id);
    }
}

/// Why a claimed analysis stopped.
#[derive(Debug, Error)]
enum RunError {
    #[error("the stored game cannot be replayed: {0}")]
    Replay(String),
    #[error("another node took the analysis over")]
    LostClaim,
}

/// Claims `game_id`, from `source`, and, if this node got it, analyses it and stores the
/// result.
async fn analyse(inner: &Arc<Inner>, game_id: &GameId, source: GameSource) -> Result<(), DbError> {
    let store = &inner.store;
    let now = inner.clock.now();
    let stale_before = Timestamp(now.0 - STALE_AFTER_MS);
    if store.claim_analysis(game_id, &inner.node, now, stale_before).await?.is_none() {
        return Ok(());
    }
    let record = store.load_game(game_id).await?;
    let moves = record.moves.iter().map(|row| row.mv);
    let game = match Game::from_moves(record.game.start_position, moves) {
        Ok(game) => game,
        Err(error) => {
            let error = RunError::Replay(error.to_string()).to_string();
            return store.fail_analysis(game_id, &inner.node, &error, inner.clock.now()).await;
        }
    };
    // The people seated, whose mistakes become puzzles (the computer's seat has no player). An
    // imported record's moves are not its seats' players', so it makes none; nor do the plies
    // of a record a game continues.
    let seats = match source {
        GameSource::Played => [record.game.black.id.clone(), record.game.white.id.clone()],
        GameSource::Imported => [None, None],
    };
    let recorded = usize::try_from(store.recorded_plies(game_id).await?).unwrap_or(usize::MAX);
    let run = {
        let inner = Arc::clone(inner);
        let game_id = game_id.clone();
        let runtime = tokio::runtime::Handle::current();
        move || review_blocking(&inner, (&game_id, &game, &seats), recorded, &runtime)
    };
    let outcome = match inner.threads.run(run).await {
        Ok(outcome) => outcome,
        Err(error) => {
            let error = format!("the analysis stopped: {error}");
            return store.fail_analysis(game_id, &inner.node, &error, inner.clock.now()).await;
        }
    };
    match outcome {
        Ok((result, puzzles)) => {
            let text = serde_json::to_string(&result)
                .map_err(|error| DbError::Other(format!("cannot write the analysis: {error}")))?;
            // Before the analysis is done, so that a done analysis has its puzzles; adding them
            // again (a second run after a lost claim) adds none twice.
            if let Err(error) = store.add_puzzles(&puzzles).await {
                tracing::warn!(game = %game_id, %error, "puzzles of the game not stored");
            }
            store.finish_analysis(game_id, &inner.node, &text, inner.clock.now()).await?;
            if source == GameSource::Played {
                // The moderators hear of a player far outside their band; a failure here loses
                // one look, never the review.
                if let Err(error) = fair_play::after_review(store, game_id, inner.clock.now()).await
                {
                    tracing::warn!(game = %game_id, %error, "fair-play signal not computed");
                }
            }
            Ok(())
        }
        // The node that took it over stores it.
        Err(RunError::LostClaim) => Ok(()),
        Err(error) => {
            store.fail_analysis(game_id, &inner.node, &error.to_string(), inner.clock.now()).await
        }
    }
}

/// Reviews `game` on this (blocking) thread: before each step it waits until no live search
/// runs, and now and then writes its progress, which renews the claim. Losing the claim stops it.
/// Then the positions of the seated players' worst mistakes after the first `recorded` plies
/// (those of a record the game continues) are valued for puzzles.
fn review_blocking(
    inner: &Inner,
    (game_id, game, seats): (&GameId, &Game, &[Option<PlayerId>; 2]),
    recorded: usize,
    runtime: &tokio::runtime::Handle,
) -> Result<(AnalysisResult, Vec<PuzzleRow>), RunError> {
    let options = inner.settings.review;
    let cancel = AtomicBool::new(false);
    let mut last_write: Option<Instant> = None;
    let mut progress = |step: analysis::Progress| {
        inner.live.wait_idle();
        let due = last_write.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY);
        if due || step.done == step.total {
            last_write = Some(Instant::now());
            let done = u32::try_from(step.done).unwrap_or(u32::MAX);
            let total = u32::try_from(step.total).unwrap_or(u32::MAX);
            // Written by a task of the runtime, not on this thread: a file database's write
            // holds its one write turn until the future that made it is polled again, and this
            // thread, of the idle class, may wait long for a core while every live move waits
            // for that turn.
            let write = runtime.spawn({
                let (store, game_id, node) =
                    (inner.store.clone(), game_id.clone(), inner.node.clone());
                let now = inner.clock.now();
                async move { store.analysis_progress(&game_id, &node, (done, total), now).await }
            });
            if let Ok(Err(DbError::Conflict)) = runtime.block_on(write) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    };
    let plies = analysis::review(game, &options, &mut progress, Some(&cancel))
        .map_err(|analysis::ReviewError::Cancelled| RunError::LostClaim)?;
    let own = plies.get(recorded..).unwrap_or_default();
    let puzzles = find_puzzles(inner, (game_id, game, seats), own, &cancel)?;
    let result = AnalysisResult {
        exact_from_empties: options.exact_empties,
        search: options.search_label(),
        plies: plies.iter().map(AnalysedPly::from).collect(),
    };
    Ok((result, puzzles))
}

/// The puzzles of a reviewed game: its candidates' positions valued, each move, in turn, at
/// most [`puzzles::PER_GAME`] kept.
fn find_puzzles(
    inner: &Inner,
    (game_id, game, seats): (&GameId, &Game, &[Option<PlayerId>; 2]),
    plies: &[PlyReview],
    cancel: &AtomicBool,
) -> Result<Vec<PuzzleRow>, RunError> {
    let mut found = Vec::new();
    // One time for the game's puzzles: they are listed together, the biggest loss first.
    let now = inner.clock.now();
    let mut give_way = |_: analysis::Progress| inner.live.wait_idle();
    for candidate in puzzles::candidates(plies, [seats[0].as_ref(), seats[1].as_ref()]) {
        if found.len() >= puzzles::PER_GAME {
            break;
        }
        let review = plies.iter().find(|review| review.ply == candidate.ply);
        let position = candidate.ply.checked_sub(1).and_then(|ply| game.board_after(ply));
        let (Some(review), Some(position)) = (review, position) else { continue };
        let values =
            analysis::move_values(&position, &inner.settings.review, &mut give_way, Some(cancel))
                .map_err(|analysis::ReviewError::Cancelled| RunError::LostClaim)?;
        let made = (game_id, &candidate, review);
        found.extend(puzzles::puzzle(made, position, &values, now));
    }
    Ok(found)
}

/// Now and then, queues here the analyses nobody works on: queued with a game's end while the
/// queue was full, queued by a node that stopped before running them, or running on one that
/// stopped renewing its claim.
async fn sweep(inner: std::sync::Weak<Inner>) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else { break };
        sweep_once(&inner).await;
    }
}

/// One pass of the sweep: in each line, as many claimable analyses of its games as it has room
/// for.
async fn sweep_once(inner: &Inner) {
    for source in [GameSource::Played, GameSource::Imported] {
        sweep_line(inner, source).await;
    }
}

async fn sweep_line(inner: &Inner, source: GameSource) {
    let line = inner.line(source);
    let room = u32::try_from(line.capacity()).unwrap_or(u32::MAX);
    if room == 0 {
        return;
    }
    let stale_before = Timestamp(inner.clock.now().0 - STALE_AFTER_MS);
    let found = match inner.store.claimable_analyses(stale_before, source, room).await {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(%error, "the store could not be swept for analyses");
            return;
        }
    };
    for game_id in found {
        if !lock(&inner.pending).insert(game_id.clone()) {
            continue;
        }
        if line.try_send(game_id.clone()).is_err() {
            lock(&inner.pending).remove(&game_id);
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClientKey, EndReason, Winner};
    use crate::service::LiveSearch;
    use crate::service::test_support::until;
    use crate::storage::{FinishedGame, NewGame};
    use outflank_engine::Record;

    const SHORTEST: &str = "d3 c3 b3 d2 e1 d6 d7 e3 f4";

    #[test]
    fn a_moves_accuracy_halves_with_every_six_discs_lost() {
        assert_eq!(move_accuracy(0), 100.0);
        assert_eq!(move_accuracy(6), 50.0);
        assert_eq!(move_accuracy(12), 25.0);
        assert!((move_accuracy(1) - 89.09).abs() < 0.01);
        // A "loss" below zero (a move the search valued above its best) counts as best.
        assert_eq!(move_accuracy(-2), 100.0);
    }

    fn ply(color: Color, mv: &str, loss: i32, class: Class) -> AnalysedPly {
        AnalysedPly {
            ply: 1,
            color,
            mv: mv.parse().unwrap(),
            value_before: 0,
            value_after: 0,
            best: vec![],
            best_value: 0,
            played_value: -loss,
            loss,
            exact: false,
            class,
            best_line: vec![],
        }
    }

    #[test]
    fn a_sides_accuracy_is_the_mean_over_its_moves_that_had_a_choice() {
        let result = AnalysisResult {
            exact_from_empties: 20,
            search: "depth 1".into(),
            plies: vec![
                ply(Color::Black, "d3", 0, Class::Best),
                ply(Color::White, "c3", 6, Class::Mistake),
                ply(Color::Black, "c4", 12, Class::Blunder),
                ply(Color::White, "pass", 0, Class::Forced),
                ply(Color::Black, "e6", 0, Class::Forced),
            ],
        };
        // Black: (100 + 25) / 2, its forced move left out; White: its one move, not its pass.
        assert_eq!(result.summary(Color::Black).accuracy, Some(62.5));
        assert_eq!(result.summary(Color::White).accuracy, Some(50.0));
        let forced_only =
            AnalysisResult { plies: vec![ply(Color::Black, "d3", 0, Class::Forced)], ..result };
        assert_eq!(forced_only.summary(Color::Black).accuracy, None);
    }

    fn new_game() -> NewGame {
        NewGame::on_one_device(GameId::generate(), Timestamp(1))
    }

    /// The game `moves` plays, and its end as stored at `at` (Black's win, as in every game
    /// these tests play), its review queued with it or not.
    fn played(moves: &str, at: Timestamp, review: Option<String>) -> (Game, FinishedGame) {
        let game = moves.parse::<Record>().unwrap().into_game();
        let result = game.result().unwrap();
        let finished = FinishedGame {
            status: GameStatus::Finished,
            winner: Some(Winner::Black),
            end_reason: EndReason::Normal,
            black_discs: result.black,
            white_discs: result.white,
            finished_at: at,
            rated: None,
            review,
        };
        (game, finished)
    }

    /// A game stored finished at once, as an import is: its review is asked for on its own.
    async fn finished_game(store: &Store, moves: &str) -> GameId {
        let (game, finished) = played(moves, Timestamp(2), None);
        let row = new_game();
        store.create_finished_game(&row, game.plies(), &finished).await.unwrap();
        row.id
    }

    fn quick(queue: usize) -> AnalysisSettings {
        AnalysisSettings {
            workers: 1,
            queue,
            review: ReviewOptions { depth: 2, exact_empties: 8, ..ReviewOptions::default() },
        }
    }

    /// An in-memory store, and analyses on it held back by a live search until it is dropped.
    async fn held(queue: usize) -> (Store, LiveSearches, LiveSearch, Analyses) {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let live = LiveSearches::default();
        let search = live.start();
        let analyses = Analyses::start(
            store.clone(),
            live.clone(),
            quick(queue),
            "node-a".into(),
            Clock::System,
        )
        .unwrap();
        (store, live, search, analyses)
    }

    async fn row(store: &Store, id: &GameId) -> AnalysisRow {
        store.analysis(id).await.unwrap().unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_analysis_waits_while_a_live_search_runs_and_goes_on_when_it_ends() {
        let (store, live, search, analyses) = held(4).await;
        let id = finished_game(&store, SHORTEST).await;
        assert_eq!(analyses.request(&id, None).await.unwrap().status, AnalysisStatus::Queued);

        // The worker has claimed it and stands before its first step, waiting for the search.
        until(|| live.waiting() == 1).await;
        let waiting = row(&store, &id).await;
        assert_eq!((waiting.status, waiting.progress_done), (AnalysisStatus::Running, 0));
        assert_eq!(waiting.claimed_by.as_deref(), Some("node-a"));

        drop(search);
        for _ in 0..4_000 {
            if row(&store, &id).await.status == AnalysisStatus::Done {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let done = row(&store, &id).await;
        assert_eq!(done.status, AnalysisStatus::Done);
        assert_eq!((done.progress_done, done.progress_total), (19, 19));
        let result: AnalysisResult = serde_json::from_str(done.result.as_deref().unwrap()).unwrap();
        assert_eq!(result.plies.len(), 9);
        assert_eq!((result.search.as_str(), result.exact_from_empties), ("depth 2", 8));
        assert_eq!(result.summary(Color::White).blunders, 1);
        assert_eq!(result.summary(Color::Black).moves, 5);
        assert!(result.summary(Color::Black).accuracy.is_some_and(|a| (0.0..=100.0).contains(&a)));
        // Done with this engine: asking again stores nothing new.
        assert_eq!(analyses.request(&id, None).await.unwrap(), done);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn live_and_unknown_games_and_a_full_queue_are_refused() {
        let (store, live, _search, analyses) = held(1).await;
        let unknown = analyses.request(&GameId::generate(), None).await;
        assert!(matches!(unknown, Err(AnalysisError::NotFound)), "{unknown:?}");
        let playing = new_game();
        store.create_game(&playing).await.unwrap();
        let refused = analyses.request(&playing.id, None).await;
        assert!(matches!(refused, Err(AnalysisError::GameLive)), "{refused:?}");

        // The worker takes the first off the queue and waits; the second fills the queue.
        let first = finished_game(&store, SHORTEST).await;
        analyses.request(&first, None).await.unwrap();
        until(|| live.waiting() == 1).await;
        let second = finished_game(&store, SHORTEST).await;
        analyses.request(&second, None).await.unwrap();
        let third = finished_game(&store, SHORTEST).await;
        let full = analyses.request(&third, None).await;
        assert!(matches!(full, Err(AnalysisError::QueueFull)), "{full:?}");
        assert_eq!(store.analysis(&third).await.unwrap(), None);
        // A game already queued needs no room.
        assert_eq!(analyses.request(&second, None).await.unwrap().status, AnalysisStatus::Queued);
    }

    /// A game stored live with `moves`, then ended as a game task ends one with a result: its
    /// review queued with its end.
    async fn ended_game(store: &Store, moves: &str) -> GameId {
        stored_live_then_ended(store, moves, Some(ENGINE.to_owned())).await
    }

    /// A game stored live with `moves`, then ended with its review queued or not.
    async fn stored_live_then_ended(store: &Store, moves: &str, review: Option<String>) -> GameId {
        let (game, finished) = played(moves, Timestamp(3), review);
        let row = new_game();
        store.create_game(&row).await.unwrap();
        store.append_plies(&row.id, 0, game.plies(), Timestamp(2)).await.unwrap();
        store.finish_game(&row.id, &finished).await.unwrap();
        row.id
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_ends_is_handed_to_the_workers_without_a_request() {
        let (store, live, _search, analyses) = held(4).await;
        let id = ended_game(&store, SHORTEST).await;
        assert_eq!(row(&store, &id).await.status, AnalysisStatus::Queued);
        analyses.game_ended(id.clone());
        // A worker claimed it and stands before its first step, waiting for the live search.
        until(|| live.waiting() == 1).await;
        let running = row(&store, &id).await;
        assert_eq!(
            (running.status, running.claimed_by.as_deref()),
            (AnalysisStatus::Running, Some("node-a"))
        );
    }

    /// Analyses with a queue of one, held by a live search: one ended game claimed by the
    /// worker, a second handed over and filling the queue. The search, and the second's id.
    async fn one_claimed_one_waiting() -> (Store, LiveSearch, Analyses, GameId) {
        let (store, live, search, analyses) = held(1).await;
        let first = ended_game(&store, SHORTEST).await;
        analyses.game_ended(first);
        until(|| live.waiting() == 1).await;
        let second = ended_game(&store, SHORTEST).await;
        analyses.game_ended(second.clone());
        (store, search, analyses, second)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_ends_while_the_queue_is_full_stays_queued_in_the_store() {
        let (store, _search, analyses, second) = one_claimed_one_waiting().await;
        let third = ended_game(&store, SHORTEST).await;
        analyses.game_ended(third.clone());
        assert!(!lock(&analyses.inner.pending).contains(&third));
        assert_eq!(row(&store, &third).await.status, AnalysisStatus::Queued);
        let mut waiting =
            store.claimable_analyses(Timestamp(0), GameSource::Played, 10).await.unwrap();
        waiting.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        let mut expected = [second, third];
        expected.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        assert_eq!(waiting, expected);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_sweep_hands_the_workers_a_review_queued_with_a_games_end() {
        // Queued with its end on a node that stopped, or while the queue was full: nobody was
        // told. The sweep, which runs at start-up and every minute, finds it.
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let id = ended_game(&store, SHORTEST).await;
        let live = LiveSearches::default();
        let _search = live.start();
        let analyses =
            Analyses::start(store.clone(), live.clone(), quick(1), "node-b".into(), Clock::System);
        let _analyses = analyses.unwrap();
        until(|| live.waiting() == 1).await;
        let running = row(&store, &id).await;
        assert_eq!(
            (running.status, running.claimed_by.as_deref()),
            (AnalysisStatus::Running, Some("node-b"))
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_handed_over_twice_is_queued_once() {
        let (_store, _search, analyses, second) = one_claimed_one_waiting().await;
        analyses.game_ended(second.clone());
        // The second hand-over found the game pending and left the one place to it.
        assert_eq!(analyses.inner.played.capacity(), 0);
        assert_eq!(lock(&analyses.inner.pending).len(), 2);
    }

    /// Someone asking from `client`: a player of their own each time `n` differs.
    fn requester(n: u8, client: [u8; 4]) -> AnalysisRequester {
        let player = format!("guestguestguest{}", char::from(b'a' + n));
        AnalysisRequester {
            player: player.parse().unwrap(),
            client: ClientKey::of(std::net::IpAddr::from(client)),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_may_have_three_analyses_waiting() {
        let (store, _, _search, analyses) = held(10).await;
        let ann = requester(0, [203, 0, 113, 1]);
        for _ in 0..PER_PLAYER {
            let id = finished_game(&store, SHORTEST).await;
            analyses.request(&id, Some(&ann)).await.unwrap();
        }
        let id = finished_game(&store, SHORTEST).await;
        let refused = analyses.request(&id, Some(&ann)).await;
        assert!(matches!(refused, Err(AnalysisError::TooMany)), "{refused:?}");
        // The end of a game queues whatever the players asked for.
        assert_eq!(analyses.request(&id, None).await.unwrap().status, AnalysisStatus::Queued);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_address_may_have_six_analyses_waiting_however_many_players_ask() {
        let (store, _, _search, analyses) = held(20).await;
        let address = [203, 0, 113, 1];
        for n in 0..3 {
            for _ in 0..2 {
                let id = finished_game(&store, SHORTEST).await;
                analyses.request(&id, Some(&requester(n, address))).await.unwrap();
            }
        }
        let id = finished_game(&store, SHORTEST).await;
        let refused = analyses.request(&id, Some(&requester(3, address))).await;
        assert!(matches!(refused, Err(AnalysisError::TooManyFromAddress)), "{refused:?}");
        assert_eq!(store.analysis(&id).await.unwrap(), None);
        // Another address may still ask.
        let elsewhere = requester(3, [198, 51, 100, 1]);
        let queued = analyses.request(&id, Some(&elsewhere)).await.unwrap();
        assert_eq!(queued.status, AnalysisStatus::Queued);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_requests_from_one_address_queues_no_more_than_its_cap() {
        let (store, _, _search, analyses) = held(40).await;
        let mut games = Vec::new();
        for _ in 0..12 {
            games.push(finished_game(&store, SHORTEST).await);
        }
        let asked = games.iter().enumerate().map(|(n, id)| {
            let analyses = analyses.clone();
            let by = requester(u8::try_from(n % 6).unwrap(), [203, 0, 113, 2]);
            async move { analyses.request(id, Some(&by)).await }
        });
        let answers = futures_util::future::join_all(asked).await;
        let queued = answers.iter().filter(|answer| answer.is_ok()).count();
        assert_eq!(queued, PER_ADDRESS as usize, "{answers:?}");
    }

    /// A game played here and ended without its review queued (as games that ended before
    /// reviews were queued with the end): its review is asked for on its own.
    async fn played_game(store: &Store, moves: &str) -> GameId {
        stored_live_then_ended(store, moves, None).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_line_of_imports_refuses_no_played_games_review() {
        let (store, live, _search, analyses) = held(1).await;
        // The worker holds one import, a second fills the imports' line, a third is refused.
        let first = finished_game(&store, SHORTEST).await;
        analyses.request(&first, None).await.unwrap();
        until(|| live.waiting() == 1).await;
        analyses.request(&finished_game(&store, SHORTEST).await, None).await.unwrap();
        let third = finished_game(&store, SHORTEST).await;
        let full = analyses.request(&third, None).await;
        assert!(matches!(full, Err(AnalysisError::QueueFull)), "{full:?}");

        let asked = played_game(&store, SHORTEST).await;
        assert_eq!(analyses.request(&asked, None).await.unwrap().status, AnalysisStatus::Queued);
        assert_eq!(analyses.inner.played.capacity(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_ends_while_imports_fill_their_line_is_handed_to_the_workers() {
        let (store, live, _search, analyses) = held(1).await;
        let first = finished_game(&store, SHORTEST).await;
        analyses.request(&first, None).await.unwrap();
        until(|| live.waiting() == 1).await;
        analyses.request(&finished_game(&store, SHORTEST).await, None).await.unwrap();
        assert_eq!(analyses.inner.imported.capacity(), 0);

        let ended = ended_game(&store, SHORTEST).await;
        analyses.game_ended(ended.clone());
        assert!(lock(&analyses.inner.pending).contains(&ended));
        assert_eq!(analyses.inner.played.capacity(), 0);
    }

    #[tokio::test]
    async fn a_worker_takes_a_played_game_before_imports_that_waited_longer() {
        let (played, played_receiver) = mpsc::channel(4);
        let (imported, imported_receiver) = mpsc::channel(4);
        let mut lines = Lines { played: played_receiver, imported: imported_receiver };
        let (import_a, import_b, game) =
            (GameId::generate(), GameId::generate(), GameId::generate());
        imported.send(import_a.clone()).await.unwrap();
        imported.send(import_b.clone()).await.unwrap();
        played.send(game.clone()).await.unwrap();
        assert_eq!(lines.next().await, Some((game, GameSource::Played)));
        assert_eq!(lines.next().await, Some((import_a, GameSource::Imported)));
        assert_eq!(lines.next().await, Some((import_b, GameSource::Imported)));
        drop((played, imported));
        assert_eq!(lines.next().await, None);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_sweep_fills_each_line_with_its_own_games() {
        // Three imports, then a played game, queued in the store, nobody told: the sweep hands
        // over the played game in its line, though the imports are older, and of the imports
        // only as many as their own line has places for.
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let mut imports = Vec::new();
        for _ in 0..3 {
            let id = finished_game(&store, SHORTEST).await;
            store.queue_analysis(&id, ENGINE, None, Timestamp(1)).await.unwrap();
            imports.push(id);
        }
        let ended = ended_game(&store, SHORTEST).await;
        let live = LiveSearches::default();
        let _search = live.start();
        let analyses =
            Analyses::start(store, live.clone(), quick(1), "node-b".into(), Clock::System);
        let analyses = analyses.unwrap();
        until(|| live.waiting() == 1).await;
        until(|| analyses.inner.imported.capacity() == 0).await;
        let pending = lock(&analyses.inner.pending).clone();
        assert!(pending.contains(&ended), "{pending:?}");
        assert_eq!(pending.len(), 2);
        let running = row(&analyses.inner.store, &ended).await;
        assert_eq!(running.status, AnalysisStatus::Running);
    }
}
