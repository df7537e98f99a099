//! Positions of data files written as an OBF file (`<64-char position> X;` a line, the side to
//! move as Black), for the engine's tools that read one: ProbCut's margins fitted on the
//! training data (`outflank-engine probcut-fit --file`), or exact solves (`solve --file`).

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use outflank_engine::{Bitboard, Board, Color};
use thiserror::Error;

use crate::fit::{self, FitError, FitOptions};
use crate::output::write_whole;
use crate::rng::Rng;

/// Why positions could not be written.
#[derive(Debug, Error)]
pub enum PositionsError {
    #[error(transparent)]
    Data(#[from] FitError),
    #[error("the data files hold no position of {low} to {high} empties with a move to play")]
    None { low: u32, high: u32 },
    #[error("cannot write {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// Up to `count` positions of `files` (each once, by canonical form) with empties in `empties`
/// and a move for the side to move, drawn at random for `seed` in the order drawn.
pub fn sample(
    files: &[PathBuf],
    count: usize,
    seed: u64,
    empties: RangeInclusive<u32>,
) -> Result<Vec<Board>, PositionsError> {
    let dataset = fit::load(files, &FitOptions { holdout: 0.0, ..FitOptions::default() })?;
    let mut boards: Vec<Board> = dataset
        .samples
        .iter()
        .filter(|sample| empties.contains(&sample.empties()))
        .filter_map(|sample| {
            Board::from_discs(Bitboard(sample.player), Bitboard(sample.opponent), Color::Black).ok()
        })
        .filter(|board| !board.legal_moves().is_empty())
        .collect();
    if boards.is_empty() {
        return Err(PositionsError::None { low: *empties.start(), high: *empties.end() });
    }
    // The first `count` places of a seeded Fisher–Yates shuffle.
    let mut rng = Rng::new(seed);
    let count = count.min(boards.len());
    for at in 0..count {
        let pick = at + rng.below((boards.len() - at) as u64) as usize;
        boards.swap(at, pick);
    }
    boards.truncate(count);
    Ok(boards)
}

/// Writes `boards` to `out` as an OBF file.
pub fn write_obf(out: &Path, boards: &[Board]) -> Result<(), PositionsError> {
    let text: String = boards.iter().map(|board| format!("{board};\n")).collect();
    write_whole(out, text.as_bytes())
        .map_err(|source| PositionsError::Io { path: out.to_path_buf(), source })
}
