//! The NBoard protocol, which the NBoard GUI (and other Othello GUIs) use to drive an engine
//! over its standard input and output, one command a line.
//!
//! [`Session`] is the engine's side as a pure state machine: [`Session::handle`] takes one
//! line from the GUI and returns the lines to answer, so the protocol can be tested without
//! a process; `outflank-engine nboard` wraps it in a stdin/stdout loop.
//!
//! | command from the GUI | answer |
//! |---|---|
//! | `nboard 2` | `set myname Outflank` |
//! | `set depth 12` | none; the depth bounds the search ([`limits_for_depth`]) |
//! | `set game (;GM[Othello]…;)` | none; the position at the end of the [GGF](crate::ggf) game |
//! | `set contempt 0` | none (accepted, not used: draws score 0) |
//! | `move F5/1.00/2.5` (or bare `F5`, `move PA`) | none; the move is played |
//! | `go` | `=== F5/0.35/1.20`: the move, its eval in discs for the mover, seconds; `=== PA` for a pass |
//! | `hint 3` | `search F5 0.35 0 12` for the best 3 moves (depth `100%` when exact), then `status` |
//! | `analyze` | `analysis 12 -1.50` for each position, last first, eval for its mover, then `status` |
//! | `ping 7` | `pong 7` |
//! | `learn` | `learned` (Outflank keeps no opening book) |
//! | `quit` | none; [`Session::is_finished`] turns true |
//!
//! Unknown commands are ignored, as the protocol asks; a known command with a bad argument,
//! an unreadable game or an illegal move gets a `status` line saying so, and the position is
//! left as it was. No input makes the session panic.
//!
//! NBoard lists passes as moves of their own and asks the side without a move to `go`; the
//! session answers `=== PA` and takes the `move PA` that follows as the pass that the
//! [`Game`] already inserted.

use std::fmt;
use std::time::Duration;

use crate::ai::{Choice, Search, SearchLimits};
use crate::ggf::{self, MoveText};
use crate::parallel::run_each;
use crate::{Board, Game, Move, Square};

/// The name the engine gives itself (`set myname`); one word, as NBoard reads it.
pub const ENGINE_NAME: &str = "Outflank";

/// The protocol version this session speaks.
pub const PROTOCOL_VERSION: u32 = 2;

/// The depth searched until the GUI sets one.
pub const DEFAULT_DEPTH: u32 = 12;

/// Exact endgames start at most this many empties before the end, whatever the depth.
const MAX_EXACT_EMPTIES: u32 = 24;

/// The search bounds for an NBoard depth (clamped to 1–60): iterative deepening to `depth`
/// plies within a node budget that grows with the depth (at most 8M nodes, about two seconds
/// on this project's machine), and the exact endgame from `depth + 8` empties (at most 24)
/// within 32M solver nodes, so that one move stays within a few seconds.
///
/// ```
/// use outflank_engine::nboard::limits_for_depth;
///
/// let limits = limits_for_depth(12);
/// assert_eq!((limits.max_depth, limits.exact_empties), (12, 20));
/// ```
pub fn limits_for_depth(depth: u32) -> SearchLimits {
    let depth = depth.clamp(1, 60);
    SearchLimits {
        max_depth: depth,
        node_budget: (u64::from(depth) * 400_000).clamp(200_000, 8_000_000),
        exact_empties: (depth + 8).min(MAX_EXACT_EMPTIES),
        exact_node_limit: 32_000_000,
    }
}

/// The bounds for each of `moves` searched moves of a hint: one ply less, and the budgets
/// shared among them so that a hint costs about one move.
fn hint_limits(depth: u32, moves: u32) -> SearchLimits {
    let whole = limits_for_depth(depth);
    let moves = u64::from(moves.max(1));
    SearchLimits {
        max_depth: whole.max_depth.saturating_sub(1).max(1),
        node_budget: (whole.node_budget / moves).max(50_000),
        exact_empties: whole.exact_empties,
        exact_node_limit: (whole.exact_node_limit / moves).max(1_000_000),
    }
}

/// The bounds for each position of an analysis, which may hold sixty of them.
fn analysis_limits(depth: u32) -> SearchLimits {
    let whole = limits_for_depth(depth);
    SearchLimits {
        max_depth: whole.max_depth.min(10),
        node_budget: (whole.node_budget / 8).max(50_000),
        exact_empties: whole.exact_empties.min(18),
        exact_node_limit: 2_000_000,
    }
}

/// What an evaluation rests on: a search to some depth, or an exact solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Depth {
    Plies(u32),
    Exact,
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Plies(plies) => write!(f, "{plies}"),
            // NBoard reads `100%` as a proven result.
            Depth::Exact => f.write_str("100%"),
        }
    }
}

/// A score in 1/100 disc, written in discs with two decimals.
struct Discs(i32);

impl fmt::Display for Discs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2}", f64::from(self.0) / 100.0)
    }
}

/// The engine's side of one NBoard connection: the current game and the settings.
pub struct Session {
    game: Game,
    /// The last ply is a pass the game inserted because the side had no move, which the GUI
    /// has not played yet: to the GUI that side is still to move.
    pending_pass: bool,
    depth: u32,
    contempt: i32,
    finished: bool,
    /// Threads a hint's moves and an analysis's positions are shared among.
    threads: usize,
    /// Time since some fixed instant, to report how long a move took; `None`: always zero.
    clock: Option<Box<dyn FnMut() -> Duration>>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.game)
            .field("pending_pass", &self.pending_pass)
            .field("depth", &self.depth)
            .field("contempt", &self.contempt)
            .field("finished", &self.finished)
            .field("threads", &self.threads)
            .field("clock", &self.clock.is_some())
            .finish()
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session at the standard start, depth [`DEFAULT_DEPTH`], on one thread, that reports
    /// every move as taking 0 seconds (the library reads no clock).
    pub fn new() -> Session {
        Session {
            game: Game::default(),
            pending_pass: false,
            depth: DEFAULT_DEPTH,
            contempt: 0,
            finished: false,
            threads: 1,
            clock: None,
        }
    }

    /// The session with a hint's moves and an analysis's positions shared among `threads`
    /// threads (at least one). Each is still searched on one thread within the same budget, so
    /// the answers are the same for any number; `go` searches on one thread.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Session {
        Session { threads: threads.max(1), ..self }
    }

    /// A session that times its moves with `clock`, the time elapsed since any fixed instant
    /// (e.g. `move || started.elapsed()` for a [`std::time::Instant`]).
    pub fn with_clock(clock: impl FnMut() -> Duration + 'static) -> Session {
        Session { clock: Some(Box::new(clock)), ..Session::new() }
    }

    /// The game the GUI's commands relate to. A pass the GUI has still to play is already in
    /// it (see the [module](self) notes).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The search depth set by the GUI.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The contempt set by the GUI, in 1/100 disc.
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Whether the GUI said `quit`; later lines are ignored.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Handles one line from the GUI; returns the lines to send back, in order, each without
    /// its newline.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        if self.finished {
            return Vec::new();
        }
        let line = line.trim();
        let (command, rest) = split_word(line);
        match command.to_ascii_lowercase().as_str() {
            "nboard" => self.hello(rest),
            "set" => self.set(rest),
            "move" => self.play_text(rest),
            "go" => self.go(),
            "hint" => self.hint(rest),
            "analyze" => self.analyze(),
            "ping" => match rest.parse::<i64>() {
                Ok(number) => vec![format!("pong {number}")],
                Err(_) => status(format!("ping needs a number, not {:?}", excerpt(rest))),
            },
            "learn" => vec!["learned".to_owned()],
            "quit" => {
                self.finished = true;
                Vec::new()
            }
            // Protocol 1 sent a move without the word `move`.
            _ if rest.is_empty() && ggf::read_move(command).0.is_some() => self.play_text(command),
            _ => Vec::new(),
        }
    }

    fn hello(&mut self, version: &str) -> Vec<String> {
        let mut lines = vec![format!("set myname {ENGINE_NAME}")];
        if version.parse::<u32>() != Ok(PROTOCOL_VERSION) {
            lines.extend(status(format!(
                "{ENGINE_NAME} speaks NBoard protocol {PROTOCOL_VERSION}, not {:?}",
                excerpt(version)
            )));
        }
        lines
    }

    fn set(&mut self, rest: &str) -> Vec<String> {
        let (name, value) = split_word(rest);
        match name.to_ascii_lowercase().as_str() {
            "depth" => match value.parse::<u32>() {
                Ok(depth) => {
                    self.depth = depth.clamp(1, 60);
                    Vec::new()
                }
                Err(_) => {
                    status(format!("set depth needs a number of plies, not {:?}", excerpt(value)))
                }
            },
            "game" => match ggf::parse_with_pending_pass(value) {
                Ok((ggf, pending)) => {
                    self.game = ggf.game;
                    self.pending_pass = pending;
                    Vec::new()
                }
                Err(error) => status(format!("cannot read the game, kept the last one: {error}")),
            },
            "contempt" => match value.parse::<f64>() {
                Ok(contempt) if contempt.is_finite() && contempt.abs() <= 6_400.0 => {
                    self.contempt = contempt.round() as i32;
                    Vec::new()
                }
                _ => status(format!("set contempt needs a number, not {:?}", excerpt(value))),
            },
            // Other settings (time, …) are not used.
            _ => Vec::new(),
        }
    }

    /// The side the GUI sees to move has no move (it must pass).
    fn gui_side_must_pass(&self) -> bool {
        self.pending_pass || self.game.board().must_pass()
    }

    /// Plays a move given as `F5`, `f5/1.00/2.5` or `PA`.
    fn play_text(&mut self, text: &str) -> Vec<String> {
        let (mv, written) = ggf::read_move(text);
        let Some(mv) = mv else {
            return status(format!("{:?} is not a move; expected e.g. F5 or PA", excerpt(text)));
        };
        let result = match mv {
            Move::Pass if self.pending_pass => {
                self.pending_pass = false;
                Ok(())
            }
            Move::Pass => self.game.play(Move::Pass).map(|_| ()),
            Move::Place(_) => {
                self.pending_pass = false;
                let board = self.game.board();
                let passed =
                    if board.must_pass() { self.game.play(Move::Pass).map(|_| ()) } else { Ok(()) };
                passed.and_then(|()| self.game.play(mv)).map(|outcome| {
                    self.pending_pass = outcome.forced_pass.is_some();
                })
            }
        };
        match result {
            Ok(()) => Vec::new(),
            Err(error) => status(format!("cannot play {written}: {error}")),
        }
    }

    fn now(&mut self) -> Duration {
        self.clock.as_mut().map_or(Duration::ZERO, |clock| clock())
    }

    fn go(&mut self) -> Vec<String> {
        if self.game.is_over() {
            return status("the game is over; there is no move to make".to_owned());
        }
        if self.gui_side_must_pass() {
            return vec!["=== PA".to_owned()];
        }
        let started = self.now();
        let board = self.game.board();
        let Some(choice) = search(&board, limits_for_depth(self.depth)) else {
            return status("the game is over; there is no move to make".to_owned());
        };
        let seconds = self.now().saturating_sub(started).as_secs_f64();
        vec![format!("=== {}/{}/{seconds:.2}", MoveText(choice.mv), Discs(choice.score))]
    }

    fn hint(&mut self, rest: &str) -> Vec<String> {
        let wanted = match rest {
            "" => 1,
            text => match text.parse::<u64>() {
                Ok(count) => count.clamp(1, 64) as usize,
                Err(_) => {
                    return status(format!(
                        "hint needs a number of moves, not {:?}",
                        excerpt(text)
                    ));
                }
            },
        };
        if self.game.is_over() {
            return status("the game is over; there is nothing to hint".to_owned());
        }
        let board = self.game.board();
        let mut hints: Vec<(Move, i32, Depth)> = if self.gui_side_must_pass() {
            // The GUI's side passes: its value is the opponent's, turned round.
            let after = if self.pending_pass { board } else { board.pass_unchecked() };
            let (score, depth) = value_after(&after, false, hint_limits(self.depth, 1));
            vec![(Move::Pass, score, depth)]
        } else {
            let moves: Vec<Square> = board.legal_moves().into_iter().collect();
            let limits = hint_limits(self.depth, moves.len() as u32);
            let valued = run_each(
                &moves,
                self.threads,
                |&square| value_after(&board.play_unchecked(square), true, limits),
                |_| false,
                &mut |_| {},
            );
            moves
                .iter()
                .zip(valued)
                .filter_map(|(&square, value)| {
                    value.map(|(score, depth)| (Move::Place(square), score, depth))
                })
                .collect()
        };
        // Best first; equal scores in square order, so the answer is reproducible.
        hints.sort_by_key(|&(mv, score, _)| (-score, square_order(mv)));
        let mut lines: Vec<String> = hints
            .iter()
            .take(wanted)
            .map(|&(mv, score, depth)| {
                format!("search {} {} 0 {depth}", MoveText(mv), Discs(score))
            })
            .collect();
        lines.push("status".to_owned());
        lines
    }

    /// `analysis <plies> <eval>` for every position of the game, the last first.
    fn analyze(&mut self) -> Vec<String> {
        let limits = analysis_limits(self.depth);
        // A pass the GUI has not played yet is not part of its game.
        let last = self.game.plies().len() - usize::from(self.pending_pass);
        let positions: Vec<(usize, Board)> = (0..=last)
            .rev()
            .filter_map(|ply| self.game.board_after(ply).map(|board| (ply, board)))
            .collect();
        let scores = run_each(
            &positions,
            self.threads,
            |(_, board)| position_value(board, limits).0,
            |_| false,
            &mut |_| {},
        );
        let mut lines: Vec<String> = positions
            .iter()
            .zip(scores)
            .filter_map(|(&(ply, _), score)| {
                score.map(|score| format!("analysis {ply} {}", Discs(score)))
            })
            .collect();
        lines.push("status".to_owned());
        lines
    }
}

/// The first word of `text` and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

/// One `status` line; control characters quoted from the input become spaces, so that the
/// answer stays one line.
fn status(text: String) -> Vec<String> {
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    vec![format!("status {text}")]
}

/// At most 40 characters of `text`, for quoting bad input.
fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Orders a pass before the squares, squares from `A1`.
fn square_order(mv: Move) -> i32 {
    match mv {
        Move::Pass => -1,
        Move::Place(square) => square.index() as i32,
    }
}

/// The search's choice for the side to move, or `None` if the game is over.
fn search(board: &Board, limits: SearchLimits) -> Option<Choice> {
    Search::new(limits).run(board, None).ok()
}

/// The final disc difference for the side to move, in 1/100 disc.
fn final_margin(board: &Board) -> i32 {
    (board.player().count() as i32 - board.opponent().count() as i32) * 100
}

/// The value of `board` for its side to move, and what it rests on.
fn position_value(board: &Board, limits: SearchLimits) -> (i32, Depth) {
    if board.is_game_over() {
        return (final_margin(board), Depth::Exact);
    }
    if board.must_pass() {
        let (score, depth) = position_value(&board.pass_unchecked(), limits);
        return (-score, depth);
    }
    match search(board, limits) {
        Some(choice) if choice.exact => (choice.score, Depth::Exact),
        Some(choice) => (choice.score, Depth::Plies(choice.depth)),
        None => (final_margin(board), Depth::Exact),
    }
}

/// The value of the position after a move, for the side that played it (`moved`: one ply was
/// played to get there, which counts in the depth).
fn value_after(after: &Board, moved: bool, limits: SearchLimits) -> (i32, Depth) {
    let (score, depth) = position_value(after, limits);
    let depth = match depth {
        Depth::Plies(plies) => Depth::Plies(plies + u32::from(moved)),
        Depth::Exact => Depth::Exact,
    };
    (-score, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    const START_BO: &str = "8 ---------------------------O*------*O--------------------------- *";

    /// What NBoard sends for the game after `moves` (GGF `B[..]W[..]` items).
    fn set_game(moves: &str) -> String {
        format!(
            "set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[Outflank]PW[chris]\
             RE[?]TI[15:00]TY[8]BO[{START_BO}]{moves};)"
        )
    }

    fn none() -> Vec<String> {
        Vec::new()
    }

    /// The move of a `=== F5/0.35/0.00` or `search F5 …` answer.
    fn move_of(text: &str) -> Move {
        ggf::read_move(text).0.unwrap_or_else(|| panic!("{text:?} holds no move"))
    }

    #[test]
    fn a_scripted_session_gets_the_expected_answers() {
        let mut session = Session::new();
        assert_eq!(session.handle("nboard 2"), ["set myname Outflank"]);
        assert_eq!(session.handle("set depth 4"), none());
        assert_eq!(session.handle("set contempt 0"), none());
        assert_eq!(session.handle(&set_game("B[F5]W[F6]B[E6]W[F4]")), none());
        assert_eq!(session.game().plies().len(), 4);

        // `go` answers the search's move, its eval in discs and the (unclocked) time.
        let board = session.game().board();
        let choice = Search::new(limits_for_depth(4)).run(&board, None).unwrap();
        let Move::Place(square) = choice.mv else { panic!("Black has moves") };
        let expected = format!("=== {}/{}/0.00", MoveText(choice.mv), Discs(choice.score));
        assert_eq!(session.handle("go"), std::slice::from_ref(&expected));
        assert!(board.is_legal(square));
        // `go` does not play the move: the GUI sends it back.
        assert_eq!(session.game().plies().len(), 4);
        let played = expected.trim_start_matches("=== ");
        assert_eq!(session.handle(&format!("move {played}")), none());
        assert_eq!(session.game().plies().len(), 5);

        assert_eq!(session.handle("ping 7"), ["pong 7"]);

        let hints = session.handle("hint 3");
        assert_eq!(hints.len(), 4, "{hints:?}");
        assert_eq!(hints[3], "status");
        let board = session.game().board();
        let mut evals = Vec::new();
        for hint in &hints[..3] {
            let words: Vec<&str> = hint.split(' ').collect();
            assert_eq!(words.len(), 5, "{hint}");
            assert_eq!((words[0], words[3]), ("search", "0"), "{hint}");
            let Move::Place(square) = move_of(words[1]) else { panic!("{hint}") };
            assert!(board.is_legal(square), "{hint}");
            evals.push(words[2].parse::<f64>().unwrap());
            assert!(words[4] == "100%" || words[4].parse::<u32>().is_ok(), "{hint}");
        }
        assert!(evals.windows(2).all(|pair| pair[0] >= pair[1]), "best first: {hints:?}");
        let mut moves: Vec<&str> = hints[..3].iter().map(|h| &h[7..9]).collect();
        moves.dedup();
        assert_eq!(moves.len(), 3, "three different moves: {hints:?}");
        // The same position and depth give the same hints, as the search counts nodes.
        let mut again = Session::new();
        again.handle("set depth 4");
        again.handle(&set_game(&format!("B[F5]W[F6]B[E6]W[F4]B[{}]", &played[..2])));
        assert_eq!(again.handle("hint 3"), hints);

        assert_eq!(session.handle("learn"), ["learned"]);
        assert_eq!(session.handle("quit"), none());
        assert!(session.is_finished());
        assert_eq!(session.handle("ping 8"), none());
    }

    #[test]
    fn hints_and_analyses_shared_among_threads_are_the_answers_of_one() {
        let script = [
            "nboard 2",
            "set depth 6",
            &set_game("B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[G5]"),
            "hint 20",
            "analyze",
        ];
        let answers = |mut session: Session| -> Vec<Vec<String>> {
            script.iter().map(|line| session.handle(line)).collect()
        };
        let one = answers(Session::new());
        assert_eq!(one[3].len(), 1 + 11, "every legal move hinted: {:?}", one[3]);
        assert_eq!(one[4].len(), 1 + 9, "every position analysed: {:?}", one[4]);
        assert_eq!(answers(Session::new().with_threads(3)), one);
    }

    #[test]
    fn the_time_comes_from_the_clock() {
        let mut ticks = 0u64;
        let mut session = Session::with_clock(move || {
            ticks += 1250;
            Duration::from_millis(ticks)
        });
        session.handle("set depth 1");
        let answer = session.handle("go").remove(0);
        assert!(answer.ends_with("/1.25"), "{answer}");
    }

    #[test]
    fn the_side_without_a_move_is_answered_pa_and_its_pass_is_taken() {
        // White's c1 leaves Black without a move.
        let moves = "B[D3]W[C3]B[B3]W[B2]B[F5]W[A3]B[A1]W[C1]";
        let mut session = Session::new();
        session.handle("set depth 2");
        assert_eq!(session.handle(&set_game(moves)), none());
        assert_eq!(session.handle("go"), ["=== PA"]);
        let hint = session.handle("hint 2");
        assert_eq!(hint.len(), 2, "{hint:?}");
        assert!(hint[0].starts_with("search PA "), "{hint:?}");
        assert_eq!(session.handle("move PA"), none());
        // Now White, the side to move for both, plays; a second pass is refused.
        let answer = session.handle("go").remove(0);
        assert!(!answer.starts_with("=== PA"), "{answer}");
        assert_eq!(
            session.handle("move PA"),
            ["status cannot play PA: White cannot pass while a move exists"]
        );

        // The same game with the pass written: White is to move at once.
        let mut session = Session::new();
        session.handle("set depth 2");
        session.handle(&set_game(&format!("{moves}B[PA]")));
        assert!(!session.handle("go")[0].starts_with("=== PA"));

        // A pass played by `move`: White's c1 from the position before it.
        let mut session = Session::new();
        session.handle(&set_game("B[D3]W[C3]B[B3]W[B2]B[F5]W[A3]B[A1]"));
        assert_eq!(session.handle("move C1"), none());
        assert_eq!(session.handle("go"), ["=== PA"]);
        assert_eq!(session.handle("move PA"), none());
        assert_eq!(session.game().side_to_move(), crate::Color::White);
    }

    #[test]
    fn a_finished_game_has_no_move_and_no_hint() {
        let mut session = Session::new();
        session.handle(&set_game("B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4]"));
        assert!(session.game().is_over());
        assert_eq!(session.handle("go"), ["status the game is over; there is no move to make"]);
        assert_eq!(session.handle("hint 1"), ["status the game is over; there is nothing to hint"]);
    }

    #[test]
    fn bad_arguments_get_a_status_and_change_nothing() {
        let mut session = Session::new();
        session.handle(&set_game("B[F5]"));
        let before = session.game().clone();
        assert_eq!(
            session.handle("move H9"),
            ["status \"H9\" is not a move; expected e.g. F5 or PA"]
        );
        assert_eq!(
            session.handle("move A1/0.5"),
            ["status cannot play A1: a1 is not legal for White"]
        );
        assert_eq!(session.handle("move"), ["status \"\" is not a move; expected e.g. F5 or PA"]);
        let game = session.handle("set game (;GM[Othello]B[A1];)");
        assert_eq!(
            game,
            [
                "status cannot read the game, kept the last one: move 1 \"A1\" is not legal for Black"
            ]
        );
        assert_eq!(
            session.handle("set depth deep"),
            ["status set depth needs a number of plies, not \"deep\""]
        );
        assert_eq!(
            session.handle("set contempt x"),
            ["status set contempt needs a number, not \"x\""]
        );
        assert_eq!(
            session.handle("hint many"),
            ["status hint needs a number of moves, not \"many\""]
        );
        assert_eq!(session.handle("ping"), ["status ping needs a number, not \"\""]);
        assert_eq!(session.game(), &before);
        assert_eq!(session.depth(), DEFAULT_DEPTH);
        assert_eq!(
            session.handle("nboard 3"),
            ["set myname Outflank", "status Outflank speaks NBoard protocol 2, not \"3\""]
        );
    }

    #[test]
    fn unknown_commands_and_blank_lines_are_ignored() {
        let mut session = Session::new();
        for line in ["", "   ", "hello", "set time 12", "remove_tree", "nodestats 1 2", "ZZ"] {
            assert_eq!(session.handle(line), none(), "{line:?}");
        }
    }

    #[test]
    fn depth_and_contempt_are_kept_and_depth_is_clamped() {
        let mut session = Session::new();
        session.handle("set depth 0");
        assert_eq!(session.depth(), 1);
        session.handle("set depth 99");
        assert_eq!(session.depth(), 60);
        session.handle("set contempt -150");
        assert_eq!(session.contempt(), -150);
    }

    #[test]
    fn a_bare_move_as_protocol_1_sent_it_is_played() {
        let mut session = Session::new();
        assert_eq!(session.handle("f5"), none());
        assert_eq!(session.handle("D6"), none());
        assert_eq!(session.game().plies(), [Move::Place(Square::F5), Move::Place(Square::D6)]);
    }

    #[test]
    fn analyze_evaluates_every_position_last_first() {
        let mut session = Session::new();
        session.handle("set depth 2");
        session.handle(&set_game("B[F5]W[F6]B[E6]"));
        let lines = session.handle("analyze");
        assert_eq!(lines.len(), 5, "{lines:?}");
        for (line, ply) in lines.iter().zip([3, 2, 1, 0]) {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words[..2], ["analysis", &ply.to_string()], "{line}");
            assert!(words[2].parse::<f64>().is_ok(), "{line}");
        }
        assert_eq!(lines[4], "status");
        // A finished game ends with its exact margin for the side to move (White, 0 discs).
        session.handle(&set_game("B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4]"));
        assert_eq!(session.handle("analyze")[0], "analysis 9 -13.00");
    }

    #[test]
    fn limits_grow_with_the_depth_within_bounds() {
        assert_eq!(limits_for_depth(0), limits_for_depth(1));
        assert_eq!(limits_for_depth(1).exact_empties, 9);
        assert_eq!(limits_for_depth(30).exact_empties, MAX_EXACT_EMPTIES);
        assert_eq!(limits_for_depth(60).node_budget, 8_000_000);
        assert!(limits_for_depth(8).node_budget < limits_for_depth(16).node_budget);
    }

    #[test]
    fn no_line_makes_the_session_panic() {
        let pieces = [
            "nboard",
            "set",
            "depth",
            "game",
            "contempt",
            "move",
            "go",
            "hint",
            "ping",
            "learn",
            "analyze",
            "quit",
            "(;",
            ";)",
            "GM[Othello]",
            "B[",
            "W[PA]",
            "]",
            "BO[8",
            "F5",
            "pa",
            "/",
            "-1",
            "99999999999999999999",
            "1e400",
            "NaN",
            "é",
            "\u{0}",
            "\t",
            "  ",
        ];
        let mut session = Session::new();
        session.handle("set depth 1");
        // Every pair and triple of pieces, joined by spaces or not.
        let mut lines = 0;
        for a in pieces {
            for b in pieces {
                for c in ["", " ", "x", " 3", " (;GM[Othello]W[F5];)"] {
                    for line in [format!("{a} {b}{c}"), format!("{a}{b}{c}")] {
                        let mut fresh = Session::new();
                        fresh.handle("set depth 1");
                        let _ = fresh.handle(&line);
                        let _ = session.handle(&line);
                        lines += 1;
                        if session.is_finished() {
                            session = Session::new();
                            session.handle("set depth 1");
                        }
                        if session.depth() > 1 {
                            session.handle("set depth 1");
                        }
                    }
                }
            }
        }
        assert_eq!(lines, 9_000);
    }
}
