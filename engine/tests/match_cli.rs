//! `outflank-engine match`: two computer players from balanced openings, both colours, and a
//! candidate weights file played against the shipped one.

use std::path::PathBuf;
use std::process::Command;

use outflank_engine::ai::pattern::weights::Weights;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_outflank-engine")).args(args).output().unwrap()
}

fn report(args: &[&str]) -> serde_json::Value {
    let output = run(args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A weights file written for one test, named after it.
fn weights_file(name: &str, weights: &Weights) -> PathBuf {
    let path = std::env::temp_dir().join(format!("outflank-{name}-{}.bin", std::process::id()));
    std::fs::write(&path, weights.to_bytes()).unwrap();
    path
}

/// Level 5 over the weights in `file` against level 5 over the shipped ones, both colours of
/// three openings.
fn candidate_against_shipped(file: &str) -> serde_json::Value {
    report(&["--json", "match", "candidate-5", "trained-5", "--weights", file, "--openings", "3"])
}

#[test]
fn a_candidate_with_the_shipped_weights_scores_exactly_half_against_them() {
    let json = candidate_against_shipped(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/eval.bin"));
    assert_eq!(json["games"], 6);
    assert_eq!(json["first_points"], 3.0);
    assert_eq!(json["mean_margin"], 0.0);
    assert_eq!(json["first"], "level 5 (candidate weights)");
    assert_eq!(json["second"], "level 5 (trained)");
}

#[test]
fn a_candidate_plays_with_its_own_weights() {
    let zero = weights_file("zero-weights", &Weights::zero());
    let json = candidate_against_shipped(zero.to_str().unwrap());
    std::fs::remove_file(zero).unwrap();
    assert_eq!(json["games"], 6);
    // Every position scores 0 to it: it loses every game, by about 50 discs.
    assert_eq!(json["first_points"], 0.0, "{json}");
    assert!(json["mean_margin"].as_f64().unwrap() < -40.0, "{json}");
}

#[test]
fn a_candidate_without_weights_is_refused_with_exit_code_2() {
    let output = run(&["match", "candidate-5", "5"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("candidate-N needs --weights FILE"));
}

#[test]
fn a_weights_file_that_is_not_one_is_refused_with_exit_code_2() {
    let output = run(&["match", "candidate-5", "5", "--weights", "Cargo.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Cargo.toml: not a weights file (bad magic)"), "{stderr}");
}
