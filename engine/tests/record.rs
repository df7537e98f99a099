//! Text records (SPEC.md §4): the exact written form, reading records and bare move lists,
//! how a game that is not over on the board ended, and the errors that name a bad move by
//! number and text.

use outflank_engine::record::{AlreadyOver, BadMove, NonStandardStart};
use outflank_engine::{Board, Color, Conclusion, Game, Move, ParseRecordError, Record, Square};
use proptest::prelude::*;
use proptest::sample::Index;

const SHORTEST: &str = "\
Reversi game record, format 1
Coordinates: files a to h left to right, ranks 1 to 8 top to bottom
Start: White on d4 and e5, Black on d5 and e4, Black moves first
Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4
Result: Black 13, White 0
";

/// A game from the standard start after the listed squares (passes are automatic).
fn game(moves: &str) -> Game {
    let moves = moves.split_whitespace().map(|name| Move::Place(name.parse().unwrap()));
    Game::from_moves(Board::start(), moves).expect("test games are legal")
}

fn record(game: Game) -> Record {
    Record::new(game).expect("test games start at the standard start")
}

fn parse(text: &str) -> Result<Game, ParseRecordError> {
    text.parse::<Record>().map(Record::into_game)
}

fn error(text: &str) -> String {
    parse(text).expect_err("the text is not a valid record").to_string()
}

/// The record text with its `Moves:` and `Result:` lines replaced.
fn full_record(moves: &str, result: &str) -> String {
    SHORTEST
        .replace("Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4", moves)
        .replace("Result: Black 13, White 0", result)
}

// Writing.

#[test]
fn the_shortest_game_is_written_exactly_as_in_the_rules() {
    let text = record(game("d3 c3 b3 d2 e1 d6 d7 e3 f4")).to_string();
    assert_eq!(text, SHORTEST);
}

#[test]
fn a_forced_pass_is_written_as_pass_in_its_numbered_slot() {
    let text = record(game("d3 c3 b3 b2 f5 a3 a1 c1 e3")).to_string();
    let moves = text.lines().nth(3).unwrap();
    assert_eq!(moves, "Moves: 1. d3 c3 2. b3 b2 3. f5 a3 4. a1 c1 5. pass e3");
}

#[test]
fn an_unfinished_game_is_written_with_result_unfinished() {
    let text = record(game("d3 c3 b3")).to_string();
    let expected = full_record("Moves: 1. d3 c3 2. b3", "Result: unfinished");
    assert_eq!(text, expected);
}

#[test]
fn a_game_without_moves_has_an_empty_moves_line() {
    let text = record(Game::default()).to_string();
    assert_eq!(text, full_record("Moves:", "Result: unfinished"));
}

#[test]
fn a_game_from_another_start_cannot_be_a_record() {
    let start = Board::start().play(Move::Place(Square::D3)).unwrap();
    let game = Game::new(start);
    assert_eq!(Record::new(game.clone()), Err(NonStandardStart { game }));
}

// Games that end before the board does.

/// The record of the game after `moves`, ended as `conclusion`.
fn concluded(moves: &str, conclusion: Conclusion) -> Record {
    record(game(moves))
        .with_conclusion(conclusion)
        .expect("test games with a conclusion are not over")
}

#[test]
fn a_resignation_is_written_with_the_winner_and_the_side_that_resigned() {
    let text = concluded("d3 c3 b3", Conclusion::Resignation { winner: Color::Black }).to_string();
    let expected = full_record("Moves: 1. d3 c3 2. b3", "Result: Black wins, White resigned");
    assert_eq!(text, expected);
    let text = concluded("d3 c3 b3", Conclusion::Resignation { winner: Color::White }).to_string();
    let expected = full_record("Moves: 1. d3 c3 2. b3", "Result: White wins, Black resigned");
    assert_eq!(text, expected);
}

#[test]
fn a_loss_on_time_is_written_with_the_winner() {
    let text = concluded("d3 c3", Conclusion::Timeout { winner: Color::White }).to_string();
    assert_eq!(text, full_record("Moves: 1. d3 c3", "Result: White wins on time"));
    let text = concluded("d3 c3", Conclusion::Timeout { winner: Color::Black }).to_string();
    assert_eq!(text, full_record("Moves: 1. d3 c3", "Result: Black wins on time"));
}

#[test]
fn an_agreed_draw_is_written_as_draw_agreed() {
    let text = concluded("d3 c3 b3 d2", Conclusion::DrawAgreed).to_string();
    assert_eq!(text, full_record("Moves: 1. d3 c3 2. b3 d2", "Result: draw agreed"));
}

#[test]
fn an_aborted_game_is_written_as_aborted() {
    let text = record(Game::default()).with_conclusion(Conclusion::Aborted).unwrap().to_string();
    assert_eq!(text, full_record("Moves:", "Result: aborted"));
}

#[test]
fn a_record_has_no_conclusion_until_given_one_and_the_last_one_given_counts() {
    let plain = record(game("d3 c3"));
    assert_eq!(plain.conclusion(), None);
    let resigned = Conclusion::Resignation { winner: Color::White };
    let record = plain.with_conclusion(Conclusion::DrawAgreed).unwrap().with_conclusion(resigned);
    assert_eq!(record.map(|record| record.conclusion()), Ok(Some(resigned)));
}

#[test]
fn a_conclusion_for_a_game_over_on_the_board_is_refused_and_the_record_handed_back() {
    let finished = record(game("d3 c3 b3 d2 e1 d6 d7 e3 f4"));
    let conclusion = Conclusion::Resignation { winner: Color::White };
    let refused = finished.clone().with_conclusion(conclusion);
    assert_eq!(refused, Err(AlreadyOver { record: Box::new(finished), conclusion }));
    assert_eq!(
        refused.unwrap_err().to_string(),
        r#"the game is over on the board with "Black 13, White 0", so its result cannot be "White wins, Black resigned""#
    );
}

#[test]
fn every_conclusion_reads_back_from_its_record() {
    for conclusion in Conclusion::ALL {
        let text = concluded("d3 c3 b3", conclusion).to_string();
        let read = text.parse::<Record>();
        assert_eq!(read.as_ref().map(Record::conclusion), Ok(Some(conclusion)), "{text}");
        assert_eq!(read.as_ref().map(Record::game), Ok(&game("d3 c3 b3")), "{text}");
        assert_eq!(read.map(|read| read.to_string()), Ok(text));
    }
}

#[test]
fn a_conclusion_reads_in_any_case_and_spacing_and_is_written_back_as_the_format_says() {
    let text = full_record("Moves: 1. d3 c3", "Result:   black WINS,  white resigned ");
    let read = text.parse::<Record>().unwrap();
    assert_eq!(read.conclusion(), Some(Conclusion::Resignation { winner: Color::Black }));
    assert_eq!(
        read.to_string(),
        full_record("Moves: 1. d3 c3", "Result: Black wins, White resigned")
    );
}

#[test]
fn an_unfinished_record_or_a_bare_list_reads_without_a_conclusion() {
    let unfinished = full_record("Moves: 1. d3 c3", "Result: unfinished");
    assert_eq!(unfinished.parse::<Record>().map(|read| read.conclusion()), Ok(None));
    let without_result = full_record("Moves: 1. d3 c3", "");
    assert_eq!(without_result.parse::<Record>().map(|read| read.conclusion()), Ok(None));
    assert_eq!("d3 c3".parse::<Record>().map(|read| read.conclusion()), Ok(None));
}

#[test]
fn a_conclusion_for_a_game_the_moves_finish_is_rejected() {
    let text = SHORTEST.replace("Black 13, White 0", "White wins on time");
    assert_eq!(
        parse(&text),
        Err(ParseRecordError::Result {
            written: "White wins on time".into(),
            actual: "Black 13, White 0".into()
        })
    );
    assert_eq!(
        error(&text),
        r#"the Result line says "White wins on time" but the moves give "Black 13, White 0""#
    );
    let text = SHORTEST.replace("Black 13, White 0", "aborted");
    assert_eq!(
        error(&text),
        r#"the Result line says "aborted" but the moves give "Black 13, White 0""#
    );
}

#[test]
fn an_unknown_result_is_rejected_naming_what_it_says() {
    let text = full_record("Moves: 1. d3 c3", "Result: White  forfeits");
    assert_eq!(parse(&text), Err(ParseRecordError::UnknownResult("White forfeits".into())));
    assert_eq!(
        error(&text),
        "the Result line says \"White forfeits\", which is not a score, \"unfinished\", a win by \
         resignation or on time, \"draw agreed\" or \"aborted\""
    );
}

#[test]
fn an_unknown_result_is_rejected_even_for_a_game_the_moves_finish() {
    let text = SHORTEST.replace("Black 13, White 0", "Black won");
    assert_eq!(parse(&text), Err(ParseRecordError::UnknownResult("Black won".into())));
}

#[test]
fn an_empty_result_is_an_unknown_result() {
    let text = full_record("Moves: 1. d3 c3", "Result:");
    assert_eq!(parse(&text), Err(ParseRecordError::UnknownResult(String::new())));
}

#[test]
fn a_long_unknown_result_is_quoted_in_part() {
    let text = full_record("Moves: 1. d3 c3", &format!("Result: {}", "x".repeat(1_000)));
    let quoted = format!("{}…", "x".repeat(80));
    assert_eq!(parse(&text), Err(ParseRecordError::UnknownResult(quoted)));
}

// Reading.

#[test]
fn the_record_of_the_rules_reads_back_as_the_shortest_game() {
    assert_eq!(parse(SHORTEST), Ok(game("d3 c3 b3 d2 e1 d6 d7 e3 f4")));
}

#[test]
fn a_record_reads_with_windows_line_ends_indents_and_blank_lines() {
    let text = format!("\n\n  {}\n\n", SHORTEST.replace('\n', "\r\n"));
    assert_eq!(parse(&text), Ok(game("d3 c3 b3 d2 e1 d6 d7 e3 f4")));
}

#[test]
fn a_record_may_leave_out_its_result_line() {
    let text = full_record("Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4", "");
    assert_eq!(parse(&text), Ok(game("d3 c3 b3 d2 e1 d6 d7 e3 f4")));
}

#[test]
fn the_moves_of_a_record_may_run_over_several_lines() {
    let text = full_record("Moves: 1. d3 c3 2. b3 d2\n3. e1 d6\n4. d7 e3 5. f4", "");
    assert_eq!(parse(&text), Ok(game("d3 c3 b3 d2 e1 d6 d7 e3 f4")));
}

#[test]
fn a_bare_list_reads_with_or_without_spaces_and_commas() {
    let expected = Ok(game("d3 c5 f6 f5 e6 e3"));
    assert_eq!(parse("d3 c5 f6 f5 e6 e3"), expected);
    assert_eq!(parse("d3c5f6f5e6e3"), expected);
    assert_eq!(parse("d3, c5, f6, f5, e6, e3"), expected);
    assert_eq!(parse("  d3\tc5\nf6 f5;e6 e3  "), expected);
}

#[test]
fn a_bare_list_reads_in_upper_case() {
    assert_eq!(parse("D3C5F6F5E6E3"), Ok(game("d3 c5 f6 f5 e6 e3")));
    assert_eq!(parse("D3 c5 F6"), Ok(game("d3 c5 f6")));
}

#[test]
fn move_numbers_in_a_bare_list_are_skipped() {
    let expected = Ok(game("d3 c5 f6"));
    assert_eq!(parse("1. d3 c5 2. f6"), expected);
    assert_eq!(parse("1.d3 c5 2.f6"), expected);
    assert_eq!(parse("1. d3 1... c5 2. f6"), expected);
}

#[test]
fn a_bare_list_may_start_with_moves_colon() {
    assert_eq!(parse("Moves: 1. d3 c5 2. f6"), Ok(game("d3 c5 f6")));
}

#[test]
fn passes_written_in_any_accepted_way_or_left_out_give_the_same_game() {
    let expected = Ok(game("d3 c3 b3 b2 f5 a3 a1 c1 e3"));
    assert_eq!(parse("d3 c3 b3 b2 f5 a3 a1 c1 e3"), expected);
    assert_eq!(parse("d3 c3 b3 b2 f5 a3 a1 c1 pass e3"), expected);
    assert_eq!(parse("d3 c3 b3 b2 f5 a3 a1 c1 PASS e3"), expected);
    assert_eq!(parse("d3c3b3b2f5a3a1c1PAe3"), expected);
    assert_eq!(parse("d3 c3 b3 b2 f5 a3 a1 c1 -- e3"), expected);
}

#[test]
fn a_trailing_written_pass_after_a_forced_one_is_the_same_pass() {
    assert_eq!(parse("d3 c3 b3 b2 f5 a3 a1 c1 pass"), Ok(game("d3 c3 b3 b2 f5 a3 a1 c1")));
}

// Errors.

#[test]
fn an_unreadable_move_is_named_by_number_and_text() {
    let text = "d3 c5 f6 f5 e6 e3 h9";
    assert_eq!(
        parse(text),
        Err(ParseRecordError::Move { number: 7, text: "h9".into(), problem: BadMove::NotASquare })
    );
    assert_eq!(error(text), r#"move 7 "h9" is not a square"#);
}

#[test]
fn an_illegal_move_is_named_by_number_text_and_side() {
    let text = "d3 c5 f6 f5 e6 e3 c3 d2 c4 b4 f4 a1";
    assert_eq!(
        parse(text),
        Err(ParseRecordError::Move {
            number: 12,
            text: "a1".into(),
            problem: BadMove::NotLegal(Color::White)
        })
    );
    assert_eq!(error(text), r#"move 12 "a1" is not legal for White"#);
}

#[test]
fn an_illegal_move_is_quoted_as_written() {
    let text = "D3C5F6F5E6E3C3D2C4B4F4A1";
    assert_eq!(error(text), r#"move 12 "A1" is not legal for White"#);
}

#[test]
fn an_illegal_move_in_a_full_record_is_named_the_same_way() {
    let text = full_record("Moves: 1. d3 c5 2. f6 f5 3. e6 e3 4. c3 d2 5. c4 b4 6. f4 a1", "");
    assert_eq!(error(&text), r#"move 12 "a1" is not legal for White"#);
}

#[test]
fn move_numbers_in_errors_count_a_pass_whether_written_or_left_out() {
    let expected = r#"move 10 "a2" is not legal for White"#;
    assert_eq!(error("d3 c3 b3 b2 f5 a3 a1 c1 a2"), expected);
    assert_eq!(error("d3 c3 b3 b2 f5 a3 a1 c1 pass a2"), expected);
}

#[test]
fn a_written_pass_while_a_move_exists_is_rejected() {
    assert_eq!(
        parse("d3 pass"),
        Err(ParseRecordError::Move {
            number: 2,
            text: "pass".into(),
            problem: BadMove::PassWithMoves(Color::White)
        })
    );
    assert_eq!(error("d3 pass"), r#"move 2 "pass" is a pass, but White has a legal move"#);
}

#[test]
fn a_second_written_pass_is_not_forced_and_is_rejected() {
    let text = "d3 c3 b3 b2 f5 a3 a1 c1 pass PA";
    assert_eq!(error(text), r#"move 10 "PA" is a pass, but White has a legal move"#);
}

#[test]
fn a_move_after_the_end_of_the_game_is_rejected() {
    let text = "d3 c3 b3 d2 e1 d6 d7 e3 f4 a1";
    assert_eq!(
        parse(text),
        Err(ParseRecordError::Move { number: 10, text: "a1".into(), problem: BadMove::AfterEnd })
    );
    assert_eq!(error(text), r#"move 10 "a1" comes after the end of the game"#);
    assert_eq!(
        error("d3 c3 b3 d2 e1 d6 d7 e3 f4 pass"),
        r#"move 10 "pass" comes after the end of the game"#
    );
}

#[test]
fn a_result_line_that_disagrees_with_the_moves_names_both() {
    let text = SHORTEST.replace("Black 13, White 0", "Black 12, White 1");
    assert_eq!(
        parse(&text),
        Err(ParseRecordError::Result {
            written: "Black 12, White 1".into(),
            actual: "Black 13, White 0".into()
        })
    );
    assert_eq!(
        error(&text),
        r#"the Result line says "Black 12, White 1" but the moves give "Black 13, White 0""#
    );
}

#[test]
fn a_result_for_an_unfinished_game_is_rejected() {
    let text = full_record("Moves: 1. d3 c3", "Result: Black 13, White 0");
    assert_eq!(
        error(&text),
        r#"the Result line says "Black 13, White 0" but the moves give "unfinished""#
    );
}

#[test]
fn unfinished_for_a_finished_game_is_rejected() {
    let text = SHORTEST.replace("Black 13, White 0", "unfinished");
    assert_eq!(
        error(&text),
        r#"the Result line says "unfinished" but the moves give "Black 13, White 0""#
    );
}

#[test]
fn empty_input_is_rejected() {
    assert_eq!(parse(""), Err(ParseRecordError::Empty));
    assert_eq!(parse(" \n\t\r\n "), Err(ParseRecordError::Empty));
    assert_eq!(parse("1. 2. ,"), Err(ParseRecordError::Empty));
    assert_eq!(error(""), "the text holds no record and no moves");
}

#[test]
fn garbage_is_named_as_the_first_unreadable_move() {
    assert_eq!(error("hello world"), r#"move 1 "hello" is not a square"#);
    assert_eq!(error("d3 ??"), r#"move 2 "??" is not a square"#);
    assert_eq!(error("d3 c5 12 f6"), r#"move 3 "12" is not a square"#);
    assert_eq!(error("d3 \u{1F600}"), "move 2 \"\u{1F600}\" is not a square");
}

#[test]
fn a_record_with_another_format_line_is_rejected() {
    let text = SHORTEST.replace("format 1", "format 2");
    assert_eq!(
        error(&text),
        r#"line 1: expected the line "Reversi game record, format 1", found "Reversi game record, format 2""#
    );
}

#[test]
fn a_record_with_a_bad_coordinates_line_is_rejected() {
    let text = SHORTEST.replace("ranks 1 to 8 top to bottom", "ranks 1 to 8 bottom to top");
    assert_eq!(
        error(&text),
        "line 2: expected the line \"Coordinates: files a to h left to right, ranks 1 to 8 top \
         to bottom\", found \"Coordinates: files a to h left to right, ranks 1 to 8 bottom to \
         top\""
    );
}

#[test]
fn a_record_missing_its_header_is_read_as_a_record() {
    let text = SHORTEST.replace("Reversi game record, format 1\n", "");
    assert_eq!(
        error(&text),
        "line 1: expected the line \"Reversi game record, format 1\", found \"Coordinates: files \
         a to h left to right, ranks 1 to 8 top to bottom\""
    );
}

#[test]
fn a_record_from_another_start_is_rejected() {
    let start = "Start: White on d5 and e4, Black on d4 and e5, Black moves first";
    let text =
        SHORTEST.replace("Start: White on d4 and e5, Black on d5 and e4, Black moves first", start);
    assert_eq!(parse(&text), Err(ParseRecordError::Start(start.into())));
    assert_eq!(
        error(&text),
        format!("only games from the standard start can be read, but the record says {start:?}")
    );
}

#[test]
fn a_record_that_stops_before_its_moves_is_rejected() {
    let text = SHORTEST.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(error(&text), r#"the record ends before a line starting "Moves:""#);
}

#[test]
fn text_after_the_result_line_is_rejected() {
    let text = format!("{SHORTEST}d3\n");
    assert_eq!(error(&text), r#"line 6: expected the end of the record, found "d3""#);
}

#[test]
fn a_long_unreadable_word_is_quoted_in_part() {
    let text = "x".repeat(10_000);
    let expected = format!("move 1 \"{}…\" is not a square", "x".repeat(80));
    assert_eq!(error(&text), expected);
}

#[test]
fn a_huge_input_is_rejected_at_its_first_bad_move() {
    let text = "d3 ".repeat(1_000_000);
    assert_eq!(error(&text), r#"move 2 "d3" is not legal for White"#);
}

// Round trips and robustness.

/// A game from the start where `choices` pick each move among the legal ones (passes are
/// automatic); it ends when the choices or the game run out.
fn random_game(choices: &[Index]) -> Game {
    let mut game = Game::default();
    for choice in choices {
        let moves: Vec<Square> = game.board().legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        game.play(Move::Place(moves[choice.index(moves.len())])).unwrap();
    }
    game
}

/// Text pieces that make records and move lists, valid and broken.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "Reversi game record, format 1\n",
            "Coordinates: files a to h left to right, ranks 1 to 8 top to bottom\n",
            "Start: White on d4 and e5, Black on d5 and e4, Black moves first\n",
            "Moves:",
            "Result: Black 13, White 0",
            "Result: unfinished",
            "Result: Black wins, White resigned",
            "Result: White wins on time",
            "Result: draw agreed",
            "Result: aborted",
            "\n",
            " ",
            ",",
            "1.",
            "pass",
            "PA",
            "--",
            "d3",
            "c3",
            "b3",
            "d2",
            "e1",
            "f5",
            "h9",
            "é",
        ])
        .prop_map(String::from),
        prop::sample::select(Square::ALL.to_vec()).prop_map(|square| square.to_string()),
        "\\PC{0,3}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_game_reads_back_from_its_record(choices in prop::collection::vec(any::<Index>(), 0..=64)) {
        let game = random_game(&choices);
        let text = record(game.clone()).to_string();
        let read = parse(&text);
        prop_assert_eq!(read.as_ref().map(Game::plies), Ok(game.plies()), "{}", text);
        prop_assert_eq!(read.map(|read| read.board()), Ok(game.board()));
    }

    #[test]
    fn any_unfinished_game_with_any_conclusion_reads_back_from_its_record(
        choices in prop::collection::vec(any::<Index>(), 0..=64),
        which in any::<Index>(),
    ) {
        let game = random_game(&choices);
        prop_assume!(!game.is_over());
        let conclusion = Conclusion::ALL[which.index(Conclusion::ALL.len())];
        let written = record(game).with_conclusion(conclusion).unwrap();
        let text = written.to_string();
        prop_assert_eq!(text.parse::<Record>(), Ok(written), "{}", text);
    }

    #[test]
    fn any_game_reads_back_from_a_bare_list_without_spaces_or_passes(
        choices in prop::collection::vec(any::<Index>(), 0..=64),
    ) {
        let game = random_game(&choices);
        prop_assume!(!game.plies().is_empty());
        let text: String = game
            .plies()
            .iter()
            .filter(|&&mv| mv != Move::Pass)
            .map(|mv| mv.to_string().to_uppercase())
            .collect();
        prop_assert_eq!(parse(&text), Ok(game), "{}", text);
    }

    #[test]
    fn any_game_reads_back_from_a_bare_list_with_its_passes(
        choices in prop::collection::vec(any::<Index>(), 0..=64),
    ) {
        let game = random_game(&choices);
        prop_assume!(!game.plies().is_empty());
        let text = game.plies().iter().map(Move::to_string).collect::<Vec<_>>().join(" ");
        prop_assert_eq!(parse(&text), Ok(game), "{}", text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = text.parse::<Record>();
    }

    #[test]
    fn whatever_reads_writes_a_record_that_reads_the_same(
        pieces in prop::collection::vec(piece(), 0..40),
    ) {
        let text = pieces.concat();
        if let Ok(first) = text.parse::<Record>() {
            let again = first.to_string().parse::<Record>();
            prop_assert_eq!(again, Ok(first), "{}", text);
        }
    }

    #[test]
    fn any_cut_of_a_record_never_panics(
        choices in prop::collection::vec(any::<Index>(), 0..=64),
        cut in any::<Index>(),
    ) {
        let text = record(random_game(&choices)).to_string();
        let end = cut.index(text.len() + 1);
        let _ = text[..end].parse::<Record>();
    }
}

#[test]
fn a_clock_line_between_start_and_moves_is_written_and_read_back() {
    let timed = record(game("d3 c3")).with_clock("3+2");
    let text = timed.to_string();
    assert!(text.contains("Black moves first\nClock: 3+2\nMoves: 1. d3 c3\n"), "{text}");
    let read: Record = text.parse().unwrap();
    assert_eq!((read.clock(), read.game().plies().len()), (Some("3+2"), 2));
}

#[test]
fn a_record_without_a_clock_line_has_no_clock_and_blank_clocks_are_not_written() {
    let text = record(game("d3")).to_string();
    assert!(!text.contains("Clock:"), "{text}");
    assert_eq!(text.parse::<Record>().unwrap().clock(), None);
    assert!(!record(game("d3")).with_clock("  ").to_string().contains("Clock:"));
    assert!(!record(game("d3")).with_clock("3+2\nMoves: d3").to_string().contains("Clock:"));
}

#[test]
fn a_clock_line_after_the_moves_is_an_error_naming_the_line() {
    let text = format!("{}Clock: 3+2\n", full_record("Moves: 1. d3 c3", "Result: unfinished"));
    assert_eq!(error(&text), "line 6: expected the end of the record, found \"Clock: 3+2\"");
}
