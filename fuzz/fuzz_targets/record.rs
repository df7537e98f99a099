//! Game records and bare move lists (`Record::from_str`, SPEC §4).
//!
//! Any input: reading never panics, and an error prints. A text that reads as a game:
//! - its written record is the exact five-line form and reads back as the same game (and the
//!   same conclusion, for a game ended by resignation, time, agreement or abort), and writing
//!   that again gives the same text;
//! - its plies as a bare list (`d3 c3 pass …`), and squashed together in upper case
//!   (`D3C3PASS…`), read back as the same game;
//! - replaying the plies with `Game::from_moves` gives the same game, each ply is legal
//!   where it stands, and the game has a result exactly when neither side can move.

#![no_main]

use libfuzzer_sys::fuzz_target;
use outflank_engine::{Board, Game, Move, Record};

const LINES: [&str; 3] = [
    "Reversi game record, format 1",
    "Coordinates: files a to h left to right, ranks 1 to 8 top to bottom",
    "Start: White on d4 and e5, Black on d5 and e4, Black moves first",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Record>() {
        Err(error) => {
            let _ = error.to_string();
        }
        Ok(record) => check(&text, &record),
    }
});

fn check(text: &str, record: &Record) {
    let game = record.game();
    assert_eq!(game.start(), Board::start(), "a record starts at the standard start: {text:?}");

    // The written form: five lines, each ending with a newline.
    let written = record.to_string();
    let lines: Vec<&str> = written.split_terminator('\n').collect();
    assert!(written.ends_with('\n'), "written record must end with a newline: {written:?}");
    assert_eq!(lines.len(), 5, "written record must have five lines: {written:?}");
    assert_eq!(lines[..3], LINES, "fixed header lines: {written:?}");
    assert!(lines[3].starts_with("Moves:"), "fourth line: {written:?}");
    assert!(lines[4].starts_with("Result: "), "fifth line: {written:?}");

    // It reads back as the same game, and writing that again changes nothing.
    let again = written
        .parse::<Record>()
        .unwrap_or_else(|error| panic!("written record does not read back: {error}\n{written}"));
    assert_eq!(&again, record, "written record reads back as another game:\n{written}");
    assert_eq!(again.to_string(), written, "writing is not stable");
    // Without its Result line's conclusion (resigned, on time, ...), the record is its game.
    let bare = Record::new(game.clone()).expect("a game from the standard start");
    let concluded = match record.conclusion() {
        Some(conclusion) => bare.with_conclusion(conclusion).expect("a conclusion read back"),
        None => bare,
    };
    assert_eq!(&concluded, record);

    // The plies as bare lists.
    let plies: Vec<String> = game.plies().iter().map(ToString::to_string).collect();
    if !plies.is_empty() {
        let spaced = plies.join(" ");
        assert_eq!(parse_game(&spaced).as_ref(), Some(game), "bare list {spaced:?}");
        let squashed = plies.concat().to_ascii_uppercase();
        assert_eq!(parse_game(&squashed).as_ref(), Some(game), "squashed list {squashed:?}");
    }

    // Replaying the plies gives the same game; every ply is legal where it stands.
    let replayed = Game::from_moves(Board::start(), game.plies().iter().copied())
        .unwrap_or_else(|error| panic!("plies do not replay: {error}: {game:?}"));
    assert_eq!(&replayed, game);
    for (index, &mv) in game.plies().iter().enumerate() {
        let before = game.board_after(index).expect("a board before every ply");
        let after = game.board_after(index + 1).expect("a board after every ply");
        assert_eq!(before.play(mv), Ok(after), "ply {} ({mv}) of {game:?}", index + 1);
        if mv == Move::Pass {
            assert!(before.must_pass(), "a pass while a move exists: ply {}", index + 1);
        }
    }
    // A game never ends on a position where one side still has to pass.
    assert!(!game.board().must_pass(), "game stops on a pass: {game:?}");
    assert_eq!(game.result().is_some(), game.board().is_game_over());
}

fn parse_game(text: &str) -> Option<Game> {
    text.parse::<Record>().ok().map(Record::into_game)
}
