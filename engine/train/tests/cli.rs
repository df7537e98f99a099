//! The `outflank-train` command line: options a command does not use are refused, and `blend`
//! writes its file.

use std::process::{Command, Output};

use outflank_engine::ai::pattern::layout::{PHASE_LEN, PHASES};
use outflank_engine::ai::pattern::weights::Weights;

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_outflank-train")).args(args).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("outflank-train-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn eval_stats_refuses_the_fitting_options_it_would_ignore() {
    for option in ["--lambda", "--lambda-empties", "--iterations", "--window", "--chain"] {
        let output = train(&["eval-stats", "--weights", "w.bin", option, "1", "data.bin"]);
        assert_eq!(output.status.code(), Some(2), "{option}");
        let expected = format!("error: unknown option {option}\n");
        assert!(stderr(&output).starts_with(&expected), "{option}: {}", stderr(&output));
    }
}

#[test]
fn eval_stats_takes_its_own_options_and_then_reads_the_weights() {
    let args =
        ["eval-stats", "--weights", "missing.bin", "--seed", "2", "--holdout", "0.1", "d.bin"];
    let output = train(&args);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("error: missing.bin: "), "{}", stderr(&output));
}

#[test]
fn blend_writes_the_share_weighted_mean_of_two_files() {
    let dir = scratch("blend");
    let (first, second, out) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("out.bin"));
    let values = |value| Weights::from_values(vec![value; PHASES * PHASE_LEN]);
    std::fs::write(&first, values(100).to_bytes()).unwrap();
    std::fs::write(&second, values(-100).to_bytes()).unwrap();
    let paths = [&out, &first, &second].map(|path| path.to_str().unwrap().to_owned());
    let output = train(&["blend", "--out", &paths[0], "--share", "0.75", &paths[1], &paths[2]]);
    assert!(output.status.success(), "{}", stderr(&output));
    let written = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert!(written.values().iter().all(|&v| v == 50));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn blend_needs_a_share_and_two_files() {
    let missing_share = train(&["blend", "--out", "out.bin", "a.bin", "b.bin"]);
    assert_eq!(missing_share.status.code(), Some(2));
    assert!(stderr(&missing_share).starts_with("error: --share is required\n"));
    let one_file = train(&["blend", "--out", "out.bin", "--share", "0.5", "a.bin"]);
    assert_eq!(one_file.status.code(), Some(2));
    assert!(stderr(&one_file).starts_with("error: blend needs two weight files\n"));
    let not_a_number = train(&["blend", "--out", "out.bin", "--share", "half", "a.bin", "b.bin"]);
    assert_eq!(not_a_number.status.code(), Some(2));
    assert_eq!(stderr(&not_a_number), "error: --share: \"half\" is not a number\n");
}

#[test]
fn exact_check_refuses_a_bad_range_or_no_positions() {
    let base = ["exact-check", "--weights", "../weights/eval.bin"];
    for (extra, message) in [
        (&["--positions", "3", "--empties", "30-20"][..], "--empties: \"30-20\" is not LOW-HIGH"),
        (&["--positions", "3", "--empties", "0-10"][..], "--empties: \"0-10\" is not LOW-HIGH"),
        (&["--positions", "3", "--empties", "20"][..], "--empties: \"20\" is not LOW-HIGH"),
        (&["--positions", "0"][..], "--positions must be at least 1"),
        (&["--positions", "3", "--label-depth", "0"][..], "--label-depth must be at least 1"),
    ] {
        let output = train(&[&base[..], extra].concat());
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&output).contains(message), "{extra:?}: {}", stderr(&output));
    }
}

#[test]
fn exact_check_prints_the_errors_against_the_exact_values() {
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../weights/eval.bin");
    let args = ["exact-check", "--weights", weights, "--positions", "4", "--empties", "8-9"];
    let output = train(&[&args[..], &["--search-nodes", "2000", "--threads", "2"]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("empties  positions  evaluation  12-ply search"), "{text}");
    assert!(lines.iter().any(|line| line.starts_with("all ")), "{text}");
    assert!(lines.last().unwrap().starts_with("left out: "), "{text}");
}

#[test]
fn positions_refuses_no_positions_and_a_missing_data_file() {
    let output = train(&["positions", "--out", "p.obf", "--positions", "0", "d.bin"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--positions must be at least 1"), "{}", stderr(&output));
    let output = train(&["positions", "--out", "p.obf", "--positions", "5", "missing.bin"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("missing.bin"), "{}", stderr(&output));
    assert!(!std::path::Path::new("p.obf").exists());
}
