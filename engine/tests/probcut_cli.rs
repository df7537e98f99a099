//! `outflank-engine probcut-fit --file`: ProbCut's spreads measured on the positions of an OBF
//! file (such as the training data's, written by `outflank-train positions`).

use std::path::PathBuf;
use std::process::{Command, Output};

use outflank_engine::Record;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_outflank-engine")).args(args).output().unwrap()
}

fn obf(name: &str, text: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("outflank-probcut-{name}-{}.obf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The positions after `plies` plies of a game of level 8 against itself, as OBF lines.
fn lines(plies: &[usize]) -> String {
    let game = "f5 d6 c3 d3 c4 f4 f6 g5 e6 f7 h5 g6 e7 c5 b6 g4 d2 d7 h6 b5 c6 c7 a6 a4 h3 g3 b4 b3 h4 c2 f3 a3 a5 a7 b1 e3 g8 e1 b2 g2 f2 g1 h1 h2 d8 f8 e2 c1 f1 a1 a2 d1 b8 c8 a8 e8 b7 g7 h7 h8"
        .parse::<Record>()
        .unwrap()
        .into_game();
    plies.iter().map(|&ply| format!("{};\n", game.board_after(ply).unwrap())).collect()
}

#[test]
fn the_spreads_are_measured_on_the_files_positions() {
    let path = obf("two", &format!("% two positions\n{}", lines(&[44, 46])));
    let output = run(&["--json", "probcut-fit", "--file", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["positions"], 2);
    let sigma = json["sigma"].as_array().unwrap();
    assert_eq!(sigma.len(), 5);
    assert!(sigma.iter().all(|row| row.as_array().unwrap().len() == 10));
    // Both positions have 14 or 16 empties: stage 0-19, every depth from 3 to 10 counted twice.
    let samples = json["samples"].as_array().unwrap();
    assert_eq!(samples[0], serde_json::json!([2, 2, 2, 2, 2, 2, 2, 2]));
    assert_eq!(samples[1], serde_json::json!([0, 0, 0, 0, 0, 0, 0, 0]));

    let limited =
        run(&["--json", "probcut-fit", "--file", path.to_str().unwrap(), "--positions", "1"]);
    let json: serde_json::Value = serde_json::from_slice(&limited.stdout).unwrap();
    assert_eq!(json["positions"], 1);
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_file_without_a_playable_position_or_with_a_bad_line_is_refused() {
    let over = obf("over", &lines(&[60]));
    let output = run(&["probcut-fit", "--file", over.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("holds no position with a move to play")
    );

    let bad = obf("bad", "not a position;\n");
    let output = run(&["probcut-fit", "--file", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 1: "));
    for path in [over, bad] {
        let _ = std::fs::remove_file(path);
    }
}
