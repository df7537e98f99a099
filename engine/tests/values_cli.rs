//! `outflank-engine values`: every legal move of a position valued from the command line.

use std::process::Command;

use outflank_engine::Record;

fn values(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_outflank-engine")).args(args).output().unwrap()
}

#[test]
fn values_lists_every_legal_move_best_first_as_json() {
    let output = values(&["--json", "values", "--depth", "4", "f5", "d6", "c3", "d3", "c4"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let moves = json["moves"].as_array().unwrap();
    let mut squares: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    squares.sort_unstable();
    let board = "f5 d6 c3 d3 c4".parse::<Record>().unwrap().game().board();
    let mut legal: Vec<String> = board.legal_moves().into_iter().map(|s| s.to_string()).collect();
    legal.sort_unstable();
    assert_eq!(squares, legal);
    let scores: Vec<i64> = moves.iter().map(|m| m["value"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|pair| pair[0] >= pair[1]), "{scores:?}");
    assert_eq!(json["search"], "depth 4");
    assert_eq!(json["best_line"][0], moves[0]["move"]);
}

#[test]
fn values_refuses_a_bad_move_list_with_exit_code_2() {
    let output = values(&["values", "f5", "z9"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("\"z9\" is not a square"));
}

#[test]
fn values_and_reviews_are_the_same_on_any_number_of_threads() {
    let moves = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "g5", "e6", "f7"];
    let run = |command: &str, threads: &str, key: &str| {
        let mut args =
            vec!["--json", command, "--depth", "4", "--exact", "8", "--threads", threads];
        args.extend(moves);
        let output = values(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["threads"].as_u64(), threads.parse().ok());
        json[key].clone()
    };
    assert_eq!(run("values", "3", "moves"), run("values", "1", "moves"));
    let one = run("review", "1", "plies");
    assert_eq!(one.as_array().unwrap().len(), moves.len());
    assert_eq!(run("review", "2", "plies"), one);
}

#[test]
fn a_thread_count_out_of_range_is_refused_with_exit_code_2() {
    for command in ["values", "review"] {
        let output = values(&[command, "--threads", "0", "f5"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("--threads 0 is not 1 to 256"));
    }
}
