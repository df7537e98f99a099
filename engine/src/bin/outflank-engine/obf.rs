//! OBF files, one position a line: `<64-char position> <X|O>; MOVE:score; ...`, the moves
//! best first (as the FFO endgame files give them); blank lines and lines starting with `%` or
//! `#` are skipped.

use outflank_engine::Board;

use crate::CliError;

/// One position of an OBF file.
pub struct Entry {
    /// Its line number, from 1.
    pub line: usize,
    pub board: Board,
    /// The file's best score, if it lists any moves.
    pub expected: Option<i32>,
}

/// The first `limit` positions of the file at `path` (all without a limit).
pub fn read(path: &str, limit: Option<usize>) -> Result<Vec<Entry>, CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError(format!("cannot read {path}: {e}")))?;
    text.lines()
        .enumerate()
        .map(|(at, line)| (at + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('%') && !line.starts_with('#'))
        .take(limit.unwrap_or(usize::MAX))
        .map(|(number, line)| parse_entry(number, line))
        .collect()
}

/// Parses an OBF line: `<position> <side>; MOVE:score; ...`.
fn parse_entry(line: usize, text: &str) -> Result<Entry, CliError> {
    let bad = |why: String| CliError(format!("line {line}: {why}"));
    let mut fields = text.split(';');
    let board: Board = fields.next().unwrap_or("").parse().map_err(|e| bad(format!("{e}")))?;
    let mut expected = None;
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let score = field
            .split_once(':')
            .and_then(|(_, score)| score.trim().parse::<i32>().ok())
            .ok_or_else(|| bad(format!("{field:?} is not MOVE:score")))?;
        expected.get_or_insert(score);
    }
    Ok(Entry { line, board, expected })
}
