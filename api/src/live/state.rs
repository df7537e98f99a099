//! The live-game state machine: commands in, events out, time passed in by the caller.

use outflank_engine::openings::opening_of_game;
use outflank_engine::xot::{self, Opening};
use outflank_engine::{Board, Color, Game, Move, ReplayError, Square};
use thiserror::Error;

use super::pool::{Pool, RatedPlayers};
use crate::domain::{EndReason, GameId, GameStatus, Mode, PlayerId, Timestamp};

use super::draw::DrawOffers;
use super::rematch::Rematch;
use super::{
    Action, Clocks, Command, CommandError, Ending, Event, GameClock, LastMove, LegalMove, Ply,
    Position, SearchId, SearchRequest, Seat, Setup, Snapshot, Stored, TimeControl, Timing,
    thinking_time,
};

mod outcomes;
mod play;

/// How many discs each side must have placed before a ranked game's result can be anything
/// but aborted (unless the game ends on the board).
pub const RATED_AFTER_MOVES: usize = 3;

/// One live game: board and history, players, clock, draw offer, rematch, result.
///
/// Pure: every method takes the time as an argument, nothing reads a clock, does I/O or draws
/// random numbers. See the [module docs](super) for how a driver runs it.
#[derive(Clone, Debug)]
pub struct GameState {
    id: GameId,
    setup: Setup,
    timing: Timing,
    game: Game,
    /// Present in clocked modes.
    clock: Option<GameClock>,
    /// Whether each side (by colour index) has placed a disc: a side that never did is
    /// aborted, not beaten, when its time runs out.
    has_moved: [bool; 2],
    draw: DrawOffers,
    rematch: Rematch,
    /// The computer's search being awaited, when it is the computer's turn.
    search: Option<PendingSearch>,
    /// Searches requested so far; the last one's id.
    searches: u64,
    ending: Option<Ending>,
    version: u64,
    /// The XOT opening the game started from: its plies are nobody's moves, so they are not
    /// undone and do not count as discs a side placed.
    opening: Option<Opening>,
}

/// A search the game waits for, and its answer if it came before it may be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PendingSearch {
    id: SearchId,
    not_before: Timestamp,
    reply: Option<Square>,
}

/// Stored plies that do not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RestoreError {
    #[error("the stored moves do not replay: {0}")]
    Replay(#[from] ReplayError),
}

impl GameState {
    /// A new game from the standard start; Black's turn (and clock) starts at `now`.
    ///
    /// When the computer is Black, [`GameState::search_request`] has its first search.
    pub fn new(id: GameId, setup: Setup, timing: Timing, now: Timestamp) -> GameState {
        GameState::from_game(id, setup, Game::default(), timing, now)
    }

    /// A new game continuing `game` (e.g. an imported record); the side to move starts at `now`.
    pub fn from_game(
        id: GameId,
        setup: Setup,
        game: Game,
        timing: Timing,
        now: Timestamp,
    ) -> GameState {
        GameState::timed(id, setup, game, timing.default_control(), timing, now)
    }

    /// [`GameState::from_game`] timed by `control` (when the mode has a clock).
    pub fn timed(
        id: GameId,
        setup: Setup,
        game: Game,
        control: TimeControl,
        timing: Timing,
        now: Timestamp,
    ) -> GameState {
        GameState::build(id, setup, (game, None), (control, None), timing, now)
    }

    /// A new XOT game: `opening` played from the start, then the side to move (Black) starts
    /// at `now` under `control`. A rematch starts from the same opening.
    pub fn xot(
        id: GameId,
        setup: Setup,
        opening: Opening,
        control: TimeControl,
        timing: Timing,
        now: Timestamp,
    ) -> GameState {
        GameState::build(id, setup, (opening.game(), Some(opening)), (control, None), timing, now)
    }

    /// A game reloaded from the store, e.g. after a restart. Under a per-game or daily control
    /// the clocks are replayed from the stored ply times, so they stand exactly where they did
    /// (the side to move may have run out meanwhile); under a control of seconds a move the
    /// side to move gets a full move time from `now`. Draw offers and rematch requests are
    /// forgotten, a rematch already started is kept. Versions continue from `now` in
    /// milliseconds, above any version given out before the restart.
    ///
    /// # Errors
    /// [`RestoreError`] if the stored plies do not replay from the stored start.
    pub fn restore(
        stored: Stored,
        timing: Timing,
        now: Timestamp,
    ) -> Result<GameState, RestoreError> {
        let game = Game::from_moves(stored.start, stored.plies)?;
        let control = stored.control.unwrap_or(timing.default_control());
        let ending = stored.ending;
        let mut state = GameState::build(
            stored.id,
            stored.setup,
            (game, stored.opening),
            (control, ending),
            timing,
            now,
        );
        if control.resumes_exactly() && state.ending.is_none() && state.clock.is_some() {
            state.clock = Some(replay_clock(&state.game, control, timing, &stored.times));
        }
        if let Some(next_game) = stored.rematch {
            state.rematch = Rematch::started(next_game);
        }
        state.version = u64::try_from(now.0).unwrap_or(0);
        Ok(state)
    }

    fn build(
        id: GameId,
        setup: Setup,
        (mut game, opening): (Game, Option<Opening>),
        (control, ending): (TimeControl, Option<Ending>),
        timing: Timing,
        now: Timestamp,
    ) -> GameState {
        if game.board().must_pass() {
            // Passing is legal exactly when the side to move must pass.
            let _ = game.play(Move::Pass);
        }
        let side = game.side_to_move();
        let clock = setup
            .has_clock()
            .then(|| GameClock::start(control, timing.lag_allowance_ms, side, now));
        let mut state = GameState {
            id,
            setup,
            timing,
            has_moved: [false; 2],
            game,
            clock,
            draw: DrawOffers::default(),
            rematch: Rematch::default(),
            search: None,
            searches: 0,
            ending: None,
            version: 0,
            opening,
        };
        state.has_moved = Color::ALL.map(|color| state.has_placed(color));
        match ending.or_else(|| state.game.result().map(Ending::normal)) {
            Some(ending) => {
                state.stop(ending, now);
            }
            None => {
                if state.is_computer(side) {
                    state.request_search(now);
                }
            }
        }
        state
    }

    /// Applies `command` at `now`.
    ///
    /// Work that fell due before `now` comes first: a timeout, or a computer reply held back
    /// until its earliest time. If that work produced events and the command then fails, the
    /// command is dropped and those events are returned (they explain why, e.g. a move that
    /// arrived after the flag).
    ///
    /// # Errors
    /// [`CommandError`] when the command is refused; the game is then unchanged.
    pub fn apply(&mut self, command: Command, now: Timestamp) -> Result<Vec<Event>, CommandError> {
        let mut events = self.catch_up(now);
        match self.execute(command, now) {
            Ok(more) => {
                events.extend(more);
                Ok(events)
            }
            Err(error) if events.is_empty() => Err(error),
            Err(_) => Ok(events),
        }
    }

    /// When the driver must send [`Command::Tick`]: the flag time of the side to move, or
    /// the time a held-back computer reply may be shown. `None` if nothing is due.
    pub fn next_deadline(&self) -> Option<Timestamp> {
        if self.ending.is_some() {
            return None;
        }
        let held_reply =
            self.search.filter(|search| search.reply.is_some()).map(|search| search.not_before);
        let flag = self.clock.and_then(|clock| clock.flag_time());
        match (held_reply, flag) {
            (Some(reply), Some(flag)) => Some(reply.min(flag)),
            (reply, flag) => reply.or(flag),
        }
    }

    /// The search the game is waiting for at `now`, if the computer is to move and has not
    /// answered. A driver starting (or restoring) a game runs it; later ones come as
    /// [`Event::StartSearch`].
    pub fn search_request(&self, now: Timestamp) -> Option<SearchRequest> {
        let search = self.search.filter(|search| search.reply.is_none())?;
        let (color, level) = self.setup.computer()?;
        let board = self.game.board();
        let think_ms = self.clock.and_then(|clock| {
            let left = clock.remaining(color, now);
            let delay = search.not_before.since(now).max(0);
            thinking_time(clock.control(), left, board.empty().count(), delay)
        });
        Some(SearchRequest {
            search_id: search.id,
            board,
            level,
            not_before: search.not_before,
            think_ms,
        })
    }

    /// The whole game as it stands at `now`.
    pub fn snapshot(&self, now: Timestamp) -> Snapshot {
        Snapshot {
            game_id: self.id.clone(),
            mode: self.mode(),
            version: self.version,
            status: self.status(),
            black: self.setup.player(Color::Black),
            white: self.setup.player(Color::White),
            position: self.position(),
            clocks: self.clocks(now),
            move_time_ms: self.clock.and_then(|clock| match clock.control() {
                TimeControl::PerMove { move_ms } => Some(move_ms),
                _ => None,
            }),
            control: self.control(),
            opening: self.opening,
            stand_in: self.setup.is_stand_in(),
            last_move: self.last_move(),
            moves: (0..self.game.plies().len()).map(|index| self.ply(index)).collect(),
            draw_offer: self.draw.pending(),
            rematch: self.rematch.view(),
            ending: self.ending,
        }
    }

    /// What `player` may do in this game.
    pub fn seat_of(&self, player: &PlayerId) -> Seat {
        let plays = |color| self.setup.human(color).is_some_and(|human| &human.id == player);
        match (plays(Color::Black), plays(Color::White)) {
            (true, true) => Seat::Both,
            (true, false) => Seat::Black,
            (false, true) => Seat::White,
            (false, false) => Seat::Spectator,
        }
    }

    pub fn id(&self) -> &GameId {
        &self.id
    }

    /// The accounts whose ratings this game's result moves, and in which pool: a ranked game
    /// between two different people that ended with a result (an aborted game moves nothing),
    /// rated in the pool of its control (a ranked game stored before controls were chosen was
    /// played at 30 s a move).
    pub fn rated_players(&self) -> Option<RatedPlayers> {
        let ending = self.ending?;
        if self.mode() != Mode::Ranked || ending.status() != GameStatus::Finished {
            return None;
        }
        let black = self.setup.human(Color::Black)?.id.clone();
        let white = self.setup.human(Color::White)?.id.clone();
        let xot = self.opening.is_some();
        let pool =
            self.control().and_then(|control| Pool::of(control, xot)).unwrap_or(Pool::DEFAULT);
        (black != white).then_some(RatedPlayers { black, white, pool })
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn mode(&self) -> Mode {
        self.setup.mode()
    }

    /// Whether the game's moves are timed.
    pub fn has_clock(&self) -> bool {
        self.clock.is_some()
    }

    /// The version of the last public event.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn status(&self) -> GameStatus {
        self.ending.map_or(GameStatus::Live, |ending| ending.status())
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The XOT opening the game started from, if it did.
    pub fn opening(&self) -> Option<Opening> {
        self.opening
    }

    /// How many of the first plies are the XOT opening's (0 without one).
    fn opening_plies(&self) -> usize {
        self.opening.map_or(0, |_| xot::PLIES)
    }

    /// How the game is timed, when it has a clock.
    pub fn control(&self) -> Option<TimeControl> {
        self.clock.map(|clock| clock.control())
    }

    /// The start and every ply, e.g. for a text record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn execute(&mut self, command: Command, now: Timestamp) -> Result<Vec<Event>, CommandError> {
        match command {
            Command::Player { by, action } => match action {
                Action::Move { square } => self.play_move(&by, square, now),
                Action::Resign => self.resign(&by, now),
                Action::OfferDraw => self.offer_draw(&by, now),
                Action::AcceptDraw => self.accept_draw(&by, now),
                Action::DeclineDraw => self.decline_draw(&by),
                Action::Rematch => self.ask_rematch(&by, GameId::rematch_of(&self.id)),
                Action::Undo => self.undo(&by),
                Action::Leave => self.leave(&by, now),
            },
            Command::Tick => Ok(Vec::new()),
            Command::ComputerMove { search_id, mv } => self.computer_move(search_id, mv, now),
        }
    }

    /// Timeouts and held-back computer replies due at `now`.
    fn catch_up(&mut self, now: Timestamp) -> Vec<Event> {
        if self.ending.is_some() {
            return Vec::new();
        }
        if let Some(side) = self.clock.and_then(|clock| clock.out_of_time(now)) {
            let ending = if self.has_moved[side as usize] {
                Ending::loss(side, EndReason::Timeout)
            } else {
                Ending::aborted()
            };
            return self.end(ending, now);
        }
        match self.search {
            Some(PendingSearch { reply: Some(square), not_before, .. }) if now >= not_before => {
                self.play_reply(square, now).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    fn bump(&mut self) -> u64 {
        self.version += 1;
        self.version
    }

    fn player_seat(&self, by: &PlayerId) -> Result<Seat, CommandError> {
        match self.seat_of(by) {
            Seat::Spectator => Err(CommandError::NotAPlayer),
            seat => Ok(seat),
        }
    }

    fn ensure_live(&self) -> Result<(), CommandError> {
        match self.ending {
            Some(_) => Err(CommandError::GameOver),
            None => Ok(()),
        }
    }

    fn is_computer(&self, color: Color) -> bool {
        self.setup.computer().is_some_and(|(computer, _)| computer == color)
    }

    fn has_placed(&self, color: Color) -> bool {
        self.placed(color) > 0
    }

    /// How many discs `color` has placed (passes and the XOT opening's plies not counted).
    fn placed(&self, color: Color) -> usize {
        (self.opening_plies()..self.game.plies().len())
            .filter(|&index| {
                matches!(self.game.plies()[index], Move::Place(_)) && self.ply(index).color == color
            })
            .count()
    }

    /// The ply at `index` (0-based) with its number and colour.
    fn ply(&self, index: usize) -> Ply {
        let before = self.game.board_after(index).unwrap_or(self.game.start());
        Ply {
            number: index + 1,
            color: before.side_to_move(),
            mv: self.game.plies().get(index).copied().unwrap_or(Move::Pass),
        }
    }

    fn last_move(&self) -> Option<LastMove> {
        let plies = self.game.plies();
        let index = plies.iter().rposition(|mv| matches!(mv, Move::Place(_)))?;
        let Move::Place(square) = plies[index] else { return None };
        let before = self.game.board_after(index)?;
        Some(LastMove {
            number: index + 1,
            color: before.side_to_move(),
            square,
            flips: before.flips(square),
        })
    }

    fn position(&self) -> Position {
        let board = self.game.board();
        let live = self.ending.is_none();
        Position {
            board,
            to_move: live.then(|| board.side_to_move()),
            legal: if live { legal_moves(&board) } else { Vec::new() },
            counts: board.counts(),
            opening_name: opening_of_game(&self.game).map(|opening| opening.name().to_owned()),
        }
    }

    fn clocks(&self, now: Timestamp) -> Option<Clocks> {
        self.clock.map(|clock| Clocks {
            black_ms: clock.remaining(Color::Black, now),
            white_ms: clock.remaining(Color::White, now),
            running: clock.running(),
        })
    }
}

/// The clock of `game` under `control` as the stored times left it: started at `started`,
/// and switched at each placing ply's time to the side that then had to move (after the
/// forced passes stored with it).
fn replay_clock(
    game: &Game,
    control: TimeControl,
    timing: Timing,
    (started, ply_times): &(Timestamp, Vec<Timestamp>),
) -> GameClock {
    let start = game.start();
    let mut clock =
        GameClock::start(control, timing.lag_allowance_ms, start.side_to_move(), *started);
    let plies = game.plies();
    for (index, mv) in plies.iter().enumerate() {
        let (Move::Place(_), Some(&at)) = (mv, ply_times.get(index)) else { continue };
        let passes = plies[index + 1..].iter().take_while(|next| **next == Move::Pass).count();
        let next = game.board_after(index + 1 + passes).unwrap_or(game.board()).side_to_move();
        clock.switch(next, at);
    }
    clock
}

/// Every legal square of the side to move with the discs it would flip.
fn legal_moves(board: &Board) -> Vec<LegalMove> {
    board
        .legal_moves()
        .into_iter()
        .map(|square| LegalMove { square, flips: board.flips(square) })
        .collect()
}
