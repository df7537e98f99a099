//! Blends two weight files into one: every weight the share-weighted mean of the two.
//!
//! The solver orders its moves with such a blend (`engine/weights/order.bin`): a mean of two
//! fits made from different data orders moves better than either fit alone, while play keeps
//! the sharper fit (see the engine's README).

use std::path::{Path, PathBuf};

use outflank_engine::ai::pattern::weights::{Weights, WeightsError};
use thiserror::Error;

use crate::output::write_whole;

/// Why a blend failed.
#[derive(Debug, Error)]
pub enum BlendError {
    #[error("the first file's share must be from 0 to 1, not {0}")]
    Share(f64),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Weights { path: PathBuf, source: WeightsError },
}

/// Each weight `share * first + (1 - share) * second`, rounded to the nearest unit (halves
/// away from zero), so the blend of a file with itself is that file.
pub fn blend(first: &Weights, second: &Weights, share: f64) -> Result<Weights, BlendError> {
    if !(0.0..=1.0).contains(&share) {
        return Err(BlendError::Share(share));
    }
    let values = first
        .values()
        .iter()
        .zip(second.values())
        .map(|(&a, &b)| {
            let mean = share * f64::from(a) + (1.0 - share) * f64::from(b);
            // Between two `i16` values, so within range.
            mean.round() as i16
        })
        .collect();
    Ok(Weights::from_values(values))
}

/// Reads two weight files, blends them with [`blend`] and writes the result to `out`.
pub fn blend_files(first: &Path, second: &Path, share: f64, out: &Path) -> Result<(), BlendError> {
    let read = |path: &Path| {
        let bytes = std::fs::read(path)
            .map_err(|source| BlendError::Io { path: path.to_path_buf(), source })?;
        Weights::from_bytes(&bytes)
            .map_err(|source| BlendError::Weights { path: path.to_path_buf(), source })
    };
    let weights = blend(&read(first)?, &read(second)?, share)?;
    write_whole(out, &weights.to_bytes())
        .map_err(|source| BlendError::Io { path: out.to_path_buf(), source })
}
