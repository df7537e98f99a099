//! The analysis board: a position and a line of moves played freely from it, answered with
//! the rules (`POST /api/analysis/position`) or with the engine's value of every legal move
//! (`POST /api/analysis/values`). The client knows no rules: it sends the line, the server
//! says what is on the board and what may be played.

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use outflank_engine::analysis::PositionValues;
use outflank_engine::ggf::{self, GameTextError};
use outflank_engine::{Board, Game, Move, ParsePositionError, ReplayError};
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::domain::Timestamp;
use crate::http::client_address::client_key;
use crate::http::error::{ApiError, respond};
use crate::http::session::current_session;
use crate::json::{LegalMsg, positions_json};
use crate::service::{BoardValues, BoardValuesError, Requester};

/// The most moves a line may list: every square once, and a pass before each.
pub const MAX_LINE_MOVES: usize = 120;
/// Seconds a refused request is asked to wait before asking again.
const RETRY_AFTER_SECS: u64 = 2;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/analysis/position", web::post().to(position))
        .route("/api/analysis/values", web::post().to(values));
}

/// Errors of the analysis board.
#[derive(Debug, Error)]
pub enum BoardRouteError {
    #[error("{0}")]
    BadRequest(String),
    #[error("the start is not a position: {0}")]
    BadPosition(#[from] ParsePositionError),
    #[error(transparent)]
    IllegalMove(#[from] ReplayError),
    #[error(transparent)]
    Record(#[from] GameTextError),
    #[error(transparent)]
    Values(#[from] BoardValuesError),
}

impl ApiError for BoardRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            BoardRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            BoardRouteError::BadPosition(_) => (StatusCode::BAD_REQUEST, "bad_position"),
            BoardRouteError::IllegalMove(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            BoardRouteError::Record(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_record"),
            BoardRouteError::Values(BoardValuesError::Superseded) => {
                (StatusCode::CONFLICT, "superseded")
            }
            BoardRouteError::Values(BoardValuesError::TooMany) => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_board_requests")
            }
            BoardRouteError::Values(BoardValuesError::Busy) => {
                (StatusCode::SERVICE_UNAVAILABLE, "analysis_busy")
            }
        }
    }
}

impl actix_web::ResponseError for BoardRouteError {
    fn status_code(&self) -> StatusCode {
        self.status_and_code().0
    }

    /// The error's JSON; a refusal by a limit also says when to ask again.
    fn error_response(&self) -> HttpResponse {
        let mut response = respond(self);
        if matches!(
            self,
            BoardRouteError::Values(BoardValuesError::Busy | BoardValuesError::TooMany)
        ) {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}

/// The body of both routes: a start and a line, or a record that holds both.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LineRequest {
    /// A position string, `<64 squares> X` (the space may be left out); the standard start
    /// when missing.
    start: Option<String>,
    /// Moves from the start (`f5`, `pass`); passes may be left out.
    moves: Option<Vec<String>>,
    /// A text record, a bare move list or a GGF game, instead of `start` and `moves`.
    record: Option<String>,
}

impl LineRequest {
    /// The game the request describes, replayed by the rules.
    fn game(self) -> Result<Game, BoardRouteError> {
        if let Some(record) = self.record {
            if self.start.is_some() || self.moves.is_some() {
                return Err(BoardRouteError::BadRequest(
                    "send either a \"record\" or a \"start\" and \"moves\", not both".into(),
                ));
            }
            return Ok(ggf::parse_game_text(&record)?);
        }
        let start = match self.start {
            Some(text) => parse_start(&text)?,
            None => Board::start(),
        };
        let texts = self.moves.unwrap_or_default();
        if texts.len() > MAX_LINE_MOVES {
            return Err(BoardRouteError::BadRequest(format!(
                "a line has at most {MAX_LINE_MOVES} moves; this one has {}",
                texts.len()
            )));
        }
        let moves = texts
            .iter()
            .enumerate()
            .map(|(index, text)| parse_move(text, index + 1))
            .collect::<Result<Vec<Move>, BoardRouteError>>()?;
        Ok(Game::from_moves(start, moves)?)
    }
}

/// A position string, also with the side to move right after the 64 squares (as in a link).
fn parse_start(text: &str) -> Result<Board, ParsePositionError> {
    let text = text.trim();
    match text.char_indices().nth(64) {
        Some((at, _)) if !text.contains(char::is_whitespace) => {
            format!("{} {}", &text[..at], &text[at..]).parse()
        }
        _ => text.parse(),
    }
}

fn parse_move(text: &str, number: usize) -> Result<Move, BoardRouteError> {
    let text = text.trim();
    text.parse().map_err(|_| {
        let shown: String = text.chars().take(12).collect();
        BoardRouteError::BadRequest(format!(
            "move {number} {shown:?} is not a move; expected a square like f5, or pass"
        ))
    })
}

/// Who asks, for the pool's limits: the session's player, or else the visitor's address.
fn requester(request: &HttpRequest) -> Requester {
    match current_session(request, Timestamp::now()) {
        Ok(session) => Requester::Player(session.player),
        Err(_) => Requester::Visitor(client_key(request)),
    }
}

/// `POST /api/analysis/position`: the line replayed, and the position at its end.
async fn position(body: web::Json<LineRequest>) -> Result<HttpResponse, BoardRouteError> {
    let game = body.into_inner().game()?;
    Ok(HttpResponse::Ok().json(line_json(&game)))
}

/// `POST /api/analysis/values`: the same, with the value of every legal move at its end. The
/// search stops when the client goes away (the server drops a request whose connection closes).
async fn values(
    request: HttpRequest,
    body: web::Json<LineRequest>,
    pool: web::Data<BoardValues>,
) -> Result<HttpResponse, BoardRouteError> {
    let game = body.into_inner().game()?;
    let valued = pool.values(requester(&request), client_key(&request), game.board()).await?;
    let mut body = line_json(&game);
    body["values"] = json!({
        "moves": values_json(&valued.values),
        "best_line": moves_json(&valued.values.best_line),
        "exact_from_empties": pool.options().exact_empties,
        // As deep as the request's node budget let the searches go; none when all are exact.
        "search": valued.searched_depth.map(|depth| format!("depth {depth}")),
    });
    Ok(HttpResponse::Ok().json(body))
}

fn lower(name: &str) -> String {
    name.to_lowercase()
}

fn moves_json(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

fn values_json(values: &PositionValues) -> Vec<Value> {
    values
        .moves
        .iter()
        .map(|value| json!({ "move": value.mv.to_string(), "value": value.value, "exact": value.exact }))
        .collect()
}

/// The wire form of a line (see `docs/protocol.md`).
fn line_json(game: &Game) -> Value {
    let board = game.board();
    let over = board.is_game_over();
    let counts = board.counts();
    let result = board.result().map(|result| {
        let winner = result.winner().map_or_else(|| "draw".to_owned(), |color| lower(color.name()));
        json!({ "black": result.black, "white": result.white, "winner": winner })
    });
    json!({
        "start": game.start().to_string(),
        "moves": moves_json(game.plies()),
        "positions": positions_json(game),
        "side_to_move": (!over).then(|| lower(board.side_to_move().name())),
        "legal_moves": LegalMsg::all(&board),
        "must_pass": board.must_pass(),
        "counts": { "black": counts.black, "white": counts.white },
        "empties": board.empty().count(),
        "over": over,
        "result": result,
    })
}
