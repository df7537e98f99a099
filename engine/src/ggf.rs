//! Othello games in GGF, the Generic Game Format of GGS, NBoard and most Othello tools.
//!
//! ```text
//! (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[ann]PW[bob]RB[2011.52]RW[1893.07]
//!   TI[05:00//02:00]TY[8]RE[+18.000]BO[8 ---------------------------O*------*O--------------------------- *]
//!   B[F5//0.02]W[F6/-1.50/3.1]B[E6]...;)
//! ```
//!
//! GGF's board is Outflank's: columns `A`–`H` left to right, rows `1`–`8` top to bottom.
//! `BO` gives the board size, the 64 squares row by row from `A1` (`*` Black, `O` White, `-`
//! empty, rows with or without spaces between them) and the side to move, so the standard
//! start above is [`Board::start`]. Moves are `B[..]` and `W[..]`, a square or `PA` (a pass),
//! each optionally followed by `/eval/time`, which are skipped.
//!
//! Reading is liberal: properties in any order, unknown ones ignored, moves in either case,
//! passes written `PA` or `pass` or left out where a side has no move, `BO` any position
//! (absent: the standard start). Only 8x8 Othello with the ordinary rules is read: `TY` must
//! be absent or `8`, optionally marked synchro (`s8`) or random start (`8r20`), neither of
//! which changes how one game is played; komi (`k`), anti-Othello (`a`) and other sizes are
//! refused. Every move is replayed and checked; errors name it by its ply number (1-based,
//! counting every pass, written or inserted) and its text, like [`Record`] errors.
//!
//! Writing gives upper-case squares, every pass as `PA`, and for a finished game
//! `RE[+n.000]`: Black's discs minus White's, with the empty squares going to the winner as
//! GGS and tournaments count them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::record::{BadMove, NonStandardStart};
use crate::{Bitboard, Board, Color, Game, Move, ParseRecordError, Record, Square};

/// Longest excerpt of the input quoted in an error, in characters.
const EXCERPT: usize = 40;

/// A GGF game: the game itself with the players, ratings, date, place, clock and result that
/// the file gives. Absent or empty properties are `None`.
///
/// ```
/// use outflank_engine::ggf::GgfGame;
///
/// let text = "(;GM[Othello]PB[ann]PW[bob]TY[8]BO[8 -------- -------- -------- ---O*--- \
///             ---*O--- -------- -------- -------- *]B[F5//0.02]W[f6/-1.50/3.1];)";
/// let ggf: GgfGame = text.parse().unwrap();
/// assert_eq!(ggf.black.as_deref(), Some("ann"));
/// assert_eq!(ggf.game.plies().len(), 2);
/// assert!(ggf.to_string().ends_with("B[F5]W[F6];)"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// `PB`: Black's name.
    pub black: Option<String>,
    /// `PW`: White's name.
    pub white: Option<String>,
    /// `RB`: Black's rating (a rating that is not a number is dropped).
    pub black_rating: Option<f64>,
    /// `RW`: White's rating.
    pub white_rating: Option<f64>,
    /// `DT`: the date as written, e.g. `2003.12.15_13:24:03.MST` or seconds since 1970.
    pub date: Option<String>,
    /// `PC`: where the game was played, e.g. `GGS/os`.
    pub place: Option<String>,
    /// `TI`: the time control as written, e.g. `05:00//02:00`.
    pub time_control: Option<String>,
    /// `RE`: the result as written, e.g. `+18.000`, `-64.000:r` (resigned), `?`. Writing a
    /// finished game gives its score instead, so this matters for unfinished games.
    pub result: Option<String>,
    /// The game, replayed and checked, from the `BO` position.
    pub game: Game,
}

/// Why a text is not a readable GGF Othello game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseGgfError {
    /// Nothing but blanks.
    #[error("the text holds no GGF game")]
    Empty,
    /// The text does not start with `(;`.
    #[error("a GGF game starts with \"(;\", but the text starts with {0:?}")]
    NotGgf(String),
    /// Something else than a property or the end of the game.
    #[error("character {at}: expected {expected}, found {found:?}")]
    Syntax { at: usize, expected: &'static str, found: String },
    /// The text stops inside the game.
    #[error("the text ends before {expected}")]
    Unterminated { expected: &'static str },
    /// `GM` names another game.
    #[error("GM[{0}] is not Othello")]
    NotOthello(String),
    /// `TY` is another board size or variant.
    #[error("TY[{0}] is not 8x8 Othello with the ordinary rules, the only kind that can be read")]
    Type(String),
    /// `BO` is not an 8x8 position.
    #[error("BO[{text}] {problem}")]
    Board { text: String, problem: BadBoard },
    /// A move cannot be read or played: its ply number, its text as written, and why.
    #[error("move {number} {text:?} {problem}")]
    Move { number: usize, text: String, problem: BadMove },
    /// A move is given to the side that is not to move.
    #[error("move {number} {text:?} is given to {given}, but {to_move} is to move")]
    Turn { number: usize, text: String, given: Color, to_move: Color },
    /// More text after the game (a file of several games is read with [`parse_games`]).
    #[error("the text goes on after the end of the game: {0:?}")]
    Trailing(String),
}

/// What is wrong with a `BO` property (see [`ParseGgfError::Board`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BadBoard {
    #[error("is for board size {0:?}; only 8x8 boards can be read")]
    Size(String),
    #[error("has {0} squares before the side to move; an 8x8 board has 64")]
    Squares(usize),
    #[error("holds {found:?} on {square}; expected *, O or -")]
    Square { square: Square, found: char },
    #[error("has no side to move after the squares; expected * or O")]
    MissingSide,
    #[error("gives {0:?} as the side to move; expected * or O")]
    Side(char),
}

/// A text that is neither a GGF game nor a record or move list (see [`parse_game_text`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameTextError {
    #[error(transparent)]
    Record(#[from] ParseRecordError),
    #[error(transparent)]
    Ggf(#[from] ParseGgfError),
}

/// Reads a game written either way: GGF when the text starts with `(;`, otherwise a
/// [`Record`] or a bare move list. For callers that accept both formats.
///
/// ```
/// use outflank_engine::ggf::parse_game_text;
///
/// let from_ggf = parse_game_text("(;GM[Othello]B[F5]W[F6];)").unwrap();
/// let from_list = parse_game_text("f5 f6").unwrap();
/// assert_eq!(from_ggf, from_list);
/// ```
///
/// # Errors
/// [`GameTextError::Ggf`] for a bad GGF game, [`GameTextError::Record`] for anything else
/// that is not a record or a move list.
pub fn parse_game_text(text: &str) -> Result<Game, GameTextError> {
    if text.trim_start().starts_with("(;") {
        Ok(text.parse::<GgfGame>()?.game)
    } else {
        Ok(text.parse::<Record>()?.into_game())
    }
}

/// Reads every game of a GGF file, such as the GGS game archives (one game after another,
/// blanks between them are free).
///
/// # Errors
/// The first game that cannot be read.
pub fn parse_games(text: &str) -> Result<Vec<GgfGame>, ParseGgfError> {
    let mut parser = Parser::new(text);
    let mut games = Vec::new();
    while !parser.at_end() {
        games.push(parser.game()?.0);
    }
    if games.is_empty() {
        return Err(ParseGgfError::Empty);
    }
    Ok(games)
}

impl GgfGame {
    /// The GGF game of `game`, with no players, date or place.
    pub fn new(game: Game) -> GgfGame {
        GgfGame {
            black: None,
            white: None,
            black_rating: None,
            white_rating: None,
            date: None,
            place: None,
            time_control: None,
            result: None,
            game,
        }
    }

    /// The game, to continue or undo in.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// The `RE` value written for the game: its score when it is over, else the `result` field.
    pub fn result_text(&self) -> Option<String> {
        match self.game.result() {
            Some(result) => {
                let (black, white) = (i32::from(result.black), i32::from(result.white));
                let empty = i32::from(result.empty);
                let margin = match black.cmp(&white) {
                    std::cmp::Ordering::Greater => black - white + empty,
                    std::cmp::Ordering::Less => black - white - empty,
                    std::cmp::Ordering::Equal => 0,
                };
                Some(format!("{margin:+}.000"))
            }
            None => self.result.clone(),
        }
    }
}

/// Reads one game and also says whether its last ply is a pass that was inserted because the
/// side had no move but not written (the NBoard session still waits for that pass).
pub(crate) fn parse_with_pending_pass(text: &str) -> Result<(GgfGame, bool), ParseGgfError> {
    let mut parser = Parser::new(text);
    if parser.at_end() {
        return Err(ParseGgfError::Empty);
    }
    let read = parser.game()?;
    if !parser.at_end() {
        return Err(ParseGgfError::Trailing(excerpt(parser.rest())));
    }
    Ok(read)
}

impl FromStr for GgfGame {
    type Err = ParseGgfError;

    /// Reads exactly one game (blanks around it are free), replaying and checking every move.
    ///
    /// # Errors
    /// [`ParseGgfError`]: the first problem found, syntax first, then the game's properties,
    /// then the moves in order.
    fn from_str(text: &str) -> Result<GgfGame, ParseGgfError> {
        parse_with_pending_pass(text).map(|(game, _)| game)
    }
}

impl From<Game> for GgfGame {
    fn from(game: Game) -> GgfGame {
        GgfGame::new(game)
    }
}

impl From<GgfGame> for Game {
    fn from(ggf: GgfGame) -> Game {
        ggf.game
    }
}

/// The same moves as a GGF game; how a game not over on the board ended is not carried.
impl From<Record> for GgfGame {
    fn from(record: Record) -> GgfGame {
        GgfGame::new(record.into_game())
    }
}

/// The same moves as a text record, for a game from the standard start.
impl TryFrom<GgfGame> for Record {
    type Error = NonStandardStart;

    fn try_from(ggf: GgfGame) -> Result<Record, NonStandardStart> {
        Record::new(ggf.game)
    }
}

/// One line of GGF in the order GGS writes it, every ply included.
impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        let texts = [
            ("PC", self.place.as_deref()),
            ("DT", self.date.as_deref()),
            ("PB", self.black.as_deref()),
            ("PW", self.white.as_deref()),
        ];
        for (name, value) in texts {
            if let Some(value) = value {
                write!(f, "{name}[{}]", Escaped(value))?;
            }
        }
        for (name, rating) in [("RB", self.black_rating), ("RW", self.white_rating)] {
            if let Some(rating) = rating.filter(|rating| rating.is_finite()) {
                write!(f, "{name}[{rating}]")?;
            }
        }
        if let Some(time) = &self.time_control {
            write!(f, "TI[{}]", Escaped(time))?;
        }
        f.write_str("TY[8]")?;
        if let Some(result) = self.result_text() {
            write!(f, "RE[{}]", Escaped(&result))?;
        }
        let start = self.game.start();
        f.write_str("BO[8 ")?;
        for square in Square::ALL {
            f.write_str(match start.at(square) {
                Some(Color::Black) => "*",
                Some(Color::White) => "O",
                None => "-",
            })?;
        }
        write!(f, " {}]", side_letter(start.side_to_move()))?;
        for (ply, mv) in self.game.plies().iter().enumerate() {
            let side = self.game.board_after(ply).map_or(Color::Black, |b| b.side_to_move());
            let tag = match side {
                Color::Black => 'B',
                Color::White => 'W',
            };
            write!(f, "{tag}[{}]", MoveText(*mv))?;
        }
        f.write_str(";)")
    }
}

/// `*` for Black, `O` for White, as `BO` writes the side to move.
fn side_letter(color: Color) -> char {
    match color {
        Color::Black => '*',
        Color::White => 'O',
    }
}

/// A move as GGF writes it: `F5` or `PA`.
pub(crate) struct MoveText(pub(crate) Move);

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Place(square) => {
                let column = (b'A' + square.column()) as char;
                write!(f, "{column}{}", square.row() + 1)
            }
            Move::Pass => f.write_str("PA"),
        }
    }
}

/// A property value with `]` and `\` escaped by a backslash, so that it reads back whole.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c == ']' || c == '\\' {
                f.write_str("\\")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// At most [`EXCERPT`] characters of `text`, with `…` if cut.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The properties of one game as read, before the moves are replayed.
#[derive(Default)]
struct Properties {
    black: Option<String>,
    white: Option<String>,
    black_rating: Option<f64>,
    white_rating: Option<f64>,
    date: Option<String>,
    place: Option<String>,
    time_control: Option<String>,
    result: Option<String>,
    /// `GM`, `TY` and `BO` as written, checked once the game is complete.
    game_name: Option<String>,
    kind: Option<String>,
    board: Option<String>,
    /// Each move with the colour it is given to and its value as written.
    moves: Vec<(Color, String)>,
}

/// Reads games from a text, one after another.
struct Parser<'a> {
    text: &'a str,
    /// Byte offset of the next character to read.
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser { text, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_blanks(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Whether only blanks are left.
    fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.rest().is_empty()
    }

    /// Takes `prefix` if the rest starts with it.
    fn eat(&mut self, prefix: &str) -> bool {
        let found = self.rest().starts_with(prefix);
        if found {
            self.pos += prefix.len();
        }
        found
    }

    /// A syntax error at the current position.
    fn unexpected(&self, expected: &'static str) -> ParseGgfError {
        if self.rest().is_empty() {
            return ParseGgfError::Unterminated { expected };
        }
        let at = self.text[..self.pos].chars().count() + 1;
        ParseGgfError::Syntax { at, expected, found: excerpt(self.rest()) }
    }

    /// One game from `(;` to `;)`, replayed; with whether its last pass was left unwritten.
    fn game(&mut self) -> Result<(GgfGame, bool), ParseGgfError> {
        self.skip_blanks();
        if !self.eat("(;") {
            return Err(ParseGgfError::NotGgf(excerpt(self.rest())));
        }
        let mut properties = Properties::default();
        loop {
            self.skip_blanks();
            // GGS closes with `;)`; a bare `)` is taken too.
            if self.eat(";)") || self.eat(")") {
                break;
            }
            let (name, value) = self.property()?;
            properties.set(&name, value);
        }
        properties.into_game()
    }

    /// `NAME[value]`, the value unescaped.
    fn property(&mut self) -> Result<(String, String), ParseGgfError> {
        let rest = self.rest();
        let name_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        if name_len == 0 {
            return Err(self.unexpected("a property such as PB[name], or \";)\""));
        }
        let name = rest[..name_len].to_ascii_uppercase();
        self.pos += name_len;
        self.skip_blanks();
        if !self.eat("[") {
            return Err(self.unexpected("\"[\" after the property name"));
        }
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        loop {
            let Some((offset, c)) = chars.next() else {
                self.pos = self.text.len();
                return Err(ParseGgfError::Unterminated {
                    expected: "the \"]\" closing a property",
                });
            };
            match c {
                ']' => {
                    self.pos += offset + 1;
                    return Ok((name, value));
                }
                '\\' => match chars.clone().next() {
                    Some((_, next @ (']' | '\\'))) => {
                        chars.next();
                        value.push(next);
                    }
                    _ => value.push('\\'),
                },
                c => value.push(c),
            }
        }
    }
}

/// A property value trimmed, or `None` if blank.
fn text_value(value: String) -> Option<String> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        None
    } else if trimmed.len() == value.len() {
        Some(value)
    } else {
        Some(trimmed.to_owned())
    }
}

impl Properties {
    /// Records one property; a repeated one replaces the earlier value, unknown ones are
    /// ignored.
    fn set(&mut self, name: &str, value: String) {
        match name {
            "PB" => self.black = text_value(value),
            "PW" => self.white = text_value(value),
            "RB" => self.black_rating = rating(&value),
            "RW" => self.white_rating = rating(&value),
            "DT" => self.date = text_value(value),
            "PC" => self.place = text_value(value),
            "TI" => self.time_control = text_value(value),
            "RE" => self.result = text_value(value),
            "BO" => self.board = Some(value),
            "GM" => self.game_name = Some(value),
            "TY" => self.kind = Some(value),
            "B" => self.moves.push((Color::Black, value)),
            "W" => self.moves.push((Color::White, value)),
            _ => {}
        }
    }

    /// Checks the kind of game and the board, then replays the moves.
    fn into_game(self) -> Result<(GgfGame, bool), ParseGgfError> {
        if let Some(name) = &self.game_name
            && !name.trim().eq_ignore_ascii_case("othello")
        {
            return Err(ParseGgfError::NotOthello(excerpt(name)));
        }
        if let Some(kind) = &self.kind
            && !is_plain_8x8(kind.trim())
        {
            return Err(ParseGgfError::Type(excerpt(kind)));
        }
        let start = match &self.board {
            Some(text) => read_board(text)?,
            None => Board::start(),
        };
        let (game, pending_pass) = replay(start, &self.moves)?;
        let ggf = GgfGame {
            black: self.black,
            white: self.white,
            black_rating: self.black_rating,
            white_rating: self.white_rating,
            date: self.date,
            place: self.place,
            time_control: self.time_control,
            result: self.result,
            game,
        };
        Ok((ggf, pending_pass))
    }
}

/// A rating, if the value is a finite number.
fn rating(value: &str) -> Option<f64> {
    value.trim().parse::<f64>().ok().filter(|rating| rating.is_finite())
}

/// Whether a `TY` value is 8x8 Othello with the ordinary rules: `8`, possibly synchro
/// (`s8`) or from a random start (`8r`, `8r20`).
fn is_plain_8x8(kind: &str) -> bool {
    let kind = kind.strip_prefix('s').unwrap_or(kind);
    match kind.strip_prefix('8') {
        Some("") => true,
        Some(rest) => {
            rest.strip_prefix('r').is_some_and(|count| count.bytes().all(|b| b.is_ascii_digit()))
        }
        None => false,
    }
}

/// The position of a `BO` value: the size, 64 squares (blanks between them free), the side.
fn read_board(text: &str) -> Result<Board, ParseGgfError> {
    let bad = |problem| ParseGgfError::Board { text: excerpt(text.trim()), problem };
    let trimmed = text.trim_start();
    let size_len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let (size, squares) = trimmed.split_at(size_len);
    if size != "8" {
        return Err(bad(BadBoard::Size(excerpt(size))));
    }
    let letters: Vec<char> = squares.chars().filter(|c| !c.is_whitespace()).collect();
    match letters.len() {
        64 => return Err(bad(BadBoard::MissingSide)),
        65 => {}
        // The last letter is taken for the side to move.
        count => return Err(bad(BadBoard::Squares(count.saturating_sub(1)))),
    }
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (square, &found) in Square::ALL.into_iter().zip(&letters) {
        match found {
            '*' | 'X' | 'x' => black = black.with(square),
            'O' | 'o' => white = white.with(square),
            '-' | '.' => {}
            found => return Err(bad(BadBoard::Square { square, found })),
        }
    }
    let side = match letters[64] {
        '*' | 'X' | 'x' | 'B' | 'b' => Color::Black,
        'O' | 'o' | 'W' | 'w' => Color::White,
        other => return Err(bad(BadBoard::Side(other))),
    };
    Ok(Board::from_discs(black, white, side).expect("each square holds one letter"))
}

/// A move value, `F5`, `f5/1.50/2.3` or `PA`: the move and its text without `/eval/time`.
pub(crate) fn read_move(value: &str) -> (Option<Move>, &str) {
    let text = value.split('/').next().unwrap_or("").trim();
    let mv = if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        Some(Move::Pass)
    } else {
        Square::from_ascii(text.as_bytes()).map(Move::Place)
    };
    (mv, text)
}

/// Replays the moves from `start`. A written pass right after one inserted automatically is
/// that pass; a square given to the other side where the side to move has no move gets the
/// pass inserted before it. Returns the game and whether its last ply is an inserted pass
/// that was not written.
fn replay(start: Board, moves: &[(Color, String)]) -> Result<(Game, bool), ParseGgfError> {
    let mut game = Game::new(start);
    // The side whose automatic pass a written pass may still confirm.
    let mut pending: Option<Color> = None;
    for (given, value) in moves {
        let given = *given;
        let (mv, text) = read_move(value);
        let number = game.plies().len() + 1;
        let fail = |number, problem| ParseGgfError::Move { number, text: text.to_owned(), problem };
        let Some(mv) = mv else {
            return Err(fail(number, BadMove::NotASquare));
        };
        // `take` clears it: a confirmation comes right after the pass or not at all.
        if mv == Move::Pass && pending.take() == Some(given) {
            continue;
        }
        if game.is_over() {
            return Err(fail(number, BadMove::AfterEnd));
        }
        if matches!(mv, Move::Place(_)) && given != game.side_to_move() && game.board().must_pass()
        {
            // Only a start position can leave the side to move without a move.
            game.play(Move::Pass).map_err(|error| fail(number, error.into()))?;
        }
        let number = game.plies().len() + 1;
        let to_move = game.side_to_move();
        if given != to_move {
            return Err(ParseGgfError::Turn { number, text: text.to_owned(), given, to_move });
        }
        let outcome = game.play(mv).map_err(|error| fail(number, error.into()))?;
        pending = outcome.forced_pass;
    }
    Ok((game, pending.is_some()))
}
