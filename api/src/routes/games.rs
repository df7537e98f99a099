//! Games over HTTP: start one (computer, same device), read it, and import one (a game to
//! continue, or a finished one to replay and analyse); `game_files` has the downloads.

use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use outflank_engine::ai::Level;
use outflank_engine::openings::opening_of_game;
use outflank_engine::record::Record;
use outflank_engine::{Board, Color, Game, GgfGame, ParseGgfError, ParseRecordError};
use serde::{Deserialize, Serialize};
use serde_json::json;
use thiserror::Error;

use crate::accounts::rating::{RatedGame, is_provisional};
use crate::domain::{ClientKey, EndReason, GameId, GameStatus, Mode, Nickname, Timestamp, Winner};
use crate::http::client_address::client_key;
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::json::positions_json;
use crate::live::{BadTimeControl, ChosenControlError, Human, Pool, Setup, TimeControl, ggs_clock};
use crate::routes::players::rated_game_json;
use crate::service::{Analyses, GameHub, Origin, OverBudget, ServiceError, Start};
use crate::storage::{AnalysisRequester, DbError, FinishedGame, GameRecord, SeatRow, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/games", web::post().to(create))
        .route("/api/games/import", web::post().to(import))
        .route("/api/games/{id}", web::get().to(show));
}

/// Errors of the game routes.
#[derive(Debug, Error)]
pub enum GameRouteError {
    #[error("there is no such game")]
    NotFound,
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Record(#[from] ParseRecordError),
    #[error(transparent)]
    Ggf(#[from] ParseGgfError),
    /// A GGF game may start anywhere; the server's games start from the standard position.
    #[error("only games from the standard start can be imported, but this one starts from {0}")]
    ImportStart(String),
    #[error(
        "this game cannot be written as a record: it does not start from the standard position"
    )]
    NotStandard,
    #[error("the game is already over; there is nothing to continue")]
    ImportedGameOver,
    #[error(transparent)]
    Control(#[from] ChosenControlError),
    #[error("the record's Clock line says {0}")]
    RecordClock(BadTimeControl),
    #[error(transparent)]
    TooManyGames(#[from] OverBudget),
    #[error("the server could not save the game; please try again")]
    Unavailable(String),
}

impl From<ServiceError> for GameRouteError {
    fn from(error: ServiceError) -> GameRouteError {
        match error {
            ServiceError::NotFound(_) => GameRouteError::NotFound,
            ServiceError::OverBudget(over) => GameRouteError::TooManyGames(over),
            other => GameRouteError::Unavailable(other.to_string()),
        }
    }
}

impl From<DbError> for GameRouteError {
    fn from(error: DbError) -> GameRouteError {
        match error {
            DbError::NotFound => GameRouteError::NotFound,
            other => GameRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for GameRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            GameRouteError::NotFound => (StatusCode::NOT_FOUND, "game_not_found"),
            GameRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            GameRouteError::Record(_) | GameRouteError::Ggf(_) | GameRouteError::ImportStart(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "bad_record")
            }
            GameRouteError::ImportedGameOver => (StatusCode::UNPROCESSABLE_ENTITY, "game_over"),
            GameRouteError::NotStandard => (StatusCode::CONFLICT, "not_standard"),
            GameRouteError::Control(_) | GameRouteError::RecordClock(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "bad_time_control")
            }
            GameRouteError::TooManyGames(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_games"),
            GameRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            GameRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(GameRouteError);

/// The body of `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
enum NewGame {
    /// Against the computer: `level` 1–10 (or easy/medium/hard), `color` the player's
    /// (black/white); with `xot`, from an XOT opening drawn at random; with `control`, both
    /// sides on a clock (and no takebacks), otherwise untimed.
    Computer {
        level: LevelText,
        color: String,
        #[serde(default)]
        xot: bool,
        control: Option<String>,
    },
    /// Two people on one device.
    SameDevice,
}

/// What creating a game answers.
#[derive(Debug, Serialize)]
struct Created {
    id: String,
    url: String,
    ws: String,
}

fn created(id: &GameId) -> HttpResponse {
    HttpResponse::Created().json(Created {
        id: id.to_string(),
        url: format!("/game/{id}"),
        ws: format!("/api/games/{id}/ws"),
    })
}

/// A level as the client sent it: a number (`6`) or text (`"6"`, `"hard"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum LevelText {
    Number(u64),
    Text(String),
}

fn parse_level(level: &LevelText) -> Result<Level, GameRouteError> {
    let text = match level {
        LevelText::Number(number) => number.to_string(),
        LevelText::Text(text) => text.clone(),
    };
    text.parse().map_err(|error: outflank_engine::ai::ParseLevelError| {
        GameRouteError::BadRequest(error.to_string())
    })
}

fn human(session: &Session) -> Human {
    Human { id: session.player.clone(), name: session.nickname.clone() }
}

/// `POST /api/games`: starts a computer or same-device game for the signed-in player.
async fn create(
    request: HttpRequest,
    session: Session,
    body: web::Json<serde_json::Value>,
    hub: web::Data<GameHub>,
) -> Result<HttpResponse, GameRouteError> {
    let body: NewGame = serde_json::from_value(body.into_inner()).map_err(|error| {
        GameRouteError::BadRequest(format!(
            "expected {{\"mode\": \"computer\" | \"same_device\", ...}}: {error}"
        ))
    })?;
    let (setup, control, start) = match body {
        NewGame::Computer { level, color, xot, control } => {
            let color = match color.as_str() {
                "black" => Color::Black,
                "white" => Color::White,
                other => {
                    return Err(GameRouteError::BadRequest(format!(
                        "\"{other}\" is not a colour; expected black or white"
                    )));
                }
            };
            let level = parse_level(&level)?;
            let control = chosen(control.as_deref())?;
            let setup = Setup::Computer {
                human: human(&session),
                color,
                level,
                timed: control.is_some(),
                stand_in: false,
            };
            let control = control.unwrap_or(hub.timing().default_control());
            (setup, control, Start::new(xot))
        }
        NewGame::SameDevice => {
            let setup = Setup::SameDevice { player: human(&session) };
            let origin = Origin::client(client_key(&request));
            let id = hub
                .create_within_budget(
                    (setup, hub.timing().default_control()),
                    Game::default(),
                    origin,
                )
                .await?;
            return Ok(created(&id));
        }
    };
    let origin = Origin::client(client_key(&request));
    let id = hub.create_within_budget((setup, control), start, origin).await?;
    Ok(created(&id))
}

/// The control a player asked for, if any: one of those offered.
fn chosen(text: Option<&str>) -> Result<Option<TimeControl>, ChosenControlError> {
    text.map(TimeControl::chosen).transpose()
}

/// An imported text, read once: the game, the players a GGF game names (black, white), and
/// the control it was played under.
struct ImportedText {
    game: Game,
    names: [Option<String>; 2],
    control: Option<TimeControl>,
}

/// Reads a GGF game (text starting `(;`), a text record or a move list. The control is a GGF
/// game's `TI` when it is a per-game clock Outflank plays (other GGS clocks are left unread),
/// or a record's `Clock:` line, which must then be a control.
fn read_import(text: &str) -> Result<ImportedText, GameRouteError> {
    if text.trim_start().starts_with("(;") {
        let ggf: GgfGame = text.parse()?;
        let control = ggf.time_control.as_deref().and_then(ggs_clock::read);
        return Ok(ImportedText { names: [ggf.black, ggf.white], control, game: ggf.game });
    }
    let record: Record = text.parse()?;
    let control =
        record.clock().map(str::parse).transpose().map_err(GameRouteError::RecordClock)?;
    Ok(ImportedText { game: record.into_game(), names: [None, None], control })
}

/// The body of `POST /api/games/import`.
#[derive(Debug, Deserialize)]
struct Import {
    /// A text record, a bare move list, or a GGF game (text starting `(;`).
    record: String,
    /// The computer's level for the continuation (not needed for a finished game).
    level: Option<LevelText>,
    /// The continuation's time control (untimed without one).
    control: Option<String>,
}

/// Stores an imported game that is over as a finished, unrated game of the importer's (the
/// players named as in a GGF game when the names pass as nicknames a guest could choose, or
/// "Black" and "White"), timed as the text says, marked imported, and queues its analysis in
/// the line of imports, asked for by the importer from `client`.
async fn import_finished(
    imported: &ImportedText,
    session: &Session,
    client: ClientKey,
    store: &Store,
    analyses: &Analyses,
) -> Result<HttpResponse, GameRouteError> {
    let game = &imported.game;
    // Checked as a chosen nickname is: no markup, no invisible or look-alike characters, and
    // never a name the site shows itself ("Computer", "Deleted player").
    let name = |given: Option<&String>, default: &str| {
        given
            .and_then(|name| Nickname::choose(name.trim()).ok())
            .map_or_else(|| default.to_owned(), |name| name.to_string())
    };
    let black = name(imported.names[0].as_ref(), "Black");
    let white = name(imported.names[1].as_ref(), "White");
    let result = game.result().ok_or(GameRouteError::ImportedGameOver)?;
    let now = Timestamp::now();
    let row = crate::storage::NewGame {
        id: GameId::generate(),
        mode: Mode::SameDevice,
        level: None,
        black: SeatRow { id: Some(session.player.clone()), name: black },
        white: SeatRow { id: Some(session.player.clone()), name: white },
        start_position: game.start(),
        move_time_ms: None,
        room_code: None,
        rated: false,
        created_at: now,
        turn_started_at: None,
        origin: None,
        stand_in: false,
        time_control: imported.control,
        opening: None,
    };
    let winner = match result.winner() {
        Some(Color::Black) => Winner::Black,
        Some(Color::White) => Winner::White,
        None => Winner::Draw,
    };
    let finished = FinishedGame {
        status: GameStatus::Finished,
        winner: Some(winner),
        end_reason: EndReason::Normal,
        black_discs: result.black,
        white_discs: result.white,
        finished_at: now,
        rated: None,
        review: None,
    };
    store.create_finished_game(&row, game.plies(), &finished).await?;
    let id = row.id;
    // The game stands even when the analysis must wait: it can be asked for later.
    let by = AnalysisRequester { player: session.player.clone(), client };
    if let Err(error) = analyses.request(&id, Some(&by)).await {
        tracing::info!(game = %id, %error, "imported game not queued for analysis");
    }
    Ok(HttpResponse::Created().json(json!({
        "id": id.to_string(),
        "url": format!("/replay/{id}"),
        "finished": true,
        "analysis": format!("/api/games/{id}/analysis"),
    })))
}

/// `POST /api/games/import`: replays a record or a GGF game and continues it against the
/// computer, the player taking the side to move; a game already over on the board is stored
/// as finished, to be replayed and analysed. Nothing is created when a move is bad.
async fn import(
    request: HttpRequest,
    session: Session,
    body: web::Json<Import>,
    hub: web::Data<GameHub>,
    store: web::Data<Store>,
    analyses: web::Data<Analyses>,
) -> Result<HttpResponse, GameRouteError> {
    let imported = read_import(&body.record)?;
    let control = chosen(body.control.as_deref())?;
    if imported.game.start() != Board::start() {
        return Err(GameRouteError::ImportStart(imported.game.start().to_string()));
    }
    if imported.game.is_over() {
        let client = client_key(&request);
        return import_finished(&imported, &session, client, &store, &analyses).await;
    }
    let game = imported.game;
    let level = parse_level(body.level.as_ref().ok_or_else(|| {
        GameRouteError::BadRequest("a game to continue needs the computer's \"level\"".into())
    })?)?;
    let setup = Setup::Computer {
        human: human(&session),
        color: game.side_to_move(),
        level,
        timed: control.is_some(),
        stand_in: false,
    };
    let control = control.unwrap_or(hub.timing().default_control());
    let id = hub
        .create_within_budget((setup, control), game, Origin::client(client_key(&request)))
        .await?;
    Ok(created(&id))
}

pub(super) fn parse_id(text: &str) -> Result<GameId, GameRouteError> {
    text.parse().map_err(|_| GameRouteError::NotFound)
}

/// `GET /api/games/{id}`: players, status, result, every ply, and the position after each, so
/// a client can replay the game without knowing the rules.
async fn show(
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, GameRouteError> {
    let record = store.load_game(&parse_id(&path)?).await?;
    let moves = record.moves.iter().map(|row| row.mv);
    let game = Game::from_moves(record.game.start_position, moves)
        .map_err(|error| GameRouteError::Unavailable(error.to_string()))?;
    let positions = positions_json(&game);
    let rating = if record.game.rated { store.game_rating(&record.game.id).await? } else { None };
    let mut body = game_json(&record);
    body["positions"] = positions;
    body["opening_name"] = json!(opening_of_game(&game).map(|opening| opening.name()));
    body["ratings"] = shown_ratings(&store, &record, rating.as_ref()).await?;
    body["rating_changes"] = rating.as_ref().map_or(serde_json::Value::Null, rated_game_json);
    Ok(HttpResponse::Ok().json(body))
}

/// Each side's rating as the board shows it beside the name, and the pool it is from: in a
/// rated game the rating the game was played at; otherwise the account's rating now in the
/// game's nearest pool ([`Pool::nearest`]). Null for the computer (its name says its level's
/// rating) and for guests, who have none.
async fn shown_ratings(
    store: &Store,
    record: &GameRecord,
    rated: Option<&RatedGame>,
) -> Result<serde_json::Value, GameRouteError> {
    let game = &record.game;
    let pool = Pool::nearest(game.control(), game.opening.is_some());
    let mut sides = serde_json::Map::new();
    for (key, color, seat) in
        [("black", Color::Black, &game.black), ("white", Color::White, &game.white)]
    {
        let change =
            rated.map(|rated| if color == Color::Black { &rated.black } else { &rated.white });
        let shown = match (change, &seat.id) {
            (Some(change), _) => {
                Some((change.before, is_provisional(change.game_number.saturating_sub(1))))
            }
            (None, Some(id)) => store
                .account_standing(id, pool)
                .await?
                .map(|standing| (standing.rating, is_provisional(standing.rated_games))),
            (None, None) => None,
        };
        let value = shown.map_or(serde_json::Value::Null, |(rating, provisional)| {
            json!({ "rating": rating.round() as i64, "provisional": provisional })
        });
        sides.insert(key.to_owned(), value);
    }
    sides.insert("pool".to_owned(), json!(pool.key()));
    Ok(serde_json::Value::Object(sides))
}

fn game_json(record: &GameRecord) -> serde_json::Value {
    let game = &record.game;
    let seat = |seat: &crate::storage::SeatRow| json!({ "name": seat.name, "computer": seat.id.is_none() });
    json!({
        "id": game.id.to_string(),
        "mode": game.mode.as_str(),
        "level": game.level.map(Level::number),
        "control": game.control().map(|control| control.to_string()),
        "status": game.status.as_str(),
        "players": { "black": seat(&game.black), "white": seat(&game.white) },
        "result": game.end_reason.map(|reason| json!({
            "winner": game.winner.map(|w| w.as_str()),
            "reason": reason.as_str(),
            "black": game.black_discs,
            "white": game.white_discs,
        })),
        "start": game.start_position.to_string(),
        "moves": record.moves.iter().map(|row| row.mv.to_string()).collect::<Vec<_>>(),
        "created_at": game.created_at.0,
        "finished_at": game.finished_at.map(|t| t.0),
        "rated": game.rated,
        "move_time_ms": game.move_time_ms,
    })
}
