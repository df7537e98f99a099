//! Fitting the pattern weights: ridge regression (least squares with L2 regularisation) of the
//! exact labels on the sparse pattern features, one phase at a time.
//!
//! Each phase `k` (empties `5k`–`5k + 4`) is fitted on the training positions with
//! `5k - window`…`5k + 4 + window` empties, so that neighbouring phases share their data where
//! they meet. The unknowns are one weight per table entry, an entry and its mirror image (see
//! `mirror_index`) sharing one. The normal equations `(AᵀA + λI) w = Aᵀy` are solved by
//! conjugate gradients on the least-squares form (CGLS), for a fixed number of iterations. By
//! default (`chain`) the phases are fitted one after the other from the end of the game, each
//! regularised towards the previous phase's weights (`w = prior + δ`, the penalty on `δ`), so
//! entries a phase never sees keep the neighbouring value; without it every phase is
//! regularised towards 0 and the phases run in parallel. Either way the order of operations
//! is fixed, so the weights do not depend on the thread count.
//!
//! The held-out set is a share of the games (not of the positions, which would put positions
//! of one game on both sides), chosen by a hash of the seed, the file and the game number.

use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use outflank_engine::ai::pattern::layout::{
    FEATURES, PHASE_LEN, PHASE_WIDTH, PHASES, TABLE_OFFSETS, TABLE_SIZES, TABLES, canonical,
    features, mirror_index, phase,
};
use outflank_engine::ai::pattern::weights::{UNITS_PER_DISC, Weights, WeightsError};
use outflank_engine::{Bitboard, Board, Color};
use thiserror::Error;

use crate::data::{self, DataError, Sample};
use crate::output::write_whole;
use crate::rng::mix;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Chooses the held-out games.
    pub seed: u64,
    /// Phases fitted at the same time.
    pub threads: usize,
    /// Share of the games held out, 0–1.
    pub holdout: f64,
    /// L2 regularisation: λ in `Σ (prediction − label)² + λ Σ weight²`, labels in discs.
    pub lambda: f64,
    /// Phases fitted with another λ than `lambda` (the last range naming a phase wins).
    pub phase_lambdas: Vec<PhaseLambda>,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Empties borrowed from each neighbouring phase.
    pub window: u32,
    /// Fit the phases one after the other from the end of the game, regularising each
    /// towards the weights of the previous one instead of towards 0 (one thread).
    pub chain: bool,
    /// Report progress on stderr.
    pub progress: bool,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            seed: 1,
            threads: 1,
            holdout: 0.05,
            lambda: 100.0,
            phase_lambdas: Vec::new(),
            iterations: 300,
            window: 5,
            chain: true,
            progress: false,
        }
    }
}

impl FitOptions {
    /// The λ phase `k` is fitted with.
    pub fn lambda_of(&self, k: usize) -> f64 {
        let first_empties = k as u32 * PHASE_WIDTH;
        self.phase_lambdas
            .iter()
            .rev()
            .find(|p| p.empties.contains(&first_empties))
            .map_or(self.lambda, |p| p.lambda)
    }
}

/// A λ for the phases of an empties range, written `LOW-HIGH=LAMBDA` (e.g. `10-29=100`): the
/// range must be whole phases (LOW a multiple of 5, HIGH one less than a multiple of 5, or 60).
///
/// It lets some phases be fitted smoother than the rest. It was tried on the endgame phases
/// for the exact solver's move ordering, before the solver got weights of its own
/// (`engine/weights/order.bin`); the engine's README records what that did to the solver and
/// to play.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseLambda {
    pub empties: RangeInclusive<u32>,
    pub lambda: f64,
}

/// Why a [`PhaseLambda`] did not parse.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PhaseLambdaError {
    #[error("\"{0}\" is not LOW-HIGH=LAMBDA (e.g. 10-29=100)")]
    Syntax(String),
    #[error(
        "{low}–{high} empties is not whole phases: LOW a multiple of 5, HIGH 4, 9, …, 54 or 60"
    )]
    NotWholePhases { low: u32, high: u32 },
    #[error("λ {0} is not a finite number ≥ 0")]
    Lambda(String),
}

impl std::str::FromStr for PhaseLambda {
    type Err = PhaseLambdaError;

    fn from_str(text: &str) -> Result<PhaseLambda, PhaseLambdaError> {
        let syntax = || PhaseLambdaError::Syntax(text.to_owned());
        let (range, lambda) = text.split_once('=').ok_or_else(syntax)?;
        let (low, high) = range.split_once('-').ok_or_else(syntax)?;
        let low: u32 = low.trim().parse().map_err(|_| syntax())?;
        let high: u32 = high.trim().parse().map_err(|_| syntax())?;
        let last = PHASES as u32 * PHASE_WIDTH;
        let ends_a_phase =
            (high + 1).is_multiple_of(PHASE_WIDTH) && high < last - 1 || high == last;
        if !low.is_multiple_of(PHASE_WIDTH) || low > high || !ends_a_phase {
            return Err(PhaseLambdaError::NotWholePhases { low, high });
        }
        let lambda: f64 = lambda
            .trim()
            .parse()
            .ok()
            .filter(|l: &f64| l.is_finite() && *l >= 0.0)
            .ok_or_else(|| PhaseLambdaError::Lambda(lambda.to_owned()))?;
        Ok(PhaseLambda { empties: low..=high, lambda })
    }
}

/// Why a fit failed.
#[derive(Debug, Error)]
pub enum FitError {
    #[error("{path}: {source}")]
    Data { path: PathBuf, source: DataError },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Weights { path: PathBuf, source: WeightsError },
    #[error("no positions to fit")]
    Empty,
}

/// Positions to fit and which of them are held out.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub samples: Vec<Sample>,
    pub held_out: Vec<bool>,
}

impl Dataset {
    /// Training positions.
    pub fn training(&self) -> usize {
        self.held_out.iter().filter(|&&h| !h).count()
    }
}

/// Reads data files, dropping positions already seen in an earlier file (by canonical form),
/// and holds out a share `options.holdout` of the games.
pub fn load(files: &[PathBuf], options: &FitOptions) -> Result<Dataset, FitError> {
    let mut seen = HashSet::new();
    let mut dataset = Dataset::default();
    for (index, path) in files.iter().enumerate() {
        let file =
            data::read(path).map_err(|source| FitError::Data { path: path.clone(), source })?;
        for block in &file.games {
            let held = is_held_out(options.seed, index as u64, block.game, options.holdout);
            for sample in &block.samples {
                if seen.insert(canonical(sample.player, sample.opponent)) {
                    dataset.samples.push(*sample);
                    dataset.held_out.push(held);
                }
            }
        }
    }
    Ok(dataset)
}

/// Whether game `game` of file `file` is held out.
pub fn is_held_out(seed: u64, file: u64, game: u32, share: f64) -> bool {
    let hash = mix(mix(seed ^ 0x5851_F42D_4C95_7F2D) ^ mix(file) ^ u64::from(game));
    ((hash >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// The feature indices (within one phase's weights) of a position.
pub fn feature_indices(p: u64, o: u64) -> [u32; FEATURES] {
    let board = Board::from_discs(Bitboard(p), Bitboard(o), Color::Black)
        .expect("a position has no square with two discs");
    let moves_p = board.legal_moves().count();
    let moves_o = board.pass_unchecked().legal_moves().count();
    let mut indices = [0u32; FEATURES];
    let mut n = 0;
    features(p, o, moves_p, moves_o, |index| {
        indices[n] = index as u32;
        n += 1;
    });
    indices
}

/// The evaluation of a position under `weights`, in 1/100 disc, as the engine computes it.
pub fn evaluate(weights: &Weights, p: u64, o: u64) -> i32 {
    let table = weights.phase(phase((!(p | o)).count_ones()));
    let sum: i32 = feature_indices(p, o).iter().map(|&i| i32::from(table[i as usize])).sum();
    ((sum * 100 + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC)).clamp(1 - 6400, 6400 - 1)
}

/// For each weight index of a phase, the index of the unknown it shares (its smaller mirror
/// image).
fn tied_indices() -> Vec<u32> {
    let mut tied = vec![0u32; PHASE_LEN];
    for table in 0..TABLES {
        for index in 0..TABLE_SIZES[table] {
            let shared = index.min(mirror_index(table, index));
            tied[TABLE_OFFSETS[table] + index] = (TABLE_OFFSETS[table] + shared) as u32;
        }
    }
    tied
}

/// Empties ranges of the error report: 0–9, 10–19, …, 50–60.
pub const REPORT_RANGES: [(u32, u32); 6] =
    [(0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 60)];

/// Mean absolute error in discs, by empties range and overall.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorTable {
    /// Positions and mean absolute error of each of [`REPORT_RANGES`].
    pub ranges: Vec<(usize, f64)>,
    /// Positions and mean absolute error of all.
    pub overall: (usize, f64),
}

impl std::fmt::Display for ErrorTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (&(low, high), &(count, mae)) in REPORT_RANGES.iter().zip(&self.ranges) {
            writeln!(f, "  {low:>2}–{high:<2} empties: {count:>9} positions, MAE {mae:5.2} discs")?;
        }
        write!(
            f,
            "  all:           {:>9} positions, MAE {:5.2} discs",
            self.overall.0, self.overall.1
        )
    }
}

/// What a prediction is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The label the fit learns.
    Label,
    /// The game's outcome under perfect play from its solve point.
    Outcome,
}

/// The mean absolute error of `predict` (in 1/100 disc) against the labels of the positions
/// of `dataset` where `select(held_out)` holds.
pub fn error_table(
    dataset: &Dataset,
    select: impl Fn(bool) -> bool,
    predict: impl Fn(&Sample) -> i32,
) -> ErrorTable {
    error_table_against(dataset, Target::Label, select, predict)
}

/// The mean absolute error of `predict` (in 1/100 disc) against `target` of the positions of
/// `dataset` where `select(held_out)` holds.
pub fn error_table_against(
    dataset: &Dataset,
    target: Target,
    select: impl Fn(bool) -> bool,
    predict: impl Fn(&Sample) -> i32,
) -> ErrorTable {
    let mut sums = [(0usize, 0f64); 6];
    for (sample, &held) in dataset.samples.iter().zip(&dataset.held_out) {
        if !select(held) {
            continue;
        }
        let truth = match target {
            Target::Label => sample.label,
            Target::Outcome => sample.outcome,
        };
        let error = (f64::from(predict(sample)) / 100.0 - f64::from(truth)).abs();
        let empties = sample.empties();
        if let Some(range) = REPORT_RANGES.iter().position(|&(l, h)| (l..=h).contains(&empties)) {
            sums[range].0 += 1;
            sums[range].1 += error;
        }
    }
    let mean =
        |(count, sum): (usize, f64)| (count, if count == 0 { 0.0 } else { sum / count as f64 });
    let total = sums.iter().fold((0, 0.0), |(c, s), &(c2, s2)| (c + c2, s + s2));
    ErrorTable { ranges: sums.iter().copied().map(mean).collect(), overall: mean(total) }
}

/// Fits the weights to the training positions of `dataset`.
pub fn fit(dataset: &Dataset, options: &FitOptions) -> Result<Weights, FitError> {
    let started = Instant::now();
    let tied = tied_indices();
    let training: Vec<usize> =
        (0..dataset.samples.len()).filter(|&i| !dataset.held_out[i]).collect();
    if training.is_empty() {
        return Err(FitError::Empty);
    }
    // Features of every training position, as shared unknowns.
    let rows: Vec<[u32; FEATURES]> = training
        .iter()
        .map(|&i| {
            let s = &dataset.samples[i];
            feature_indices(s.player, s.opponent).map(|f| tied[f as usize])
        })
        .collect();
    let labels: Vec<f64> = training.iter().map(|&i| f64::from(dataset.samples[i].label)).collect();
    let empties: Vec<u32> = training.iter().map(|&i| dataset.samples[i].empties()).collect();
    if options.progress {
        let lambdas: Vec<String> = (0..PHASES).map(|k| options.lambda_of(k).to_string()).collect();
        eprintln!(
            "fitting {} positions ({} held out) in {PHASES} phases, λ = {} (by phase from the end), {} iterations",
            rows.len(),
            dataset.samples.len() - rows.len(),
            lambdas.join(" "),
            options.iterations
        );
    }

    let phase_rows = |k: usize| -> (u32, u32, Vec<usize>) {
        let low = (k as u32 * PHASE_WIDTH).saturating_sub(options.window);
        let high = if k == PHASES - 1 {
            60
        } else {
            k as u32 * PHASE_WIDTH + PHASE_WIDTH - 1 + options.window
        };
        let selected = (0..rows.len()).filter(|&i| (low..=high).contains(&empties[i])).collect();
        (low, high, selected)
    };
    let done = |k: usize, low: u32, high: u32, count: usize| {
        if options.progress {
            eprintln!(
                "  phase {k:>2} ({low}–{high} empties, {count} positions) done at {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let solved: Mutex<Vec<Option<Vec<f64>>>> = Mutex::new(vec![None; PHASES]);
    if options.chain {
        // Phase by phase from the end of the game, each regularised towards the previous one.
        let mut prior: Option<Vec<f64>> = None;
        for k in 0..PHASES {
            let (low, high, selected) = phase_rows(k);
            let weights = cgls(
                &rows,
                &labels,
                &selected,
                options.lambda_of(k),
                options.iterations,
                prior.as_deref(),
            );
            done(k, low, high, selected.len());
            solved.lock().expect("no thread panicked")[k] = Some(weights.clone());
            prior = Some(weights);
        }
    } else {
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..options.threads.clamp(1, PHASES) {
                scope.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= PHASES {
                            break;
                        }
                        let (low, high, selected) = phase_rows(k);
                        let weights = cgls(
                            &rows,
                            &labels,
                            &selected,
                            options.lambda_of(k),
                            options.iterations,
                            None,
                        );
                        done(k, low, high, selected.len());
                        solved.lock().expect("no thread panicked")[k] = Some(weights);
                    }
                });
            }
        });
    }

    let solved = solved.into_inner().expect("no thread panicked");
    let mut values = Vec::with_capacity(PHASES * PHASE_LEN);
    for weights in solved {
        let weights = weights.expect("every phase was fitted");
        for &shared in &tied {
            let units = (weights[shared as usize] * f64::from(UNITS_PER_DISC)).round();
            values.push(units.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16);
        }
    }
    Ok(Weights::from_values(values))
}

/// Ridge regression by conjugate gradients on the least-squares form (CGLS): minimises
/// `Σ_i (Σ_f w[row_i f] − y_i)² + λ Σ w²` over the rows `selected`. Returns `w` (discs) for
/// every unknown of a phase; those no selected row uses stay 0.
fn cgls(
    rows: &[[u32; FEATURES]],
    labels: &[f64],
    selected: &[usize],
    lambda: f64,
    iterations: usize,
    prior: Option<&[f64]>,
) -> Vec<f64> {
    // Only the unknowns the rows use take part, numbered in order of first use.
    let mut local = vec![u32::MAX; PHASE_LEN];
    let mut used: Vec<u32> = Vec::new();
    let local_rows: Vec<[u32; FEATURES]> = selected
        .iter()
        .map(|&i| {
            rows[i].map(|f| {
                if local[f as usize] == u32::MAX {
                    local[f as usize] = used.len() as u32;
                    used.push(f);
                }
                local[f as usize]
            })
        })
        .collect();
    let n = used.len();
    // The unknowns are the differences from the prior: w = prior + δ, δ starting at 0.
    let mut w = vec![0f64; n];
    let prior_of = |f: u32| prior.map_or(0.0, |prior| prior[f as usize]);
    // r = y − A (prior + δ).
    let mut r: Vec<f64> = selected
        .iter()
        .map(|&i| labels[i] - rows[i].iter().map(|&f| prior_of(f)).sum::<f64>())
        .collect();
    // s = Aᵀ r − λ w.
    let transpose_times = |r: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|v| *v = 0.0);
        for (row, &value) in local_rows.iter().zip(r) {
            for &f in row {
                out[f as usize] += value;
            }
        }
    };
    let mut s = vec![0f64; n];
    transpose_times(&r, &mut s);
    let mut direction = s.clone();
    let mut gamma: f64 = s.iter().map(|v| v * v).sum();
    let mut q = vec![0f64; local_rows.len()];
    for _ in 0..iterations {
        if gamma <= 1e-18 {
            break;
        }
        // q = A · direction.
        for (qi, row) in q.iter_mut().zip(&local_rows) {
            *qi = row.iter().map(|&f| direction[f as usize]).sum();
        }
        let qq: f64 = q.iter().map(|v| v * v).sum();
        let pp: f64 = direction.iter().map(|v| v * v).sum();
        let alpha = gamma / (qq + lambda * pp);
        for (wj, dj) in w.iter_mut().zip(&direction) {
            *wj += alpha * dj;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        transpose_times(&r, &mut s);
        for (sj, wj) in s.iter_mut().zip(&w) {
            *sj -= lambda * wj;
        }
        let next: f64 = s.iter().map(|v| v * v).sum();
        let beta = next / gamma;
        gamma = next;
        for (dj, sj) in direction.iter_mut().zip(&s) {
            *dj = sj + beta * *dj;
        }
    }
    let mut full = prior.map_or_else(|| vec![0f64; PHASE_LEN], <[f64]>::to_vec);
    for (&global, &value) in used.iter().zip(&w) {
        full[global as usize] += value;
    }
    full
}

/// `fit` on data files: loads, fits, reports the errors and writes the weights to `out`.
pub fn fit_files(files: &[PathBuf], out: &Path, options: &FitOptions) -> Result<(), FitError> {
    let started = Instant::now();
    let dataset = load(files, options)?;
    if options.progress {
        eprintln!(
            "read {} positions in {:.1} s",
            dataset.samples.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let weights = fit(&dataset, options)?;
    write_whole(out, &weights.to_bytes())
        .map_err(|source| FitError::Io { path: out.to_path_buf(), source })?;
    report(&dataset, &weights);
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        out.display(),
        weights.to_bytes().len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `eval-stats`: the errors of the weights file `weights_path` on the data files.
pub fn eval_stats(
    files: &[PathBuf],
    weights_path: &Path,
    options: &FitOptions,
) -> Result<(), FitError> {
    let weights = read_weights(weights_path)?;
    let dataset = load(files, options)?;
    report(&dataset, &weights);
    Ok(())
}

/// Reads and checks a weights file.
pub fn read_weights(path: &Path) -> Result<Weights, FitError> {
    let bytes =
        std::fs::read(path).map_err(|source| FitError::Io { path: path.to_path_buf(), source })?;
    Weights::from_bytes(&bytes)
        .map_err(|source| FitError::Weights { path: path.to_path_buf(), source })
}

/// Prints the error tables of `weights` (held-out and training) and of predicting 0.
fn report(dataset: &Dataset, weights: &Weights) {
    let predict = |s: &Sample| evaluate(weights, s.player, s.opponent);
    println!("held-out:\n{}", error_table(dataset, |held| held, predict));
    println!("training:\n{}", error_table(dataset, |held| !held, predict));
    println!("held-out, predicting 0:\n{}", error_table(dataset, |held| held, |_| 0));
    if dataset.samples.iter().any(|s| s.label != s.outcome) {
        let against_outcome = |predict: &dyn Fn(&Sample) -> i32| {
            error_table_against(dataset, Target::Outcome, |held| held, predict)
        };
        println!("held-out, against the games' outcomes:\n{}", against_outcome(&predict));
        println!(
            "held-out, the labels themselves against the games' outcomes:\n{}",
            against_outcome(&|s: &Sample| i32::from(s.label) * 100)
        );
    }
}
