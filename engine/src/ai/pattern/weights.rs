//! The weights file: every phase's weight tables as `i16`, with a header that names the layout
//! and an FNV-1a 64 checksum.
//!
//! The trainer (`outflank-train`) writes its files with [`Weights::to_bytes`], and the engine
//! reads them with [`Weights::from_bytes`].
//!
//! # Format (all integers little-endian)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `OFPATEVL` |
//! | 2 | format version, 1 |
//! | 2 | weight units per disc, 256 |
//! | 2 | number of phases, 12 |
//! | 2 | empties per phase, 5 |
//! | 2 | number of tables, 14 |
//! | 4 × tables | entries of each table |
//! | 2 × phases × entries | the weights, phase 0 (fewest empties) first, tables in order |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! A file whose header describes another layout than the one compiled in is refused, so old
//! weights can never be read with new features.

use thiserror::Error;

use super::layout::{PHASE_LEN, PHASE_WIDTH, PHASES, TABLE_SIZES, TABLES};

/// The first bytes of a weights file.
pub(crate) const MAGIC: [u8; 8] = *b"OFPATEVL";

/// The format version this code reads and writes.
pub(crate) const VERSION: u16 = 1;

/// Weight units per disc: a weight of 256 adds one disc to the evaluation.
pub const UNITS_PER_DISC: i32 = 256;

/// Bytes before the weights.
const HEADER_LEN: usize = 8 + 2 * 5 + 4 * TABLES;

/// Bytes of a whole file with the compiled-in layout.
pub(crate) const FILE_LEN: usize = HEADER_LEN + 2 * PHASES * PHASE_LEN + 8;

/// Why bytes are not a usable weights file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightsError {
    /// The file does not start with the magic bytes `OFPATEVL`.
    #[error("not a weights file (bad magic)")]
    BadMagic,
    /// A format version this code does not know.
    #[error("unsupported weights format version {0} (expected {VERSION})")]
    UnsupportedVersion(u16),
    /// Shorter or longer than its header says.
    #[error("weights file has {actual} bytes, expected {expected}")]
    WrongSize {
        /// The length the header calls for; for a file too short to hold its header, that of
        /// a header and a checksum.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// The checksum does not match the content.
    #[error("weights checksum mismatch: stored {stored:#018x}, computed {computed:#018x}")]
    ChecksumMismatch {
        /// The checksum at the end of the file.
        stored: u64,
        /// The checksum of the bytes before it.
        computed: u64,
    },
    /// A valid file for another pattern layout than the compiled-in one.
    #[error("weights file describes another pattern layout")]
    LayoutMismatch,
}

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

/// All weights: one set per phase of the game (12 of 167,339 values, [`PHASES`] and
/// [`PHASE_LEN`]), in 1/256 disc ([`UNITS_PER_DISC`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    values: Vec<i16>,
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.values.iter().filter(|&&v| v != 0).count();
        f.debug_struct("Weights")
            .field("values", &self.values.len())
            .field("nonzero", &nonzero)
            .finish()
    }
}

impl Weights {
    /// All weights zero.
    pub fn zero() -> Weights {
        Weights { values: vec![0; PHASES * PHASE_LEN] }
    }

    /// Weights from their values, phase by phase.
    ///
    /// # Panics
    /// If there are not exactly `PHASES * PHASE_LEN` values.
    pub fn from_values(values: Vec<i16>) -> Weights {
        assert_eq!(values.len(), PHASES * PHASE_LEN, "one value per weight of every phase");
        Weights { values }
    }

    /// Every value, phase by phase.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// The weights of phase `phase` (see [`layout::phase`](super::layout::phase)), indexed as
    /// [`features`](super::layout::features) gives them.
    #[inline(always)]
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.values[phase * PHASE_LEN..(phase + 1) * PHASE_LEN]
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// [`WeightsError`]: checked in the order magic, version, size, checksum, layout.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let u16_at = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
        let short = || WeightsError::WrongSize { expected: HEADER_LEN + 8, actual: bytes.len() };
        let version = u16_at(8).ok_or_else(short)?;
        if version != VERSION {
            return Err(WeightsError::UnsupportedVersion(version));
        }
        let header = |i: usize| u16_at(10 + 2 * i).ok_or_else(short);
        let (units, phases, width, tables) = (header(0)?, header(1)?, header(2)?, header(3)?);
        let sizes_at = 18;
        let sizes_end = sizes_at + 4 * usize::from(tables);
        let sizes: Vec<usize> = bytes
            .get(sizes_at..sizes_end)
            .ok_or_else(short)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .collect();
        let phase_len: usize = sizes.iter().sum();
        let expected = sizes_end + 2 * usize::from(phases) * phase_len + 8;
        if bytes.len() != expected {
            return Err(WeightsError::WrongSize { expected, actual: bytes.len() });
        }
        let (body, tail) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(tail.try_into().map_err(|_| short())?);
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(WeightsError::ChecksumMismatch { stored, computed });
        }
        if i32::from(units) != UNITS_PER_DISC
            || usize::from(phases) != PHASES
            || u32::from(width) != PHASE_WIDTH
            || sizes != TABLE_SIZES
        {
            return Err(WeightsError::LayoutMismatch);
        }
        let values =
            body[sizes_end..].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
        Ok(Weights { values })
    }

    /// The weights file for these weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(FILE_LEN);
        bytes.extend_from_slice(&MAGIC);
        for value in
            [VERSION, UNITS_PER_DISC as u16, PHASES as u16, PHASE_WIDTH as u16, TABLES as u16]
        {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for size in TABLE_SIZES {
            bytes.extend_from_slice(&(size as u32).to_le_bytes());
        }
        for value in &self.values {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }
}
