//! The generator on a handful of small games: deterministic, independent of the thread count,
//! resumable to the same bytes, and labelled as an independent solve says.

use std::path::PathBuf;

use outflank_engine::solve::solve;
use outflank_engine::{Bitboard, Board, Color};
use outflank_train::data::{self, Settings};
use outflank_train::generate::{GenerateOptions, game_search, generate, play_game};

/// Small games: solved at 14 empties, a 2,000-node search.
fn settings(seed: u64) -> Settings {
    Settings {
        seed,
        solve_empties: 14,
        search_nodes: 2_000,
        random_per_mille: 100,
        ..Settings::default()
    }
}

fn options(seed: u64, games: u32, threads: usize) -> GenerateOptions {
    GenerateOptions { settings: settings(seed), games, threads, time_limit: None, progress: false }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("outflank-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn generation_is_deterministic_and_resumes_to_the_same_file() {
    let (a, b, c) = (temp("a.bin"), temp("b.bin"), temp("c.bin"));
    let full = generate(&a, &options(11, 8, 2)).unwrap();
    assert_eq!(full.games, 8);
    assert!(full.positions > 8 * 40, "{full:?}");
    generate(&b, &options(11, 8, 1)).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "thread count matters");

    // Three games, a partial block as a killed run leaves it, then resume to eight.
    generate(&c, &options(11, 3, 2)).unwrap();
    let mut bytes = std::fs::read(&c).unwrap();
    bytes.extend_from_slice(&[7, 0, 0, 0, 50, 0, 1, 2, 3]);
    std::fs::write(&c, &bytes).unwrap();
    let resumed = generate(&c, &options(11, 8, 2)).unwrap();
    assert_eq!((resumed.games, resumed.played), (8, 5));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap(), "resume differs");

    // Another seed gives other games; another setting is refused.
    let d = temp("d.bin");
    generate(&d, &options(12, 2, 2)).unwrap();
    assert_ne!(std::fs::read(&d).unwrap()[48..200], std::fs::read(&a).unwrap()[48..200]);
    assert!(generate(&d, &options(13, 4, 2)).is_err());

    let file = data::read(&a).unwrap();
    assert_eq!(file.games.len(), 8);
    assert_eq!(file.positions() as u64, full.positions);
    for path in [a, b, c, d] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn labels_match_an_independent_solve() {
    let settings = settings(21);
    let mut search = game_search(&settings);
    let mut checked = 0;
    for game in 0..3 {
        let samples = play_game(&settings, game, &mut search).expect("small solves finish");
        let board = |s: &data::Sample| {
            Board::from_discs(Bitboard(s.player), Bitboard(s.opponent), Color::Black).unwrap()
        };
        let mut root = None;
        for sample in samples.iter().filter(|s| s.empties() <= settings.solve_empties) {
            let exact = solve(&board(sample)).score;
            assert_eq!(i32::from(sample.label), exact, "{:?}", board(sample));
            root.get_or_insert(exact);
            checked += 1;
        }
        // Before the solve point every label is the solve point's result, for one side or
        // the other.
        let root = root.expect("positions after the solve point").abs();
        for sample in samples.iter().filter(|s| s.empties() > settings.solve_empties) {
            assert_eq!(i32::from(sample.label).abs(), root);
        }
    }
    assert!(checked >= 3 * 8, "{checked}");
}
