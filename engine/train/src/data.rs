//! The training data file: a header with the generation settings, then one block per game.
//!
//! All integers are little-endian.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `OFTDATA3` |
//! | 60 | [`Settings`]: seed (8), solve empties (4), first random plies min and max (4 + 4), random moves per mille (4), search nodes (8), solver node limit (8), label search nodes (8), label search depth (4), most empties labelled by search (4), the evaluation that played ([`Play`], 4: 0 trained, 1 hand-tuned) |
//!
//! then, for each game in order from 0: the game number (4), the number of positions (2) and
//! each position as the mover's discs (8), the opponent's discs (8), the label (1, signed: the
//! value the fit learns, in discs for the mover) and the outcome (1, signed: the final disc
//! difference for the mover under perfect play from the solve point). The label is the outcome
//! except where a deep search labelled the position (see [`Settings::label_nodes`]). A game
//! skipped because its solve hit the node limit has 0 positions. A file cut short (the
//! generator was killed) ends with a partial block, which readers ignore and the generator
//! truncates before resuming.
//!
//! Files of version 2 (magic `OFTDATA2`: the settings without the evaluation, which was the
//! trained one) and of version 1 (`OFTDATA1`: a 40-byte settings block without the label
//! search, 17-byte positions without the outcome, whose label is the outcome) are read as well.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use thiserror::Error;

/// The first bytes of a data file.
pub const MAGIC: [u8; 8] = *b"OFTDATA3";

/// The first bytes of a data file of version 2 (read only).
pub const MAGIC_V2: [u8; 8] = *b"OFTDATA2";

/// The first bytes of a data file of version 1 (read only).
pub const MAGIC_V1: [u8; 8] = *b"OFTDATA1";

/// Bytes of the header.
pub const HEADER_LEN: usize = 8 + 60;

/// Bytes of the header of version 2.
const HEADER_LEN_V2: usize = 8 + 56;

/// Bytes of the header of version 1.
const HEADER_LEN_V1: usize = 8 + 40;

/// Bytes of one position record.
pub const RECORD_LEN: usize = 18;

/// Bytes of one position record of version 1.
const RECORD_LEN_V1: usize = 17;

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// What the fit learns, in discs for the side to move: a deep search's value where one
    /// labelled the position, else `outcome`.
    pub label: i8,
    /// Final disc difference for the side to move under perfect play from the solve point.
    pub outcome: i8,
}

impl Sample {
    /// Number of empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// The evaluation a file's games are played (and searched labels made) with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Play {
    /// The trained evaluation embedded in the engine that generates: each generation of
    /// weights plays the games the next learns from.
    #[default]
    Trained,
    /// The hand-tuned evaluation, which needs no weights: the first generation, from scratch.
    HandTuned,
}

impl Play {
    fn code(self) -> u32 {
        match self {
            Play::Trained => 0,
            Play::HandTuned => 1,
        }
    }

    fn from_code(code: u32) -> Result<Play, DataError> {
        match code {
            0 => Ok(Play::Trained),
            1 => Ok(Play::HandTuned),
            other => Err(DataError::UnknownPlay(other)),
        }
    }
}

impl std::str::FromStr for Play {
    type Err = String;

    fn from_str(text: &str) -> Result<Play, String> {
        match text {
            "trained" => Ok(Play::Trained),
            "hand-tuned" => Ok(Play::HandTuned),
            other => Err(format!("\"{other}\" is not trained or hand-tuned")),
        }
    }
}

/// How a data file was generated; a resumed run must use the same settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Seed of the whole file; game `n` plays from `(seed, n)`.
    pub seed: u64,
    /// Empties at which the game is solved exactly.
    pub solve_empties: u32,
    /// Fewest uniformly random plies from the start.
    pub random_min: u32,
    /// Most uniformly random plies from the start.
    pub random_max: u32,
    /// After the opening, moves played at random instead of by the engine, per thousand.
    pub random_per_mille: u32,
    /// Node budget of the engine's search for each move.
    pub search_nodes: u64,
    /// Node limit of each exact solve; a game whose solve reaches it is skipped.
    pub solve_node_limit: u64,
    /// Node budget of the search that labels a position before the solve point (0: such
    /// positions are labelled with the outcome only).
    pub label_nodes: u64,
    /// Depth of that search, in plies.
    pub label_depth: u32,
    /// Positions before the solve point with at most this many empties are labelled by search.
    pub label_max_empties: u32,
    /// The evaluation the games are played and searched labels made with.
    pub play: Play,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 1,
            solve_empties: 20,
            random_min: 6,
            random_max: 14,
            random_per_mille: 10,
            search_nodes: 20_000,
            solve_node_limit: 100_000_000,
            label_nodes: 0,
            label_depth: 0,
            label_max_empties: 0,
            play: Play::Trained,
        }
    }
}

impl Settings {
    /// The header of a file with these settings.
    pub fn header(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_LEN);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        for value in [self.solve_empties, self.random_min, self.random_max, self.random_per_mille] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&self.search_nodes.to_le_bytes());
        bytes.extend_from_slice(&self.solve_node_limit.to_le_bytes());
        bytes.extend_from_slice(&self.label_nodes.to_le_bytes());
        bytes.extend_from_slice(&self.label_depth.to_le_bytes());
        bytes.extend_from_slice(&self.label_max_empties.to_le_bytes());
        bytes.extend_from_slice(&self.play.code().to_le_bytes());
        bytes
    }

    /// Settings from a header, and the file's format version.
    pub fn from_header(bytes: &[u8]) -> Result<(Settings, Version), DataError> {
        let version = match bytes.get(..8) {
            Some(magic) if magic == MAGIC && bytes.len() >= HEADER_LEN => Version::Three,
            Some(magic) if magic == MAGIC_V2 && bytes.len() >= HEADER_LEN_V2 => Version::Two,
            Some(magic) if magic == MAGIC_V1 && bytes.len() >= HEADER_LEN_V1 => Version::One,
            _ => return Err(DataError::NotData),
        };
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let labelled = version != Version::One;
        let settings = Settings {
            seed: u64_at(8),
            solve_empties: u32_at(16),
            random_min: u32_at(20),
            random_max: u32_at(24),
            random_per_mille: u32_at(28),
            search_nodes: u64_at(32),
            solve_node_limit: u64_at(40),
            label_nodes: if labelled { u64_at(48) } else { 0 },
            label_depth: if labelled { u32_at(56) } else { 0 },
            label_max_empties: if labelled { u32_at(60) } else { 0 },
            play: if version == Version::Three {
                Play::from_code(u32_at(64))?
            } else {
                Play::Trained
            },
        };
        Ok((settings, version))
    }
}

/// A data file's format version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// `OFTDATA1`: one label, the outcome. Read only.
    One,
    /// `OFTDATA2`: a label and the outcome, played by the trained evaluation. Read only.
    Two,
    /// `OFTDATA3`: as version 2, with the evaluation that played.
    Three,
}

impl Version {
    fn header_len(self) -> usize {
        match self {
            Version::One => HEADER_LEN_V1,
            Version::Two => HEADER_LEN_V2,
            Version::Three => HEADER_LEN,
        }
    }

    fn record_len(self) -> usize {
        match self {
            Version::One => RECORD_LEN_V1,
            Version::Two | Version::Three => RECORD_LEN,
        }
    }
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    /// The game number (from 0).
    pub game: u32,
    /// Its new positions (not seen in an earlier game of the file).
    pub samples: Vec<Sample>,
}

impl GameBlock {
    /// The block as written to a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(6 + RECORD_LEN * self.samples.len());
        bytes.extend_from_slice(&self.game.to_le_bytes());
        bytes.extend_from_slice(&(self.samples.len() as u16).to_le_bytes());
        for sample in &self.samples {
            bytes.extend_from_slice(&sample.player.to_le_bytes());
            bytes.extend_from_slice(&sample.opponent.to_le_bytes());
            bytes.push(sample.label as u8);
            bytes.push(sample.outcome as u8);
        }
        bytes
    }
}

/// A data file read back.
#[derive(Clone, Debug)]
pub struct DataFile {
    pub settings: Settings,
    pub version: Version,
    /// The complete game blocks, in order.
    pub games: Vec<GameBlock>,
    /// Bytes up to the end of the last complete block.
    pub complete_len: u64,
}

impl DataFile {
    /// Number of positions.
    pub fn positions(&self) -> usize {
        self.games.iter().map(|g| g.samples.len()).sum()
    }
}

/// Why a data file cannot be read.
#[derive(Debug, Error)]
pub enum DataError {
    #[error("not a training data file (bad magic or short header)")]
    NotData,
    #[error("the header names evaluation {0}, which is neither trained (0) nor hand-tuned (1)")]
    UnknownPlay(u32),
    #[error("game blocks out of order: expected game {expected}, found {found}")]
    OutOfOrder { expected: u32, found: u32 },
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Reads a data file from bytes, ignoring a trailing partial block.
pub fn parse(bytes: &[u8]) -> Result<DataFile, DataError> {
    let (settings, version) = Settings::from_header(bytes)?;
    let record_len = version.record_len();
    let mut games = Vec::new();
    let mut at = version.header_len();
    while at + 6 <= bytes.len() {
        let game = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let count = usize::from(u16::from_le_bytes([bytes[at + 4], bytes[at + 5]]));
        let end = at + 6 + count * record_len;
        if end > bytes.len() {
            break;
        }
        if game != games.len() as u32 {
            return Err(DataError::OutOfOrder { expected: games.len() as u32, found: game });
        }
        let samples = bytes[at + 6..end]
            .chunks_exact(record_len)
            .map(|r| Sample {
                player: u64::from_le_bytes(r[0..8].try_into().expect("8")),
                opponent: u64::from_le_bytes(r[8..16].try_into().expect("8")),
                label: r[16] as i8,
                outcome: *r.get(17).unwrap_or(&r[16]) as i8,
            })
            .collect();
        games.push(GameBlock { game, samples });
        at = end;
    }
    Ok(DataFile { settings, version, games, complete_len: at as u64 })
}

/// Reads a data file.
pub fn read(path: &Path) -> Result<DataFile, DataError> {
    let mut bytes = Vec::new();
    BufReader::new(File::open(path)?).read_to_end(&mut bytes)?;
    parse(&bytes)
}

/// Writes `block` to `out`.
pub fn write_block(out: &mut impl Write, block: &GameBlock) -> io::Result<()> {
    out.write_all(&block.to_bytes())
}
