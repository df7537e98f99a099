//! `positions`: a data file's positions drawn for a seed and written as an OBF file.

use std::collections::HashSet;
use std::path::PathBuf;

use outflank_engine::Board;
use outflank_train::data::Settings;
use outflank_train::generate::{GenerateOptions, generate};
use outflank_train::positions::{PositionsError, sample, write_obf};

/// A data file of four small games, made once per test.
fn data(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("outflank-train-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let settings =
        Settings { seed: 3, solve_empties: 14, search_nodes: 2_000, ..Settings::default() };
    let options =
        GenerateOptions { settings, games: 4, threads: 2, time_limit: None, progress: false };
    generate(&path, &options).unwrap();
    path
}

#[test]
fn positions_are_drawn_once_each_within_the_empties_and_for_the_seed() {
    let file = data("draw.bin");
    let files = [file.clone()];
    let boards = sample(&files, 40, 1, 20..=40).unwrap();
    assert_eq!(boards.len(), 40);
    assert!(boards.iter().all(|b| (20..=40).contains(&b.empty().count())));
    assert!(boards.iter().all(|b| !b.legal_moves().is_empty()));
    assert_eq!(boards.iter().collect::<HashSet<_>>().len(), 40, "no position twice");
    assert_eq!(sample(&files, 40, 1, 20..=40).unwrap(), boards);
    assert_ne!(sample(&files, 40, 2, 20..=40).unwrap(), boards);
    // Asking for more than the file holds gives them all.
    let all = sample(&files, 100_000, 1, 20..=40).unwrap();
    assert!(all.len() > 40 && all.len() < 100_000);
    // A finished game's positions are not kept: none has 0 empties.
    let none = sample(&files, 5, 1, 0..=0);
    assert!(matches!(none, Err(PositionsError::None { low: 0, high: 0 })), "{none:?}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn the_obf_file_reads_back_as_the_same_positions() {
    let file = data("obf.bin");
    let boards = sample(std::slice::from_ref(&file), 25, 9, 10..=55).unwrap();
    let out = file.with_extension("obf");
    write_obf(&out, &boards).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let read: Vec<Board> = text.lines().map(|line| line.parse().unwrap()).collect();
    assert_eq!(read, boards);
    assert!(text.lines().all(|line| line.ends_with(" X;")));
    for path in [file, out] {
        let _ = std::fs::remove_file(path);
    }
}
