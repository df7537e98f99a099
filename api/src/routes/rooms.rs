//! Friend rooms: `POST /api/rooms` makes an invitation link valid for 24 hours; the friend
//! joins it and the game starts with random colours. Rematches in the room swap colours.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{Nickname, RoomCode, Timestamp};
use crate::http::PublicUrl;
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::live::{ChosenControlError, Human, Setup, TimeControl};
use crate::service::{GameHub, Origin, ServiceError, Start};
use crate::storage::{DbError, NewRoom, RoomMember, RoomRow, Store};

/// Joins on this node take turns. A join is a few commits and a game's creation; let through
/// all at once, a crowd of them holds up the moves of games in play when the server is
/// saturated (docs/performance-history.md, "The issue's load on an Intel Xeon with 300 MB of
/// L3"). That a double join starts one game is the store's doing
/// ([`RoomGame::First`](crate::storage::RoomGame::First)), on one node or several.
#[derive(Debug, Default)]
pub struct RoomJoins(tokio::sync::Mutex<()>);

/// How long an invitation link works.
pub const ROOM_LIFETIME_MS: i64 = 24 * 3600 * 1000;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/rooms", web::post().to(create))
        .route("/api/rooms/{code}", web::get().to(show))
        .route("/api/rooms/{code}/join", web::post().to(join));
}

/// Errors of the room routes.
#[derive(Debug, Error)]
pub enum RoomRouteError {
    #[error("there is no such invitation link")]
    NotFound,
    #[error("this invitation link has expired; ask your friend for a new one")]
    Expired,
    #[error("someone else has already joined this game")]
    Taken,
    #[error("this is your own link: send it to a friend")]
    OwnRoom,
    #[error("this invitation was declined")]
    Declined,
    #[error("the request body is not a room: {0}")]
    BadRequest(String),
    #[error(transparent)]
    Control(#[from] ChosenControlError),
    #[error("the server could not save the room; please try again")]
    Unavailable(String),
}

impl From<DbError> for RoomRouteError {
    fn from(error: DbError) -> RoomRouteError {
        match error {
            DbError::NotFound => RoomRouteError::NotFound,
            DbError::Conflict => RoomRouteError::Taken,
            other => RoomRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for RoomRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            RoomRouteError::NotFound => (StatusCode::NOT_FOUND, "room_not_found"),
            RoomRouteError::Expired => (StatusCode::GONE, "room_expired"),
            RoomRouteError::Taken => (StatusCode::CONFLICT, "room_taken"),
            RoomRouteError::OwnRoom => (StatusCode::CONFLICT, "own_room"),
            RoomRouteError::Declined => (StatusCode::FORBIDDEN, "room_declined"),
            RoomRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            RoomRouteError::Control(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_time_control"),
            RoomRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            RoomRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(RoomRouteError);

/// A room as the API shows it.
#[derive(Debug, Serialize)]
struct RoomView {
    code: String,
    /// The invitation link to send to the friend.
    link: String,
    host: String,
    guest: Option<String>,
    expires_at: i64,
    /// The game being played in the room, once the friend has joined (then each rematch).
    game_id: Option<String>,
    games_played: u32,
    /// How the room's games are timed (`3+2`); `None` for the default, 30 s a move.
    control: Option<String>,
    /// Whether the room's games start from an XOT opening.
    xot: bool,
}

fn view(room: &RoomRow, base: &str) -> RoomView {
    RoomView {
        code: room.code.to_string(),
        link: format!("{base}/join/{}", room.code),
        host: room.host.name.clone(),
        guest: room.guest.as_ref().map(|guest| guest.name.clone()),
        expires_at: room.expires_at.0,
        game_id: room.game_id.as_ref().map(ToString::to_string),
        games_played: room.games_played,
        control: room.time_control.map(|control| control.to_string()),
        xot: room.xot,
    }
}

/// The base of links: the public URL, or the address the request came to.
fn base_url(request: &actix_web::HttpRequest) -> String {
    match request.app_data::<web::Data<Option<PublicUrl>>>().and_then(|url| url.as_ref().as_ref()) {
        Some(public) => public.origin().to_owned(),
        None => {
            let info = request.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    }
}

fn parse_code(text: &str) -> Result<RoomCode, RoomRouteError> {
    text.parse().map_err(|_| RoomRouteError::NotFound)
}

async fn load(store: &Store, code: &RoomCode, now: Timestamp) -> Result<RoomRow, RoomRouteError> {
    let room = store.room(code).await?;
    if now >= room.expires_at {
        return Err(RoomRouteError::Expired);
    }
    Ok(room)
}

/// What `POST /api/rooms` may ask for; no body at all asks for the defaults.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoomRequest {
    /// The time control of the room's games, as players write it (`3+2`, `2d`).
    control: Option<String>,
    /// Whether the room's games start from an XOT opening.
    #[serde(default)]
    xot: bool,
}

impl RoomRequest {
    /// The request in `body`: empty, or JSON.
    fn read(body: &[u8]) -> Result<RoomRequest, RoomRouteError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(RoomRequest::default());
        }
        serde_json::from_slice(body).map_err(|error| RoomRouteError::BadRequest(error.to_string()))
    }

    /// The control asked for, if any: one of those offered.
    fn control(&self) -> Result<Option<TimeControl>, ChosenControlError> {
        self.control.as_deref().map(TimeControl::chosen).transpose()
    }
}

/// `POST /api/rooms`: a new invitation link from the signed-in player, its games timed by the
/// control asked for (`{"control": "3+2"}`) or by the default, and from XOT openings when asked
/// (`{"xot": true}`).
async fn create(
    request: actix_web::HttpRequest,
    body: web::Bytes,
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, RoomRouteError> {
    let asked = RoomRequest::read(&body)?;
    let control = asked.control()?;
    let now = Timestamp::now();
    let room = NewRoom {
        code: RoomCode::generate(),
        host: RoomMember { id: session.player.clone(), name: session.nickname.to_string() },
        created_at: now,
        expires_at: now.plus(ROOM_LIFETIME_MS),
        time_control: control,
        xot: asked.xot,
    };
    store.create_room(&room).await?;
    let row = store.room(&room.code).await?;
    Ok(HttpResponse::Created().json(view(&row, &base_url(&request))))
}

/// `GET /api/rooms/{code}`: the room, so the host sees when the friend has joined.
async fn show(
    request: actix_web::HttpRequest,
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, RoomRouteError> {
    let room = load(&store, &parse_code(&path)?, Timestamp::now()).await?;
    Ok(HttpResponse::Ok().json(view(&room, &base_url(&request))))
}

/// `POST /api/rooms/{code}/join`: the friend joins and the first game starts with random
/// colours. Joining again as the same friend answers the room as it is.
async fn join(
    request: actix_web::HttpRequest,
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
    joins: web::Data<RoomJoins>,
) -> Result<HttpResponse, RoomRouteError> {
    let code = parse_code(&path)?;
    let _turn = joins.0.lock().await;
    let room = load(&store, &code, Timestamp::now()).await?;
    if room.host.id == session.player {
        return Err(RoomRouteError::OwnRoom);
    }
    // A link never seats two players one of whom blocked the other; it says no more than that.
    if store.blocked_between(&room.host.id, &session.player).await? {
        return Err(RoomRouteError::Declined);
    }
    // Joining again (another tab, a retry) is fine; another friend is refused (`Taken`).
    let guest = RoomMember { id: session.player.clone(), name: session.nickname.to_string() };
    let room = store.join_room(&code, &guest).await?;
    if room.game_id.is_some() {
        return Ok(HttpResponse::Ok().json(view(&room, &base_url(&request))));
    }
    let host = Human {
        id: room.host.id.clone(),
        name: Nickname::parse(&room.host.name)
            .map_err(|error| RoomRouteError::Unavailable(error.to_string()))?,
    };
    let friend = Human { id: session.player.clone(), name: session.nickname.clone() };
    let (black, white) = if rand::random::<bool>() { (host, friend) } else { (friend, host) };
    // Creating the game makes it the room's first game in the same write. A join that loses
    // the race to start it (a double submit, here or through another node) answers the room
    // with the winner's game, as joining again does.
    let setup = Setup::Friend { black, white };
    let control = room.time_control.unwrap_or(hub.timing().default_control());
    match hub.create((setup, control), Start::new(room.xot), Some(&code), Origin::people()).await {
        Ok(_) | Err(ServiceError::Storage(DbError::Conflict)) => {}
        Err(error) => return Err(RoomRouteError::Unavailable(error.to_string())),
    }
    let room = store.room(&code).await?;
    Ok(HttpResponse::Ok().json(view(&room, &base_url(&request))))
}
