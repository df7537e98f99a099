//! Text records of games and bare move lists.
//!
//! A [`Record`] is written in the five-line form of the rules:
//!
//! ```text
//! Reversi game record, format 1
//! Coordinates: files a to h left to right, ranks 1 to 8 top to bottom
//! Start: White on d4 and e5, Black on d5 and e4, Black moves first
//! Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4
//! Result: Black 13, White 0
//! ```
//!
//! Moves are numbered in Black/White pairs and every pass is written `pass` in its slot. Each
//! line ends with a newline.
//!
//! A game played under a clock may say how, on a line between `Start:` and `Moves:`, as
//! players write a control (the record keeps the text; the platform reads it):
//!
//! ```text
//! Clock: 3+2
//! ```
//!
//! The `Result:` line gives the score of a game that is over on the board. A game that is not
//! over has `Result: unfinished`, unless the record carries a [`Conclusion`] saying how it
//! ended all the same:
//!
//! ```text
//! Result: Black wins, White resigned
//! Result: White wins on time
//! Result: draw agreed
//! Result: aborted
//! ```
//!
//! Reading accepts that form or a bare move list. Squares may be upper or lower case, with or
//! without spaces or commas between them (`d3 c5 f6`, `d3,c5,f6`, `D3C5F6`); move numbers such
//! as `1.` or `12...` are skipped; a pass is written `pass`, `pa` or `--` (any case) or left
//! out, since a side without a move passes automatically. In a full record the blank lines and
//! the spaces around lines are free, the moves may run over several lines, and the `Result:`
//! line may be left out. When present, in any case, it must be one of the forms above and
//! agree with the replayed game: the score if the moves finish the game, otherwise
//! `unfinished` or a conclusion, which the record then carries. Only games from the standard
//! start can be written or read.
//!
//! Errors name a move by its ply number, 1-based and counting every pass, written or
//! inserted: the same number the move has in the record, where move `n. x y` holds plies
//! `2n - 1` and `2n`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::game::Replay;
use crate::{Board, Color, Game, GameResult, IllegalMove, Move, Square};

const HEADER: &str = "Reversi game record, format 1";
const COORDINATES: &str = "Coordinates: files a to h left to right, ranks 1 to 8 top to bottom";
const START: &str = "Start: White on d4 and e5, Black on d5 and e4, Black moves first";
const UNFINISHED: &str = "unfinished";
const CLOCK: &str = "Clock: ";

/// How the first line of a text read as a full record (not a bare move list) may begin:
/// a record that lost its header line is then reported as such.
const RECORD_STARTS: [&str; 3] = ["Reversi", "Coordinates:", "Start:"];

/// Longest excerpt of the input quoted in an error, in characters.
const EXCERPT: usize = 80;

/// A game from the standard start, written and read as text, with how it ended if that was
/// not on the board (a [`Conclusion`]).
///
/// ```
/// use outflank_engine::Record;
///
/// let record: Record = "d3 c3 b3 d2 e1 d6 d7 e3 f4".parse().unwrap();
/// let result = record.game().result().unwrap();
/// assert_eq!((result.black, result.white), (13, 0));
/// assert!(record.to_string().contains("Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4\n"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    game: Game,
    /// How the game ended if not on the board; always `None` for a game that is over.
    conclusion: Option<Conclusion>,
    /// The `Clock:` line's text, trimmed: how the game was timed, if it was.
    clock: Option<Box<str>>,
}

/// How a game that is not over on the board ended, so that its record says so rather than
/// `unfinished`. Each is written on the `Result:` line as its [`Display`](fmt::Display) text.
///
/// ```
/// use outflank_engine::{Color, Conclusion};
///
/// let resigned = Conclusion::Resignation { winner: Color::Black };
/// assert_eq!(resigned.to_string(), "Black wins, White resigned");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conclusion {
    /// The other side resigned: `Black wins, White resigned`.
    Resignation { winner: Color },
    /// The other side ran out of time: `Black wins on time`.
    Timeout { winner: Color },
    /// Both players agreed a draw: `draw agreed`.
    DrawAgreed,
    /// The game was called off without a result: `aborted`.
    Aborted,
}

impl Conclusion {
    /// Every conclusion (a written one is recognised by its text among these).
    pub const ALL: [Conclusion; 6] = [
        Conclusion::Resignation { winner: Color::Black },
        Conclusion::Resignation { winner: Color::White },
        Conclusion::Timeout { winner: Color::Black },
        Conclusion::Timeout { winner: Color::White },
        Conclusion::DrawAgreed,
        Conclusion::Aborted,
    ];
}

/// The text of the `Result:` line, after `Result: `.
impl fmt::Display for Conclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Conclusion::Resignation { winner } => {
                write!(f, "{winner} wins, {} resigned", winner.opposite())
            }
            Conclusion::Timeout { winner } => write!(f, "{winner} wins on time"),
            Conclusion::DrawAgreed => f.write_str("draw agreed"),
            Conclusion::Aborted => f.write_str("aborted"),
        }
    }
}

/// A game that cannot be written as a record: it does not begin at the standard start.
/// The game is handed back.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("a record starts from the standard position, but this game starts from {}", .game.start())]
pub struct NonStandardStart {
    pub game: Game,
}

/// A conclusion given to a game that is over on the board: a finished game's result is its
/// score. The record is handed back unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "the game is over on the board with {:?}, so its result cannot be {:?}",
    ResultText(.record.game(), None).to_string(),
    .conclusion.to_string()
)]
pub struct AlreadyOver {
    pub record: Box<Record>,
    pub conclusion: Conclusion,
}

/// Why a text is not a readable record or move list.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseRecordError {
    /// Nothing but blanks, separators or move numbers.
    #[error("the text holds no record and no moves")]
    Empty,
    /// A line of a full record is not what the format puts there.
    #[error("line {line}: expected {expected}, found {found:?}")]
    Line { line: usize, expected: &'static str, found: String },
    /// A full record stops before one of its required lines.
    #[error("the record ends before {expected}")]
    Missing { expected: &'static str },
    /// The record starts from another position than the standard start.
    #[error("only games from the standard start can be read, but the record says {0:?}")]
    Start(String),
    /// A move cannot be read or played: its ply number, its text as written, and why.
    #[error("move {number} {text:?} {problem}")]
    Move { number: usize, text: String, problem: BadMove },
    /// The `Result:` line disagrees with the replayed game.
    #[error("the Result line says {written:?} but the moves give {actual:?}")]
    Result { written: String, actual: String },
    /// The `Result:` line is none of the forms a record writes, whatever the moves.
    #[error(
        "the Result line says {0:?}, which is not a score, \"unfinished\", a win by resignation \
         or on time, \"draw agreed\" or \"aborted\""
    )]
    UnknownResult(String),
}

/// What is wrong with a move of a record (see [`ParseRecordError::Move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BadMove {
    #[error("is not a square")]
    NotASquare,
    #[error("is not legal for {0}")]
    NotLegal(Color),
    #[error("is a pass, but {0} has a legal move")]
    PassWithMoves(Color),
    #[error("comes after the end of the game")]
    AfterEnd,
}

impl From<IllegalMove> for BadMove {
    fn from(error: IllegalMove) -> BadMove {
        match error {
            IllegalMove::NotLegal { side, .. } => BadMove::NotLegal(side),
            IllegalMove::PassWithMoves { side } => BadMove::PassWithMoves(side),
            IllegalMove::GameOver => BadMove::AfterEnd,
        }
    }
}

impl Record {
    /// The record of `game`.
    ///
    /// # Errors
    /// [`NonStandardStart`], holding the game, if it does not begin at [`Board::start`].
    pub fn new(game: Game) -> Result<Record, NonStandardStart> {
        if game.start() == Board::start() {
            Ok(Record { game, conclusion: None, clock: None })
        } else {
            Err(NonStandardStart { game })
        }
    }

    /// The record of a game that is not over on the board but ended as `conclusion`; it
    /// replaces any conclusion the record had.
    ///
    /// ```
    /// use outflank_engine::{Color, Conclusion, Game, Record};
    ///
    /// let timeout = Conclusion::Timeout { winner: Color::White };
    /// let record = Record::new(Game::default()).unwrap().with_conclusion(timeout).unwrap();
    /// assert_eq!(record.conclusion(), Some(timeout));
    /// assert!(record.to_string().ends_with("Result: White wins on time\n"));
    /// ```
    ///
    /// # Errors
    /// [`AlreadyOver`], holding the record, if the game is over on the board.
    pub fn with_conclusion(self, conclusion: Conclusion) -> Result<Record, AlreadyOver> {
        if self.game.is_over() {
            Err(AlreadyOver { record: Box::new(self), conclusion })
        } else {
            Ok(Record { conclusion: Some(conclusion), ..self })
        }
    }

    /// The record of a game timed as `clock` says (`3+2`, `30s`, `2d`), written on a
    /// `Clock:` line; blank text (or text over one line) writes none.
    ///
    /// ```
    /// use outflank_engine::{Game, Record};
    ///
    /// let record = Record::new(Game::default()).unwrap().with_clock("3+2");
    /// assert!(record.to_string().contains("Clock: 3+2\nMoves:"));
    /// assert_eq!(record.to_string().parse::<Record>().unwrap().clock(), Some("3+2"));
    /// ```
    #[must_use]
    pub fn with_clock(self, clock: &str) -> Record {
        let clock = clock.trim();
        let clock = (!clock.is_empty() && !clock.contains(['\n', '\r'])).then(|| clock.into());
        Record { clock, ..self }
    }

    /// How the game was timed, as its `Clock:` line says, if it has one.
    pub fn clock(&self) -> Option<&str> {
        self.clock.as_deref()
    }

    /// How the game ended if it is not over on the board, or `None` if it is over or still
    /// unfinished.
    pub fn conclusion(&self) -> Option<Conclusion> {
        self.conclusion
    }

    /// The game, replayed and checked.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, to continue or to undo in; the conclusion is dropped.
    pub fn into_game(self) -> Game {
        self.game
    }
}

impl From<Record> for Game {
    fn from(record: Record) -> Game {
        record.game
    }
}

impl TryFrom<Game> for Record {
    type Error = NonStandardStart;

    fn try_from(game: Game) -> Result<Record, NonStandardStart> {
        Record::new(game)
    }
}

/// The five lines of the rules, each ending with a newline.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{HEADER}")?;
        writeln!(f, "{COORDINATES}")?;
        writeln!(f, "{START}")?;
        if let Some(clock) = &self.clock {
            writeln!(f, "{CLOCK}{clock}")?;
        }
        f.write_str("Moves:")?;
        // From the standard start Black plays the odd plies, so every pair opens with Black.
        for (index, mv) in self.game.plies().iter().enumerate() {
            if index % 2 == 0 {
                write!(f, " {}.", index / 2 + 1)?;
            }
            write!(f, " {mv}")?;
        }
        writeln!(f)?;
        writeln!(f, "Result: {}", ResultText(&self.game, self.conclusion))
    }
}

/// `Black 13, White 0` for a finished game; for another, the conclusion or `unfinished`.
struct ResultText<'a>(&'a Game, Option<Conclusion>);

impl fmt::Display for ResultText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.result(), self.1) {
            (Some(GameResult { black, white, .. }), _) => write!(f, "Black {black}, White {white}"),
            (None, Some(conclusion)) => conclusion.fmt(f),
            (None, None) => f.write_str(UNFINISHED),
        }
    }
}

impl FromStr for Record {
    type Err = ParseRecordError;

    /// Reads a full record or a bare move list, replaying and checking every move.
    ///
    /// # Errors
    /// [`ParseRecordError`]: the first problem found, in reading order (lines of the record,
    /// then moves, then the `Result:` line).
    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let first = text.lines().map(str::trim).find(|line| !line.is_empty());
        match first {
            None => Err(ParseRecordError::Empty),
            Some(line) if RECORD_STARTS.iter().any(|start| line.starts_with(start)) => {
                parse_full(text)
            }
            Some(_) => parse_bare(text),
        }
    }
}

/// A bare move list, possibly introduced by `Moves:`.
fn parse_bare(text: &str) -> Result<Record, ParseRecordError> {
    let text = text.trim_start();
    let text = text.strip_prefix("Moves:").unwrap_or(text);
    let mut replay = Replay::new(Board::start());
    if play_list(&mut replay, text)? == 0 {
        return Err(ParseRecordError::Empty);
    }
    Ok(Record { game: replay.into_game(), conclusion: None, clock: None })
}

/// The five-line record: header lines, moves (possibly over several lines), optional result.
fn parse_full(text: &str) -> Result<Record, ParseRecordError> {
    // Physical line numbers (1-based) of the non-blank lines, trimmed.
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty());

    let mut expect_line = |expected: &'static str, ok: &dyn Fn(&str) -> bool| match lines.next() {
        Some((_, line)) if ok(line) => Ok(line),
        Some((line, found)) => {
            Err(ParseRecordError::Line { line, expected, found: excerpt(found, EXCERPT) })
        }
        None => Err(ParseRecordError::Missing { expected }),
    };
    expect_line("the line \"Reversi game record, format 1\"", &|line| line == HEADER)?;
    let coordinates =
        "the line \"Coordinates: files a to h left to right, ranks 1 to 8 top to bottom\"";
    expect_line(coordinates, &|line| line == COORDINATES)?;
    let start = expect_line("a line starting \"Start:\"", &|line| line.starts_with("Start:"))?;
    if start != START {
        return Err(ParseRecordError::Start(excerpt(start, EXCERPT)));
    }
    let mut clock = None;
    // The optional `Clock:` line stands where `Moves:` is otherwise expected.
    let moves = expect_line("a line starting \"Moves:\"", &|line| {
        line.starts_with("Clock:") || line.starts_with("Moves:")
    })?;
    let moves = match moves.strip_prefix("Clock:") {
        Some(text) => {
            clock = Some(text.trim()).filter(|text| !text.is_empty()).map(Box::from);
            expect_line("a line starting \"Moves:\"", &|line| line.starts_with("Moves:"))?
        }
        None => moves,
    };

    // Moves are played line by line as they come, so a long text is never held in pieces.
    let mut replay = Replay::new(Board::start());
    play_list(&mut replay, moves.strip_prefix("Moves:").unwrap_or(moves))?;
    let mut written_result = None;
    for (number, line) in lines {
        if written_result.is_some() {
            let found = excerpt(line, EXCERPT);
            let expected = "the end of the record";
            return Err(ParseRecordError::Line { line: number, expected, found });
        }
        match line.strip_prefix("Result:") {
            Some(result) => written_result = Some(result),
            None => {
                play_list(&mut replay, line)?;
            }
        }
    }
    let game = replay.into_game();
    let conclusion = match written_result {
        Some(written) => check_result(&game, written)?,
        None => None,
    };
    Ok(Record { game, conclusion, clock })
}

/// What a `Result:` line says, before it is checked against the moves.
enum WrittenResult {
    /// `Black 13, White 0`, with any counts.
    Score,
    Unfinished,
    Concluded(Conclusion),
}

/// Checks the text of a `Result:` line against the replayed game; returns the conclusion it
/// gives, if any.
fn check_result(game: &Game, written: &str) -> Result<Option<Conclusion>, ParseRecordError> {
    let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = read_result(&written)
        .ok_or_else(|| ParseRecordError::UnknownResult(excerpt(&written, EXCERPT)))?;
    let actual = ResultText(game, None).to_string();
    match (game.is_over(), said) {
        (true, WrittenResult::Score) if written.eq_ignore_ascii_case(&actual) => Ok(None),
        (false, WrittenResult::Unfinished) => Ok(None),
        (false, WrittenResult::Concluded(conclusion)) => Ok(Some(conclusion)),
        _ => Err(ParseRecordError::Result { written: excerpt(&written, EXCERPT), actual }),
    }
}

/// Recognises the text of a `Result:` line, spaces already collapsed, in any case.
fn read_result(written: &str) -> Option<WrittenResult> {
    if written.eq_ignore_ascii_case(UNFINISHED) {
        return Some(WrittenResult::Unfinished);
    }
    if let Some(&conclusion) = Conclusion::ALL
        .iter()
        .find(|conclusion| written.eq_ignore_ascii_case(&conclusion.to_string()))
    {
        return Some(WrittenResult::Concluded(conclusion));
    }
    is_score(written).then_some(WrittenResult::Score)
}

/// Whether `text` has the form `Black 13, White 0`, with any counts, in any case.
fn is_score(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let counts = lower.strip_prefix("black ").and_then(|rest| rest.split_once(", white "));
    let is_count = |count: &str| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
    counts.is_some_and(|(black, white)| is_count(black) && is_count(white))
}

/// Plays the moves of `text`; returns how many were listed.
fn play_list(replay: &mut Replay, text: &str) -> Result<usize, ParseRecordError> {
    let mut listed = 0;
    for token in Tokens::new(text) {
        play_token(replay, token)?;
        listed += 1;
    }
    Ok(listed)
}

/// Plays one token of a move list, or says why it cannot be played.
fn play_token(replay: &mut Replay, token: Token<'_>) -> Result<(), ParseRecordError> {
    let (mv, text) = match token {
        Token::Square(square, text) => (Move::Place(square), text),
        Token::Pass(text) => (Move::Pass, text),
        Token::Unreadable(text) => {
            return Err(ParseRecordError::Move {
                number: replay.next_number(),
                text: excerpt(text, EXCERPT),
                problem: BadMove::NotASquare,
            });
        }
    };
    replay.push(mv).map_err(|(number, error)| ParseRecordError::Move {
        number,
        text: text.to_owned(),
        problem: error.into(),
    })
}

/// At most `limit` characters of `text`, with `…` if cut.
fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// One item of a move list, with its text as written.
#[derive(Debug)]
enum Token<'a> {
    Square(Square, &'a str),
    Pass(&'a str),
    Unreadable(&'a str),
}

/// Splits a move list into squares and passes, skipping separators and move numbers.
struct Tokens<'a> {
    rest: &'a str,
}

/// Words read as a pass, longest first so that `pass` is not read as `pa` + `ss`.
const PASS_WORDS: [&str; 3] = ["pass", "pa", "--"];

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == ';'
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens { rest: text }
    }

    /// Takes the first `len` bytes (an ASCII prefix, so a character boundary) of the rest.
    fn take(&mut self, len: usize) -> &'a str {
        let (taken, rest) = self.rest.split_at(len);
        self.rest = rest;
        taken
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            self.rest = self.rest.trim_start_matches(is_separator);
            let bytes = self.rest.as_bytes();
            let first = *bytes.first()?;
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 {
                let dots = bytes[digits..].iter().take_while(|&&b| b == b'.').count();
                if dots == 0 {
                    return Some(Token::Unreadable(self.take(digits)));
                }
                self.take(digits + dots);
                continue;
            }
            if let Some(square) = bytes.get(..2).and_then(Square::from_ascii) {
                return Some(Token::Square(square, self.take(2)));
            }
            if let Some(word) = PASS_WORDS.iter().find(|word| {
                bytes
                    .get(..word.len())
                    .is_some_and(|start| start.eq_ignore_ascii_case(word.as_bytes()))
            }) {
                return Some(Token::Pass(self.take(word.len())));
            }
            if first.is_ascii_alphabetic() && bytes.get(1).is_some_and(u8::is_ascii_digit) {
                // A letter and a number off the board, such as `h9` or `i10`.
                let len = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                return Some(Token::Unreadable(self.take(len)));
            }
            let end = self.rest.find(is_separator).unwrap_or(self.rest.len());
            return Some(Token::Unreadable(self.take(end)));
        }
    }
}
