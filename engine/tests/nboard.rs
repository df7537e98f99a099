//! `outflank-engine nboard` as NBoard runs it: a child process spoken to over pipes, one
//! command a line, answers flushed line by line. A scripted session checks the answers; then
//! the engine plays a whole game against itself through `go` and `move`, every move checked
//! against the rules here.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use outflank_engine::{Game, Move};

/// How long one answer may take (a move at depth 2 takes milliseconds).
const TIMEOUT: Duration = Duration::from_secs(30);

const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

/// The engine process with its input and a channel of its output lines.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_outflank-engine"))
            .arg("nboard")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads its input");
        self.input.flush().unwrap();
    }

    fn answer(&self) -> String {
        self.lines.recv_timeout(TIMEOUT).expect("the engine answers in time")
    }

    /// Sends `ping n` and returns every line before `pong n`: the answers to what was sent.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut lines = Vec::new();
        loop {
            let line = self.answer();
            if line == format!("pong {n}") {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Sends `quit` and waits for the process to end.
    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// The move of an answer such as `=== F5/0.35/0.12` or `search F5 0.35 0 4`.
fn move_of(text: &str) -> Move {
    let name = &text[..2];
    if name.eq_ignore_ascii_case("PA") {
        Move::Pass
    } else {
        Move::Place(name.parse().unwrap_or_else(|_| panic!("{text:?} starts with no move")))
    }
}

#[test]
fn a_scripted_session_gets_its_answers() {
    let mut engine = Engine::start();
    engine.send("nboard 2");
    engine.send("set depth 2");
    engine.send(&format!(
        "set game (;GM[Othello]PC[NBoard]PB[Outflank]PW[chris]RE[?]TI[15:00]TY[8]\
         BO[{START_BO}]B[F5]W[F6]B[E6]W[F4];)"
    ));
    assert_eq!(engine.sync(1), ["set myname Outflank"]);

    engine.send("go");
    let answer = engine.answer();
    let parts: Vec<&str> = answer.trim_start_matches("=== ").split('/').collect();
    assert!(answer.starts_with("=== ") && parts.len() == 3, "{answer}");
    assert!(parts[1].parse::<f64>().is_ok() && parts[2].parse::<f64>().is_ok(), "{answer}");
    let game = Game::from_moves(
        outflank_engine::Board::start(),
        ["f5", "f6", "e6", "f4"].map(|name| Move::Place(name.parse().unwrap())),
    )
    .unwrap();
    let Move::Place(square) = move_of(parts[0]) else { panic!("{answer}") };
    assert!(game.board().is_legal(square), "{answer}");
    assert_eq!(engine.sync(2), Vec::<String>::new());

    engine.send(&format!("move {}", &answer[4..]));
    engine.send("hint 2");
    let hints = engine.sync(3);
    assert_eq!(hints.len(), 3, "{hints:?}");
    assert!(hints[..2].iter().all(|hint| hint.starts_with("search ")), "{hints:?}");
    assert_eq!(hints[2], "status");

    engine.send("learn");
    assert_eq!(engine.answer(), "learned");
    engine.send("this is not a command");
    engine.send("move Z9");
    assert_eq!(engine.answer(), "status \"Z9\" is not a move; expected e.g. F5 or PA");
    assert_eq!(engine.sync(4), Vec::<String>::new());
    engine.quit();
}

#[test]
fn the_engine_plays_a_whole_game_against_itself_through_go_and_move() {
    let mut engine = Engine::start();
    engine.send("nboard 2");
    engine.send("set depth 2");
    engine.send(&format!("set game (;GM[Othello]TY[8]BO[{START_BO}];)"));
    assert_eq!(engine.sync(0), ["set myname Outflank"]);

    // Our own copy of the game. It inserts a forced pass at once; NBoard, like the engine's
    // GUI, still asks the side without a move to `go` and plays its `PA`.
    let mut game = Game::default();
    let mut pass_due = false;
    let mut plies = 0;
    while !game.is_over() {
        engine.send("go");
        let answer = engine.answer();
        let item = answer.strip_prefix("=== ").unwrap_or_else(|| panic!("{answer}"));
        match move_of(item) {
            Move::Pass => {
                assert!(pass_due, "a pass with moves left: {answer} in {game:?}");
                assert_eq!(item, "PA");
                pass_due = false;
            }
            Move::Place(square) => {
                assert!(!pass_due, "{answer} where a pass was due in {game:?}");
                assert!(game.board().is_legal(square), "{answer} is illegal in {game:?}");
                pass_due = game.play(Move::Place(square)).unwrap().forced_pass.is_some();
            }
        }
        engine.send(&format!("move {item}"));
        plies += 1;
        assert!(plies <= 70, "the game does not end");
    }
    assert_eq!(engine.sync(1), Vec::<String>::new(), "no complaint about any move");
    engine.send("go");
    assert_eq!(engine.answer(), "status the game is over; there is no move to make");
    engine.quit();
}

#[test]
fn the_end_of_the_input_ends_the_engine_and_arguments_are_refused() {
    let mut engine = Engine::start();
    engine.send("nboard 2");
    assert_eq!(engine.answer(), "set myname Outflank");
    drop(engine.input);
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "{status}");

    let output = Command::new(env!("CARGO_BIN_EXE_outflank-engine"))
        .args(["nboard", "extra"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nboard takes only --threads N"));

    let output = Command::new(env!("CARGO_BIN_EXE_outflank-engine"))
        .args(["nboard", "--threads", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--threads \"0\" is not 1 to 256"));
}
