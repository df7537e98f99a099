//! The JSON messages of the server's WebSockets (`docs/protocol.md`): a live game's
//! ([`ClientMsg`], [`ServerMsg`]) and the matchmaking queue's ([`SeekerMsg`], [`QueueMsg`]).
//!
//! Every frame is one JSON object whose `type` names the message. [`ClientMsg::parse`] reads
//! a frame once, at the edge; [`ServerMsg`] is built from the live game's
//! [`Snapshot`], [`Event`]s and [`Broadcast`]s. The socket layer never
//! judges legality: a player's message is an [`Action`] it forwards to the game.

use std::fmt::Display;

use outflank_engine::{Bitboard, Board, Color, Game, Move, Square};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::accounts::rating::{RatingChange, is_provisional, shown};
use crate::domain::{GameId, ParseIdError};
use crate::live::{
    Action, Broadcast, Clocks, CommandError, Ending, Event, LastMove, Player, Ply, Position, Seat,
    Snapshot,
};

#[cfg(test)]
mod tests;

/// The largest frame a client may send, in bytes.
pub const MAX_FRAME_BYTES: usize = 4 * 1024;

/// A client sending more messages than this within one second is disconnected.
pub const MAX_MESSAGES_PER_SECOND: u32 = 20;

/// Error codes the socket handlers send themselves (the others come from
/// [`ProtocolError::code`] and [`CommandError::code`]).
pub mod codes {
    /// A frame over [`MAX_FRAME_BYTES`](super::MAX_FRAME_BYTES); the socket is closed after it.
    pub const TOO_LARGE: &str = "too_large";
    /// A frame that is not a JSON text frame.
    pub const BAD_JSON: &str = "bad_json";
    /// A JSON message of an unknown shape (queue socket).
    pub const BAD_MESSAGE: &str = "bad_message";
    /// The player already holds the most sockets allowed (an HTTP `429` before the upgrade).
    pub const TOO_MANY_SOCKETS: &str = "too_many_sockets";
    /// A request on a socket's address that is not a WebSocket handshake (HTTP `400`).
    pub const BAD_HANDSHAKE: &str = "bad_handshake";
    /// The player (or their network) has the most games against the computer in progress.
    pub const TOO_MANY_GAMES: &str = "too_many_games";
    /// The game could not be reached or its command not stored; nothing changed.
    pub const UNAVAILABLE: &str = "unavailable";
    /// The game in the URL does not exist.
    pub const GAME_NOT_FOUND: &str = "game_not_found";
    /// `join` named another game than the URL.
    pub const WRONG_GAME: &str = "wrong_game";
    /// A game command came before `join`.
    pub const NOT_JOINED: &str = "not_joined";
    /// Too many messages; the socket is closed after this error.
    pub const RATE_LIMITED: &str = "rate_limited";
    /// The server is stopping; reconnect in a moment.
    pub const SHUTTING_DOWN: &str = "shutting_down";
    /// Ranked games need an account (queue socket).
    pub const ACCOUNT_REQUIRED: &str = "account_required";
    /// Ranked games need a public name (queue socket).
    pub const NAME_REQUIRED: &str = "name_required";
    /// The seeker is already in the queue (queue socket).
    pub const ALREADY_SEEKING: &str = "already_seeking";
    /// `seek` named no queue there is (queue socket).
    pub const BAD_QUEUE: &str = "bad_queue";
}

/// An `error` message, the same on every socket: the last message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "error")]
pub struct ErrorMsg {
    pub code: String,
    pub message: String,
}

impl ErrorMsg {
    pub fn new(code: &str, message: impl Display) -> ErrorMsg {
        ErrorMsg { code: code.to_owned(), message: message.to_string() }
    }
}

/// A message from a client of a game's socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMsg {
    /// The first message: which game, and the last version seen when reconnecting.
    Join { game_id: GameId, since: Option<u64> },
    /// Asks for a `pong`.
    Ping,
    /// A player's action (`move`, `resign`, `offer_draw`, ...), forwarded to the game.
    Act(Action),
}

/// The messages that stay with the socket, as they are written.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum SocketMsg {
    Join {
        game_id: GameId,
        #[serde(default)]
        since: Option<u64>,
    },
    Ping,
}

impl Serialize for ClientMsg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ClientMsg::Join { game_id, since } => {
                SocketMsg::Join { game_id: game_id.clone(), since: *since }.serialize(serializer)
            }
            ClientMsg::Ping => SocketMsg::Ping.serialize(serializer),
            ClientMsg::Act(action) => action.serialize(serializer),
        }
    }
}

/// Why a client frame was not understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("the message has {0} bytes; at most {MAX_FRAME_BYTES} are allowed")]
    TooLarge(usize),
    #[error("the message is not valid JSON: {0}")]
    BadJson(String),
    #[error("the message must be a JSON object with a \"type\" text field")]
    MissingType,
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    #[error("{0}")]
    BadSquare(#[from] outflank_engine::ParseSquareError),
    #[error("{0}")]
    BadGameId(#[from] ParseIdError),
    #[error("bad {kind} message: {message}")]
    BadMessage { kind: String, message: String },
}

impl ProtocolError {
    /// The stable code sent to clients.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::TooLarge(_) => "too_large",
            ProtocolError::BadJson(_) => "bad_json",
            ProtocolError::MissingType => "missing_type",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::BadSquare(_) => "bad_square",
            ProtocolError::BadGameId(_) => "bad_game_id",
            ProtocolError::BadMessage { .. } => "bad_message",
        }
    }
}

impl ClientMsg {
    /// Every client message type.
    pub const TYPES: [&'static str; 10] = [
        "join",
        "move",
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "rematch",
        "undo",
        "leave",
        "ping",
    ];

    /// Reads one frame.
    ///
    /// # Errors
    /// [`ProtocolError`] for a frame over [`MAX_FRAME_BYTES`], malformed JSON, a missing or
    /// unknown `type`, a bad square or game id, or missing or mistyped fields.
    ///
    /// ```
    /// use outflank_api::live::Action;
    /// use outflank_api::ws::protocol::ClientMsg;
    /// use outflank_engine::Square;
    ///
    /// let msg = ClientMsg::parse(r#"{"type":"move","square":"d3"}"#).unwrap();
    /// assert_eq!(msg, ClientMsg::Act(Action::Move { square: Square::D3 }));
    /// ```
    pub fn parse(frame: &str) -> Result<ClientMsg, ProtocolError> {
        if frame.len() > MAX_FRAME_BYTES {
            return Err(ProtocolError::TooLarge(frame.len()));
        }
        let value: serde_json::Value = serde_json::from_str(frame)
            .map_err(|error| ProtocolError::BadJson(error.to_string()))?;
        let kind = value
            .get("type")
            .and_then(serde_json::Value::as_str)
            .ok_or(ProtocolError::MissingType)?;
        if !ClientMsg::TYPES.contains(&kind) {
            return Err(ProtocolError::UnknownType(kind.to_owned()));
        }
        let text = |field: &str| value.get(field).and_then(serde_json::Value::as_str);
        match (kind, text("square"), text("game_id")) {
            ("move", Some(square), _) => {
                square.parse::<Square>()?;
            }
            ("join", _, Some(game_id)) => {
                game_id.parse::<GameId>()?;
            }
            _ => {}
        }
        let bad = |error: serde_json::Error| ProtocolError::BadMessage {
            kind: kind.to_owned(),
            message: error.to_string(),
        };
        match kind {
            "join" | "ping" => Ok(match serde_json::from_value(value.clone()).map_err(bad)? {
                SocketMsg::Join { game_id, since } => ClientMsg::Join { game_id, since },
                SocketMsg::Ping => ClientMsg::Ping,
            }),
            _ => serde_json::from_value(value.clone()).map(ClientMsg::Act).map_err(bad),
        }
    }

    /// The player's action this message asks for; `None` for `join` and `ping`, which the
    /// socket handles.
    pub fn action(&self) -> Option<Action> {
        match self {
            ClientMsg::Act(action) => Some(*action),
            ClientMsg::Join { .. } | ClientMsg::Ping => None,
        }
    }
}

/// One side's rating around a rated game, as shown (whole numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingSide {
    pub before: i64,
    pub after: i64,
    pub change: i64,
    /// Still provisional after this game.
    pub provisional: bool,
}

impl From<&RatingChange> for RatingSide {
    fn from(change: &RatingChange) -> RatingSide {
        RatingSide {
            before: shown(change.before),
            after: shown(change.after),
            change: shown(change.after) - shown(change.before),
            provisional: is_provisional(change.game_number),
        }
    }
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole game, on joining (or when resuming is not possible).
    Snapshot(Box<SnapshotMsg>),
    /// A disc was placed (and maybe a pass forced).
    Moved {
        version: u64,
        plies: Vec<PlyMsg>,
        last_move: LastMoveMsg,
        #[serde(flatten)]
        position: PositionMsg,
        clocks: Option<ClocksMsg>,
    },
    /// Moves were taken back; keep the first `ply_count` plies.
    Undone {
        version: u64,
        ply_count: usize,
        last_move: Option<LastMoveMsg>,
        #[serde(flatten)]
        position: PositionMsg,
    },
    DrawOffered {
        version: u64,
        by: Side,
    },
    DrawDeclined {
        version: u64,
        by: Side,
    },
    Ended {
        version: u64,
        status: String,
        result: ResultMsg,
        counts: CountsMsg,
    },
    RematchAsked {
        version: u64,
        by: Side,
    },
    /// Both agreed; the rematch is the game `game_id` (connect to its socket).
    RematchStarted {
        version: u64,
        game_id: String,
    },
    Left {
        version: u64,
        by: Side,
    },
    /// The last message was refused; nothing changed.
    Error {
        code: String,
        message: String,
    },
    Pong,
    /// Which sides have someone connected (the computer always is). Not versioned: sent after
    /// the catch-up on joining and whenever it changes.
    Presence {
        black: bool,
        white: bool,
    },
    /// After a rated game's `ended`: both sides' rating changes. Not versioned; a client that
    /// missed it reads `rating_changes` from `GET /api/games/{id}`.
    RatingChanged {
        black: RatingSide,
        white: RatingSide,
    },
}

/// A colour on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Black,
    White,
}

/// The `snapshot` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotMsg {
    pub version: u64,
    pub game_id: String,
    pub mode: String,
    pub status: String,
    /// `black`, `white`, `both` (same device) or `spectator`.
    pub you: String,
    pub players: PlayersMsg,
    #[serde(flatten)]
    pub position: PositionMsg,
    pub clocks: Option<ClocksMsg>,
    pub move_time_ms: Option<i64>,
    pub last_move: Option<LastMoveMsg>,
    pub moves: Vec<PlyMsg>,
    pub draw_offer: Option<Side>,
    pub rematch: RematchMsg,
    pub result: Option<ResultMsg>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayersMsg {
    pub black: PlayerMsg,
    pub white: PlayerMsg,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerMsg {
    pub name: String,
    pub computer: bool,
    /// The computer's level, 1 (weakest) to 10 (strongest).
    pub level: Option<u8>,
}

/// The board and what the side to move may do (flattened into its message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionMsg {
    /// 64 characters, a1 b1 … h1, a2 … h8: `X` Black, `O` White, `-` empty.
    pub board: String,
    pub to_move: Option<Side>,
    pub legal: Vec<LegalMsg>,
    pub counts: CountsMsg,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMsg {
    pub square: Square,
    pub flips: SquareList,
}

/// Squares as a list of their names in square order, `["d4", "e4"]`: written straight from
/// the set, as every move's broadcast holds one for each legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareList(pub Bitboard);

impl Serialize for SquareList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0)
    }
}

impl<'de> Deserialize<'de> for SquareList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SquareList, D::Error> {
        Ok(SquareList(Vec::<Square>::deserialize(deserializer)?.into_iter().collect()))
    }
}

impl LegalMsg {
    /// Every legal square of `board`'s side to move with the discs it flips, in square order.
    pub fn all(board: &Board) -> Vec<LegalMsg> {
        board
            .legal_moves()
            .into_iter()
            .map(|square| LegalMsg { square, flips: SquareList(board.flips(square)) })
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountsMsg {
    pub black: u8,
    pub white: u8,
    pub empty: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyMsg {
    pub number: usize,
    pub color: Side,
    /// A square, or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMoveMsg {
    pub number: usize,
    pub color: Side,
    pub square: Square,
    pub flips: SquareList,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClocksMsg {
    pub black_ms: i64,
    pub white_ms: i64,
    pub running: Option<Side>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchMsg {
    pub asked: Vec<Side>,
    pub left: Vec<Side>,
    pub game_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultMsg {
    /// `black`, `white`, `draw`, or null when aborted.
    pub winner: Option<String>,
    /// `normal`, `resignation`, `timeout`, `agreed_draw` or `aborted`.
    pub reason: String,
}

impl ServerMsg {
    /// The snapshot sent to someone in seat `you`.
    pub fn snapshot(snapshot: &Snapshot, you: Seat) -> ServerMsg {
        ServerMsg::Snapshot(Box::new(SnapshotMsg {
            version: snapshot.version,
            game_id: snapshot.game_id.to_string(),
            mode: snapshot.mode.to_string(),
            status: snapshot.status.to_string(),
            you: you.as_str().to_owned(),
            players: PlayersMsg {
                black: PlayerMsg::from(&snapshot.black),
                white: PlayerMsg::from(&snapshot.white),
            },
            position: PositionMsg::from(&snapshot.position),
            clocks: snapshot.clocks.map(ClocksMsg::from),
            move_time_ms: snapshot.move_time_ms,
            last_move: snapshot.last_move.map(LastMoveMsg::from),
            moves: snapshot.moves.iter().map(PlyMsg::from).collect(),
            draw_offer: snapshot.draw_offer.map(Side::from),
            rematch: RematchMsg {
                asked: snapshot.rematch.asked.iter().copied().map(Side::from).collect(),
                left: snapshot.rematch.left.iter().copied().map(Side::from).collect(),
                game_id: snapshot.rematch.next_game.as_ref().map(ToString::to_string),
            },
            result: snapshot.ending.map(ResultMsg::from),
        }))
    }

    /// The message every socket on a game gets for `broadcast`; `None` for shutting down,
    /// which each socket handles itself.
    pub fn from_broadcast(broadcast: &Broadcast) -> Option<ServerMsg> {
        match broadcast {
            Broadcast::Event(event) => ServerMsg::from_event(event),
            Broadcast::Presence { black, white } => {
                Some(ServerMsg::Presence { black: *black, white: *white })
            }
            Broadcast::Rated(rated) => Some(ServerMsg::RatingChanged {
                black: RatingSide::from(&rated.black),
                white: RatingSide::from(&rated.white),
            }),
            Broadcast::Shutdown => None,
        }
    }

    /// The message broadcasting a public event; `None` for the driver's instructions.
    pub fn from_event(event: &Event) -> Option<ServerMsg> {
        Some(match event {
            Event::Moved { version, plies, last_move, position, clocks, .. } => ServerMsg::Moved {
                version: *version,
                plies: plies.iter().map(PlyMsg::from).collect(),
                last_move: LastMoveMsg::from(*last_move),
                position: PositionMsg::from(position),
                clocks: clocks.map(ClocksMsg::from),
            },
            Event::Undone { version, ply_count, last_move, position } => ServerMsg::Undone {
                version: *version,
                ply_count: *ply_count,
                last_move: last_move.map(LastMoveMsg::from),
                position: PositionMsg::from(position),
            },
            Event::DrawOffered { version, by } => {
                ServerMsg::DrawOffered { version: *version, by: Side::from(*by) }
            }
            Event::DrawDeclined { version, by } => {
                ServerMsg::DrawDeclined { version: *version, by: Side::from(*by) }
            }
            Event::Ended { version, ending, counts } => ServerMsg::Ended {
                version: *version,
                status: ending.status().to_string(),
                result: ResultMsg::from(*ending),
                counts: CountsMsg { black: counts.black, white: counts.white, empty: counts.empty },
            },
            Event::RematchAsked { version, by } => {
                ServerMsg::RematchAsked { version: *version, by: Side::from(*by) }
            }
            Event::RematchStarted { version, game_id, .. } => {
                ServerMsg::RematchStarted { version: *version, game_id: game_id.to_string() }
            }
            Event::Left { version, by } => {
                ServerMsg::Left { version: *version, by: Side::from(*by) }
            }
            Event::StartSearch(_) | Event::CancelSearch(_) => return None,
        })
    }

    /// An `error` message.
    pub fn error(code: &str, message: impl Display) -> ServerMsg {
        ServerMsg::Error { code: code.to_owned(), message: message.to_string() }
    }

    /// The message's type, e.g. `"moved"`.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMsg::Snapshot(_) => "snapshot",
            ServerMsg::Moved { .. } => "moved",
            ServerMsg::Undone { .. } => "undone",
            ServerMsg::DrawOffered { .. } => "draw_offered",
            ServerMsg::DrawDeclined { .. } => "draw_declined",
            ServerMsg::Ended { .. } => "ended",
            ServerMsg::RematchAsked { .. } => "rematch_asked",
            ServerMsg::RematchStarted { .. } => "rematch_started",
            ServerMsg::Left { .. } => "left",
            ServerMsg::Error { .. } => "error",
            ServerMsg::Pong => "pong",
            ServerMsg::Presence { .. } => "presence",
            ServerMsg::RatingChanged { .. } => "rating_changed",
        }
    }

    /// The game version the message brings the client to, if it is versioned.
    pub fn version(&self) -> Option<u64> {
        match self {
            ServerMsg::Snapshot(snapshot) => Some(snapshot.version),
            ServerMsg::Moved { version, .. }
            | ServerMsg::Undone { version, .. }
            | ServerMsg::DrawOffered { version, .. }
            | ServerMsg::DrawDeclined { version, .. }
            | ServerMsg::Ended { version, .. }
            | ServerMsg::RematchAsked { version, .. }
            | ServerMsg::RematchStarted { version, .. }
            | ServerMsg::Left { version, .. } => Some(*version),
            ServerMsg::Error { .. }
            | ServerMsg::Pong
            | ServerMsg::Presence { .. }
            | ServerMsg::RatingChanged { .. } => None,
        }
    }

    /// The frame text.
    pub fn to_json(&self) -> String {
        // Plain structs with text keys always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl From<CommandError> for ServerMsg {
    fn from(error: CommandError) -> ServerMsg {
        ServerMsg::error(error.code(), error)
    }
}

impl From<&ProtocolError> for ServerMsg {
    fn from(error: &ProtocolError) -> ServerMsg {
        ServerMsg::error(error.code(), error)
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

impl From<&Player> for PlayerMsg {
    fn from(player: &Player) -> PlayerMsg {
        match player {
            Player::Human(human) => {
                PlayerMsg { name: human.name.to_string(), computer: false, level: None }
            }
            Player::Computer(level) => PlayerMsg {
                name: player.display_name(),
                computer: true,
                level: Some(level.number()),
            },
        }
    }
}

impl From<&Position> for PositionMsg {
    fn from(position: &Position) -> PositionMsg {
        let counts = position.counts;
        PositionMsg {
            board: board_text(&position.board),
            to_move: position.to_move.map(Side::from),
            legal: position
                .legal
                .iter()
                .map(|legal| LegalMsg { square: legal.square, flips: SquareList(legal.flips) })
                .collect(),
            counts: CountsMsg { black: counts.black, white: counts.white, empty: counts.empty },
        }
    }
}

impl From<&Ply> for PlyMsg {
    fn from(ply: &Ply) -> PlyMsg {
        PlyMsg { number: ply.number, color: Side::from(ply.color), mv: ply.mv.to_string() }
    }
}

impl From<LastMove> for LastMoveMsg {
    fn from(last: LastMove) -> LastMoveMsg {
        LastMoveMsg {
            number: last.number,
            color: Side::from(last.color),
            square: last.square,
            flips: SquareList(last.flips),
        }
    }
}

impl From<Clocks> for ClocksMsg {
    fn from(clocks: Clocks) -> ClocksMsg {
        ClocksMsg {
            black_ms: clocks.black_ms,
            white_ms: clocks.white_ms,
            running: clocks.running.map(Side::from),
        }
    }
}

impl From<Ending> for ResultMsg {
    fn from(ending: Ending) -> ResultMsg {
        ResultMsg {
            winner: ending.winner.map(|winner| winner.to_string()),
            reason: ending.reason.to_string(),
        }
    }
}

/// The 64-character board: `X` Black, `O` White, `-` empty, from a1 to h8 row by row.
pub fn board_text(board: &Board) -> String {
    Square::ALL.iter().map(|&square| board.at(square).map_or('-', Color::letter)).collect()
}

/// The position after each ply (index 0 is the start), each with the disc placed last and
/// what it flipped (a pass keeps the one before): the `positions` of a game's replay and of
/// the analysis board.
pub fn positions_json(game: &Game) -> serde_json::Value {
    let mut last_move = serde_json::Value::Null;
    let mut positions = vec![
        serde_json::json!({ "ply": 0, "board": board_text(&game.start()), "last_move": last_move }),
    ];
    for (index, &mv) in game.plies().iter().enumerate() {
        let (Some(before), Some(after)) = (game.board_after(index), game.board_after(index + 1))
        else {
            break;
        };
        if let Move::Place(square) = mv {
            last_move = serde_json::json!({
                "number": index + 1,
                "color": before.side_to_move().name().to_lowercase(),
                "square": square,
                "flips": SquareList(before.flips(square)),
            });
        }
        positions
            .push(serde_json::json!({ "ply": index + 1, "board": board_text(&after), "last_move": last_move }));
    }
    serde_json::Value::Array(positions)
}

/// A message from a client of the queue socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeekerMsg {
    /// Look for an opponent in `queue` (`quick` or `ranked`).
    Seek { queue: String },
    /// Stop looking.
    Cancel,
    /// Asks for a `pong`.
    Ping,
}

impl SeekerMsg {
    /// Reads one frame of the queue socket.
    ///
    /// # Errors
    /// The code to send back (`bad_json` for text that is not JSON, `bad_message` for JSON that
    /// is no seeker message) and why.
    pub fn parse(frame: &str) -> Result<SeekerMsg, (&'static str, serde_json::Error)> {
        serde_json::from_str::<SeekerMsg>(frame).map_err(|error| {
            let code = match serde_json::from_str::<serde_json::Value>(frame) {
                Ok(_) => codes::BAD_MESSAGE,
                Err(_) => codes::BAD_JSON,
            };
            (code, error)
        })
    }
}

/// The opponent found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpponentMsg {
    pub name: String,
    pub computer: bool,
    /// The computer's level, 1 (weakest) to 10 (strongest).
    pub level: Option<u8>,
}

/// A message to a client of the queue socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum QueueMsg {
    /// Still looking, for `waited_ms` so far.
    Searching {
        queue: String,
        waited_ms: i64,
    },
    /// Found: connect to game `game_id`.
    Paired {
        game_id: GameId,
        opponent: OpponentMsg,
    },
    /// No longer looking.
    Cancelled,
    /// The last message was refused.
    Error {
        code: String,
        message: String,
    },
    Pong,
}

impl QueueMsg {
    /// An `error` message.
    pub fn error(code: &str, message: impl Display) -> QueueMsg {
        QueueMsg::Error { code: code.to_owned(), message: message.to_string() }
    }
}
