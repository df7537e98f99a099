//! GGF games: reading files as GGS and NBoard write them, writing them back, the standard
//! start and coordinates, passes, non-standard starts, every error, and conversion to and from
//! text records.

use outflank_engine::ggf::{BadBoard, GameTextError, GgfGame, parse_game_text, parse_games};
use outflank_engine::record::BadMove;
use outflank_engine::{Bitboard, Board, Color, Game, Move, ParseGgfError, Record, Square};
use proptest::prelude::*;
use proptest::sample::Index;

/// The `BO` value of the standard start, as GGS writes it.
const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

/// A whole game as the GGS archives hold it: lower-case moves with evaluations and times, one
/// written pass (W[PA] near the end), Black winning 57–7.
const GGS_GAME: &str = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[ann]PW[bob]\
RB[2011.52]RW[1893.07]TI[05:00//02:00]TY[8]RE[+50.000]\
BO[8 ---------------------------O*------*O--------------------------- *]\
B[d3/0.62/7.91]W[c3/0.40/5.82]B[c4/2.16/3.73]W[e3/-4.50/1.64]B[f2/0.80/8.55]W[b4/-0.16/6.46]\
B[c5/2.01/4.37]W[d6/-2.80/2.28]B[b3/3.08/0.19]W[c2/0.12/7.10]B[b5/1.59/5.01]W[a5/1.19/3.92]\
B[e6/0.82/1.83]W[f5/0.67/8.74]B[a4/3.58/6.65]W[a3/-1.80/4.56]B[a6/1.42/2.47]W[c6/0.43/0.38]\
B[a2/3.81/7.29]W[f3/-3.35/5.20]B[d2/2.85/3.11]W[c1/-2.78/1.02]B[e1/2.11/8.93]W[d1/-1.80/6.84]\
B[b1/2.97/4.75]W[f1/-3.54/2.66]B[g1/3.00/0.57]W[b2/-4.88/7.48]B[g3/17.25/5.39]W[f4/-1.81/3.30]\
B[a1/14.95/1.21]W[e2/-16.65/8.12]B[g6/15.80/6.03]W[g5/-14.85/4.94]B[f6/14.74/2.85]\
W[g4/-15.10/0.76]B[h4/15.19/7.67]W[h5/-14.91/5.58]B[h3/15.83/3.49]W[h2/-16.00/1.40]\
B[b6/14.68/8.31]W[g2/-14.19/6.22]B[h1/23.75/4.13]W[a7/-18.12/2.04]B[a8/28.32/0.95]\
W[b7/-22.37/7.86]B[b8/28.81/5.77]W[d7/-22.31/3.68]B[h6/28.90/1.59]W[f7/-28.95/8.50]\
B[f8/50.00/6.41]W[g8/-50.00/4.32]B[d8/50.00/2.23]W[e7/-50.00/0.14]B[e8/50.00/7.05]\
W[g7/-50.00/5.96]B[h8/50.00/3.87]W[c8/-50.00/1.78]B[h7/50.00/8.69]W[PA]B[c7/50.00/6.60];)";

/// A game from the standard start after the listed squares (passes are automatic).
fn game(moves: &str) -> Game {
    let moves = moves.split_whitespace().map(|name| Move::Place(name.parse().unwrap()));
    Game::from_moves(Board::start(), moves).expect("test games are legal")
}

fn parse(text: &str) -> Result<GgfGame, ParseGgfError> {
    text.parse::<GgfGame>()
}

/// A GGF game of the listed `B[..]`/`W[..]` moves from the standard start.
fn with_moves(moves: &str) -> String {
    format!("(;GM[Othello]TY[8]BO[{START_BO}]{moves};)")
}

fn error(text: &str) -> ParseGgfError {
    parse(text).expect_err("the text is not a valid GGF game")
}

// The board and the coordinates.

#[test]
fn the_standard_bo_is_outflanks_start_and_d3_c4_f5_e6_are_legal() {
    let ggf = parse(&with_moves("")).unwrap();
    assert_eq!(ggf.game.start(), Board::start());
    // Rows top to bottom, a1 first: d4 and e5 White, e4 and d5 Black, as in Outflank's rules.
    assert_eq!(Board::start().at(Square::D4), Some(Color::White));
    assert_eq!(Board::start().at(Square::E4), Some(Color::Black));
    let first: Vec<Square> = ggf.game.board().legal_moves().into_iter().collect();
    assert_eq!(first, [Square::D3, Square::C4, Square::F5, Square::E6]);
}

#[test]
fn the_standard_start_is_written_as_ggs_writes_it_and_reads_back() {
    let text = GgfGame::new(Game::default()).to_string();
    assert_eq!(text, format!("(;GM[Othello]TY[8]BO[{START_BO}];)"));
    assert_eq!(parse(&text).unwrap().game, Game::default());
}

#[test]
fn bo_rows_may_be_separated_by_spaces() {
    let spaced = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
    let ggf = parse(&format!("(;GM[Othello]BO[{spaced}]B[F5];)")).unwrap();
    assert_eq!(ggf.game, game("f5"));
}

// Reading real files.

#[test]
fn a_game_from_the_ggs_archives_reads_with_its_players_clock_and_result() {
    let ggf = parse(GGS_GAME).unwrap();
    assert_eq!(ggf.black.as_deref(), Some("ann"));
    assert_eq!(ggf.white.as_deref(), Some("bob"));
    assert_eq!(ggf.black_rating, Some(2011.52));
    assert_eq!(ggf.white_rating, Some(1893.07));
    assert_eq!(ggf.date.as_deref(), Some("2003.12.15_13:24:03.MST"));
    assert_eq!(ggf.place.as_deref(), Some("GGS/os"));
    assert_eq!(ggf.time_control.as_deref(), Some("05:00//02:00"));
    assert_eq!(ggf.result.as_deref(), Some("+50.000"));
    let game = &ggf.game;
    assert!(game.is_over());
    let result = game.result().unwrap();
    assert_eq!((result.black, result.white, result.empty), (57, 7, 0));
    // 60 squares and White's one pass.
    assert_eq!(game.plies().len(), 61);
    assert_eq!(game.plies()[59], Move::Pass);
    assert_eq!(game.plies()[0], Move::Place(Square::D3));
}

#[test]
fn a_ggs_game_is_written_back_with_upper_case_moves_and_reads_back_the_same() {
    let ggf = parse(GGS_GAME).unwrap();
    let text = ggf.to_string();
    assert!(text.starts_with(
        "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[ann]PW[bob]RB[2011.52]RW[1893.07]\
         TI[05:00//02:00]TY[8]RE[+50.000]BO[8 "
    ));
    assert!(text.contains("]B[D3]W[C3]B[C4]"), "{text}");
    assert!(text.ends_with("B[H7]W[PA]B[C7];)"), "{text}");
    assert_eq!(parse(&text).unwrap(), ggf);
}

#[test]
fn an_nboard_game_with_unknown_result_reads() {
    let text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]\
                TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
                B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
    let ggf = parse(text).unwrap();
    assert_eq!(ggf.game, game("f5 f6 d3 c5 e6 f7 e7 f4"));
    assert_eq!(ggf.result.as_deref(), Some("?"));
    assert!(ggf.to_string().contains("RE[?]"));
}

#[test]
fn properties_come_in_any_order_and_unknown_ones_are_ignored() {
    let text = format!(
        "  (; B[f5] XX[anything] W[F6//1.2] GM[Othello] BO[{START_BO}] KM[0] \
         PB[  ann  ] B[e6/-0.50] ;)\n"
    );
    let ggf = parse(&text).unwrap();
    assert_eq!(ggf.game, game("f5 f6 e6"));
    assert_eq!(ggf.black.as_deref(), Some("ann"));
}

#[test]
fn without_bo_the_game_starts_from_the_standard_start() {
    assert_eq!(parse("(;GM[Othello]B[F5]W[F6];)").unwrap().game, game("f5 f6"));
}

#[test]
fn synchro_and_random_start_types_are_ordinary_8x8_games() {
    for kind in ["8", "s8", "8r", "8r20", "s8r16", " 8 "] {
        let text = format!("(;GM[Othello]TY[{kind}]B[F5];)");
        assert_eq!(parse(&text).unwrap().game, game("f5"), "TY[{kind}]");
    }
}

#[test]
fn a_file_of_several_games_reads_with_parse_games() {
    let text = format!("{GGS_GAME}\n{}\n\n", with_moves("B[F5]"));
    let games = parse_games(&text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].game, game("f5"));
    assert_eq!(
        parse(&text),
        Err(ParseGgfError::Trailing(format!("{}…", &with_moves("B[F5]")[..40])))
    );
}

// Passes.

/// White's c1 leaves Black without a move; Black passes, White plays e3.
const PASS_MOVES: &str = "d3 c3 b3 b2 f5 a3 a1 c1 e3";

#[test]
fn a_pass_is_written_pa_with_the_colour_that_passed() {
    let text = GgfGame::new(game(PASS_MOVES)).to_string();
    assert!(text.ends_with("B[A1]W[C1]B[PA]W[E3];)"), "{text}");
    assert_eq!(parse(&text).unwrap().game, game(PASS_MOVES));
}

#[test]
fn a_pass_may_be_written_pa_or_pass_in_any_case_or_left_out() {
    let head = "B[D3]W[C3]B[B3]W[B2]B[F5]W[A3]B[A1]W[C1]";
    for pass in ["B[PA]", "B[pa]", "B[pass]", "B[PASS/0.00/0.01]", ""] {
        let ggf = parse(&with_moves(&format!("{head}{pass}W[E3]"))).unwrap();
        assert_eq!(ggf.game, game(PASS_MOVES), "{pass:?}");
    }
}

#[test]
fn a_game_ending_on_a_forced_pass_reads_whether_or_not_the_pass_is_written() {
    let head = "B[D3]W[C3]B[B3]W[B2]B[F5]W[A3]B[A1]W[C1]";
    let without = parse(&with_moves(head)).unwrap().game;
    let with = parse(&with_moves(&format!("{head}B[PA]"))).unwrap().game;
    assert_eq!(without, with);
    assert_eq!(with.plies().last(), Some(&Move::Pass));
    assert_eq!(with.side_to_move(), Color::White);
}

#[test]
fn a_finished_game_gets_its_score_with_the_empties_going_to_the_winner() {
    // Black 13, White 0, 51 empty squares.
    let ggf = GgfGame::new(game("d3 c3 b3 d2 e1 d6 d7 e3 f4"));
    assert_eq!(ggf.result_text().as_deref(), Some("+64.000"));
    assert!(ggf.to_string().contains("RE[+64.000]"));
    let mut unfinished = GgfGame::new(game("d3"));
    assert_eq!(unfinished.result_text(), None);
    unfinished.result = Some("-64.000:r".into());
    assert!(unfinished.to_string().contains("RE[-64.000:r]"));
}

// Non-standard starts.

/// White (d4, e4, f4) to move against Black (d5, e5, f5, d6).
const CUSTOM_BO: &str =
    "8 -------- -------- -------- ---OOO-- ---***-- ---*---- -------- -------- O";

#[test]
fn any_position_may_start_the_game() {
    let ggf = parse(&format!("(;GM[Othello]TY[8]BO[{CUSTOM_BO}]W[D7]B[C3];)")).unwrap();
    let start = ggf.game.start();
    assert_eq!(start.side_to_move(), Color::White);
    assert_eq!(start.white(), [Square::D4, Square::E4, Square::F4].into_iter().collect());
    assert_eq!(start.black().count(), 4);
    assert_eq!(ggf.game.plies(), [Move::Place(Square::D7), Move::Place(Square::C3)]);
    let text = ggf.to_string();
    let squares: String = CUSTOM_BO[2..].chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(squares.len(), 65);
    assert!(text.contains(&format!("BO[8 {} O]", &squares[..64])), "{text}");
    assert_eq!(parse(&text).unwrap(), ggf);
    // A text record only holds games from the standard start.
    assert!(Record::try_from(ggf).is_err());
}

#[test]
fn a_start_where_the_side_to_move_has_no_move_takes_its_pass_written_or_not() {
    // White to move on a1 Black, b1 White: White cannot flip a1, Black plays c1.
    let blocked = "8 *O------ -------- -------- -------- -------- -------- -------- -------- O";
    let ggf = parse(&format!("(;GM[Othello]BO[{blocked}]B[C1];)")).unwrap();
    assert_eq!(ggf.game.plies(), [Move::Pass, Move::Place(Square::C1)]);
    assert!(ggf.game.is_over());
    let written = parse(&format!("(;GM[Othello]BO[{blocked}]W[PA]B[C1];)")).unwrap();
    assert_eq!(written.game, ggf.game);
    assert!(ggf.to_string().ends_with("O]W[PA]B[C1];)"));
}

// Errors.

#[test]
fn empty_and_non_ggf_texts_are_refused() {
    assert_eq!(error(""), ParseGgfError::Empty);
    assert_eq!(error("  \n"), ParseGgfError::Empty);
    assert_eq!(error("d3 c5"), ParseGgfError::NotGgf("d3 c5".into()));
    assert_eq!(error("(GM[Othello])"), ParseGgfError::NotGgf("(GM[Othello])".into()));
}

#[test]
fn broken_syntax_is_refused_with_its_position() {
    assert_eq!(
        error("(;GM[Othello]12[x];)"),
        ParseGgfError::Syntax {
            at: 14,
            expected: "a property such as PB[name], or \";)\"",
            found: "12[x];)".into()
        }
    );
    assert_eq!(
        error("(;GM Othello;)"),
        ParseGgfError::Syntax {
            at: 6,
            expected: "\"[\" after the property name",
            found: "Othello;)".into()
        }
    );
    assert_eq!(
        error("(;GM[Othello]PB[ann"),
        ParseGgfError::Unterminated { expected: "the \"]\" closing a property" }
    );
    assert_eq!(
        error("(;GM[Othello]B[F5]"),
        ParseGgfError::Unterminated { expected: "a property such as PB[name], or \";)\"" }
    );
    assert_eq!(
        error("(;GM[Othello]B[F5]").to_string(),
        "the text ends before a property such as PB[name], or \";)\""
    );
}

#[test]
fn other_games_sizes_and_variants_are_refused() {
    assert_eq!(error("(;GM[Amazons];)"), ParseGgfError::NotOthello("Amazons".into()));
    for kind in ["10", "6", "8k", "8a", "88", "s10r20", "x"] {
        let text = format!("(;GM[Othello]TY[{kind}];)");
        assert_eq!(error(&text), ParseGgfError::Type(kind.into()), "TY[{kind}]");
    }
    assert_eq!(
        error("(;GM[Othello]TY[10];)").to_string(),
        "TY[10] is not 8x8 Othello with the ordinary rules, the only kind that can be read"
    );
}

#[test]
fn bad_boards_are_refused_with_what_is_wrong() {
    let board_error = |bo: &str| match error(&format!("(;GM[Othello]BO[{bo}];)")) {
        ParseGgfError::Board { problem, .. } => problem,
        other => panic!("expected a board error, got {other:?}"),
    };
    assert_eq!(board_error(&START_BO.replacen('8', "10", 1)), BadBoard::Size("10".into()));
    assert_eq!(board_error("8 ---- *"), BadBoard::Squares(4));
    assert_eq!(board_error("8"), BadBoard::Squares(0));
    assert_eq!(board_error(&format!("8 {} *", "-".repeat(70))), BadBoard::Squares(70));
    assert_eq!(board_error(&format!("8 {}", "-".repeat(64))), BadBoard::MissingSide);
    assert_eq!(board_error(&format!("8 {} ?", "-".repeat(64))), BadBoard::Side('?'));
    assert_eq!(
        board_error(&format!("8 {}Z *", "-".repeat(63))),
        BadBoard::Square { square: Square::H8, found: 'Z' }
    );
    assert_eq!(
        error(&format!("(;GM[Othello]BO[8 {}Z *];)", "-".repeat(63))).to_string(),
        format!("BO[8 {}…] holds 'Z' on h8; expected *, O or -", "-".repeat(38))
    );
}

#[test]
fn bad_moves_are_named_by_number_and_text() {
    let move_error = |moves: &str| error(&with_moves(moves));
    assert_eq!(
        move_error("B[F5]W[H9/0.1]"),
        ParseGgfError::Move { number: 2, text: "H9".into(), problem: BadMove::NotASquare }
    );
    assert_eq!(move_error("B[F5]W[H9]").to_string(), "move 2 \"H9\" is not a square");
    assert_eq!(
        move_error("B[F5]W[A1]"),
        ParseGgfError::Move {
            number: 2,
            text: "A1".into(),
            problem: BadMove::NotLegal(Color::White)
        }
    );
    assert_eq!(
        move_error("B[F5]W[PA]"),
        ParseGgfError::Move {
            number: 2,
            text: "PA".into(),
            problem: BadMove::PassWithMoves(Color::White)
        }
    );
    assert_eq!(
        move_error("B[F5]B[F4]"),
        ParseGgfError::Turn {
            number: 2,
            text: "F4".into(),
            given: Color::Black,
            to_move: Color::White
        }
    );
    assert_eq!(
        move_error("B[F5]B[F4]").to_string(),
        "move 2 \"F4\" is given to Black, but White is to move"
    );
    // The shortest game is over after f4: a tenth move comes after the end.
    let shortest = "B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4]";
    assert_eq!(
        move_error(&format!("{shortest}W[A1]")),
        ParseGgfError::Move { number: 10, text: "A1".into(), problem: BadMove::AfterEnd }
    );
    assert_eq!(
        move_error("B[]"),
        ParseGgfError::Move { number: 1, text: String::new(), problem: BadMove::NotASquare }
    );
}

// Values and escapes.

#[test]
fn names_with_brackets_and_backslashes_round_trip() {
    let mut ggf = GgfGame::new(game("f5 f6"));
    ggf.black = Some("a]b\\c".into());
    ggf.white = Some("plain".into());
    ggf.black_rating = Some(1500.0);
    let text = ggf.to_string();
    assert!(text.contains("PB[a\\]b\\\\c]PW[plain]RB[1500]"), "{text}");
    assert_eq!(parse(&text).unwrap(), ggf);
}

#[test]
fn ratings_that_are_not_numbers_are_dropped() {
    let ggf = parse("(;GM[Othello]RB[?]RW[inf]B[F5];)").unwrap();
    assert_eq!((ggf.black_rating, ggf.white_rating), (None, None));
}

// Records and either format.

#[test]
fn a_record_converts_to_ggf_and_back_with_the_same_moves() {
    let record: Record = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7".parse().unwrap();
    let ggf = GgfGame::from(record.clone());
    let text = ggf.to_string();
    assert!(text.contains("B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6]W[E7]"), "{text}");
    let back = Record::try_from(parse(&text).unwrap()).unwrap();
    assert_eq!(back, record);
    assert_eq!(back.to_string(), record.to_string());
}

#[test]
fn a_ggs_game_converts_to_a_record_text_that_reads_back_the_same() {
    let ggf = parse(GGS_GAME).unwrap();
    let record = Record::try_from(ggf.clone()).unwrap();
    let text = record.to_string();
    assert!(text.contains("Moves: 1. d3 c3 2. c4 e3"), "{text}");
    assert!(text.ends_with("Result: Black 57, White 7\n"), "{text}");
    assert_eq!(text.parse::<Record>().unwrap().game(), &ggf.game);
}

#[test]
fn parse_game_text_reads_either_format() {
    let from_ggf = parse_game_text(&format!("\n  {}", with_moves("B[F5]W[D6]"))).unwrap();
    let from_record = parse_game_text("f5 d6").unwrap();
    let from_full = parse_game_text(&Record::new(game("f5 d6")).unwrap().to_string()).unwrap();
    assert_eq!(from_ggf, game("f5 d6"));
    assert_eq!(from_record, from_ggf);
    assert_eq!(from_full, from_ggf);
    assert!(matches!(parse_game_text("(;GM[Othello]B[Z9];)"), Err(GameTextError::Ggf(_))));
    let bad = parse_game_text("d3 c5 h9").unwrap_err();
    assert!(matches!(bad, GameTextError::Record(_)));
    assert_eq!(bad.to_string(), "move 3 \"h9\" is not a square");
}

// Any game.

/// A game of random legal moves, until `choices` run out or the game ends.
fn random_game(start: Board, choices: &[Index]) -> Game {
    let mut game = Game::new(start);
    if game.board().must_pass() {
        game.play(Move::Pass).unwrap();
    }
    for choice in choices {
        let moves: Vec<Square> = game.board().legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        game.play(Move::Place(moves[choice.index(moves.len())])).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_game_reads_back_from_its_ggf(choices in prop::collection::vec(any::<Index>(), 0..=64)) {
        let game = random_game(Board::start(), &choices);
        let text = GgfGame::new(game.clone()).to_string();
        prop_assert_eq!(parse(&text).map(GgfGame::into_game), Ok(game.clone()));
        // The same moves as its text record.
        let record = Record::new(game.clone()).unwrap();
        prop_assert_eq!(GgfGame::from(record).to_string(), text);
    }

    #[test]
    fn any_game_from_any_reachable_position_reads_back(
        opening in prop::collection::vec(any::<Index>(), 0..=40),
        rest in prop::collection::vec(any::<Index>(), 0..=40),
    ) {
        let start = random_game(Board::start(), &opening).board();
        prop_assume!(!start.is_game_over());
        let game = random_game(start, &rest);
        let text = GgfGame::new(game.clone()).to_string();
        prop_assert_eq!(parse(&text).map(GgfGame::into_game), Ok(game));
    }

    #[test]
    fn lower_case_moves_with_evals_and_no_passes_read_the_same(
        choices in prop::collection::vec(any::<Index>(), 0..=64),
    ) {
        let game = random_game(Board::start(), &choices);
        let mut moves = String::new();
        for (ply, mv) in game.plies().iter().enumerate() {
            let side = game.board_after(ply).unwrap().side_to_move();
            if let Move::Place(square) = mv {
                let tag = if side == Color::Black { 'B' } else { 'W' };
                moves.push_str(&format!("{tag}[{square}/{}.25/0.{ply}]", ply % 7));
            }
        }
        prop_assert_eq!(parse(&with_moves(&moves)).map(GgfGame::into_game), Ok(game));
    }

    #[test]
    fn no_text_makes_reading_panic(text in "\\PC{0,200}") {
        let _ = parse(&text);
        let _ = parse(&format!("(;{text}"));
        let _ = parse_game_text(&text);
    }

    #[test]
    fn no_jumble_of_ggf_pieces_makes_reading_panic(text in "[\\]\\[\\\\;()BWOPAKTYGM*8F5ah19 -]{0,120}") {
        let _ = parse(&format!("(;{text}"));
        let _ = parse_games(&format!("(;{text}"));
    }

    #[test]
    fn any_cut_of_a_game_is_read_or_refused_without_panicking(cut in any::<Index>()) {
        let end = cut.index(GGS_GAME.len() + 1);
        if GGS_GAME.is_char_boundary(end) {
            let _ = parse(&GGS_GAME[..end]);
        }
    }
}

#[test]
fn the_bitboard_of_a_read_board_matches_its_letters() {
    let ggf = parse(&format!("(;BO[{CUSTOM_BO}];)")).unwrap();
    let black: Bitboard = [Square::D5, Square::E5, Square::F5, Square::D6].into_iter().collect();
    assert_eq!(ggf.game.start().black(), black);
}
