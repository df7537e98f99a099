//! The generator on a handful of small games: deterministic, independent of the thread count,
//! resumable to the same bytes, and labelled as an independent solve says.

use std::path::PathBuf;

use outflank_engine::solve::solve;
use outflank_engine::{Bitboard, Board, Color};
use outflank_train::data::{self, Play, Settings};
use outflank_train::generate::{
    Engines, GenerateError, GenerateOptions, generate, play_game, search_label,
};

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
    let mut engines = Engines::new(&settings);
    let mut checked = 0;
    for game in 0..3 {
        let samples = play_game(&settings, game, &mut engines).expect("small solves finish");
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
        assert!(samples.iter().all(|s| s.label == s.outcome));
    }
    assert!(checked >= 3 * 8, "{checked}");
}

#[test]
fn positions_up_to_the_label_bound_are_labelled_by_a_search_and_keep_their_outcome() {
    let settings =
        Settings { label_nodes: 5_000, label_depth: 4, label_max_empties: 30, ..settings(31) };
    let mut engines = Engines::new(&settings);
    let samples = play_game(&settings, 0, &mut engines).expect("small solves finish");
    let board = |s: &data::Sample| {
        Board::from_discs(Bitboard(s.player), Bitboard(s.opponent), Color::Black).unwrap()
    };
    let root = i32::from(samples.last().unwrap().outcome).abs();
    let mut fresh = Engines::new(&settings);
    let mut searched = 0;
    for sample in &samples {
        let empties = sample.empties();
        if empties > settings.solve_empties {
            assert_eq!(i32::from(sample.outcome).abs(), root, "outcome of {:?}", board(sample));
        }
        if empties > settings.solve_empties && empties <= settings.label_max_empties {
            let value = search_label(&board(sample), &mut fresh.label);
            assert_eq!(i32::from(sample.label), value, "{:?}", board(sample));
            searched += 1;
        } else {
            assert_eq!(sample.label, sample.outcome, "{:?}", board(sample));
        }
    }
    assert_eq!(searched, 30 - 14, "one position a ply from 30 to 15 empties");
}

#[test]
fn a_search_label_plays_out_forced_moves_and_ends_exactly_at_a_finished_game() {
    let settings =
        Settings { label_nodes: 5_000, label_depth: 4, label_max_empties: 60, ..settings(1) };
    let mut search = Engines::new(&settings).label;
    // Black has all but two squares and no move: the game is over, 62 - 0 with two empties.
    let all_black = Board::from_discs(Bitboard(!0b11), Bitboard(0), Color::Black).unwrap();
    assert_eq!(search_label(&all_black, &mut search), 62);
    assert_eq!(search_label(&all_black.pass_unchecked(), &mut search), -62);
    // The start has four moves, all alike: a small edge for neither side.
    assert!(search_label(&Board::start(), &mut search).abs() <= 4);
}

#[test]
fn a_version_one_file_reads_with_its_label_as_the_outcome_and_cannot_be_extended() {
    let mut bytes = b"OFTDATA1".to_vec();
    bytes.extend_from_slice(&7u64.to_le_bytes());
    for value in [20u32, 6, 14, 10] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&20_000u64.to_le_bytes());
    bytes.extend_from_slice(&100_000_000u64.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&0x0000_0008_1000_0000u64.to_le_bytes());
    bytes.extend_from_slice(&0x0000_0010_0800_0000u64.to_le_bytes());
    bytes.push((-3i8) as u8);
    let file = data::parse(&bytes).unwrap();
    assert_eq!(file.version, data::Version::One);
    assert_eq!(file.settings, Settings { seed: 7, ..Settings::default() });
    let sample = file.games[0].samples[0];
    assert_eq!((sample.label, sample.outcome), (-3, -3));

    let path = temp("v1.bin");
    std::fs::write(&path, &bytes).unwrap();
    let options = GenerateOptions { settings: file.settings, ..options(7, 2, 1) };
    assert!(matches!(generate(&path, &options), Err(GenerateError::OldVersion)));
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_version_two_file_reads_as_played_by_the_trained_evaluation_and_cannot_be_extended() {
    let v3 = temp("v3-for-v2.bin");
    generate(&v3, &options(17, 2, 1)).unwrap();
    let v3_bytes = std::fs::read(&v3).unwrap();
    // The same file as version 2 wrote it: its magic, and no evaluation in the settings.
    let mut bytes = b"OFTDATA2".to_vec();
    bytes.extend_from_slice(&v3_bytes[8..64]);
    bytes.extend_from_slice(&v3_bytes[68..]);
    let file = data::parse(&bytes).unwrap();
    assert_eq!(file.version, data::Version::Two);
    assert_eq!(file.settings, settings(17));
    assert_eq!(file.games, data::read(&v3).unwrap().games);

    let path = temp("v2.bin");
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(generate(&path, &options(17, 3, 1)), Err(GenerateError::OldVersion)));
    for path in [path, v3] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn games_played_by_the_hand_tuned_evaluation_are_other_games_and_say_so() {
    let hand_tuned = |games| GenerateOptions {
        settings: Settings { play: Play::HandTuned, ..settings(19) },
        ..options(19, games, 2)
    };
    let (trained, classic) = (temp("trained.bin"), temp("hand-tuned.bin"));
    generate(&trained, &options(19, 2, 2)).unwrap();
    generate(&classic, &hand_tuned(2)).unwrap();
    let file = data::read(&classic).unwrap();
    assert_eq!(file.settings.play, Play::HandTuned);
    assert_ne!(file.games, data::read(&trained).unwrap().games);
    // Resuming with the other evaluation is refused; with the same, it goes on.
    assert!(matches!(generate(&classic, &options(19, 3, 2)), Err(GenerateError::OtherSettings(_))));
    assert_eq!(generate(&classic, &hand_tuned(3)).unwrap().played, 1);

    let mut bytes = std::fs::read(&classic).unwrap();
    bytes[64..68].copy_from_slice(&7u32.to_le_bytes());
    assert!(matches!(data::parse(&bytes), Err(data::DataError::UnknownPlay(7))));
    for path in [trained, classic] {
        let _ = std::fs::remove_file(path);
    }
}
