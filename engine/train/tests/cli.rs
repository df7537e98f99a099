//! The `outflank-train` command line: options a command does not use are refused, and `blend`
//! writes its file.

use std::process::{Command, Output};

use outflank_train::pattern::layout::{PHASE_LEN, PHASES};
use outflank_train::pattern::weights::Weights;

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
