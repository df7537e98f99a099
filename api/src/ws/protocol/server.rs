//! What a game's socket sends: snapshots, the game's events, ratings, presence and errors.

use std::fmt::Display;

use outflank_engine::Square;
use serde::{Deserialize, Serialize};

use crate::json::{LegalMsg, RatingSide, Side, SquareList, board_text};
use crate::live::{
    Broadcast, Clocks, CommandError, Ending, Event, LastMove, Player, Ply, Position, Seat, Snapshot,
};

use super::ProtocolError;

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
    /// How a clocked game is timed, as players write it: `30s` a move, `3+2` (minutes +
    /// seconds of increment) or `2d` a move.
    pub control: Option<String>,
    /// The XOT opening the game started from (`d3 c5 …`, its plies the first of `moves`), or
    /// null for a game from the standard start.
    pub opening: Option<String>,
    /// Whether the computer stands in for a person the matchmaker did not find (the game is
    /// not rated and the page says why).
    pub stand_in: bool,
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
    /// The named opening the game's first moves make (`Tiger`), or null.
    pub opening_name: Option<String>,
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
            control: snapshot.control.map(|control| control.to_string()),
            opening: snapshot.opening.map(|opening| opening.to_string()),
            stand_in: snapshot.stand_in,
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
            opening_name: position.opening_name.clone(),
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
