//! Following players: `GET /api/follows` lists whom the signed-in account follows, with who
//! is online, the game each is playing and their last results; `POST /api/follows {name}`
//! follows a player and `DELETE /api/follows/{name}` stops. Profiles count followers.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::accounts::PublicName;
use crate::domain::{PlayerId, SanctionKind, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::player_feed::PlayerFeed;
use crate::routes::lobby::{ACTIVE_WITHOUT_CLOCK_MS, Presence};
use crate::routes::players::result_for;
use crate::service::{Matchmaking, Online};
use crate::storage::{DbError, Store};

/// How many of each followed player's last games the list shows.
const RECENT_RESULTS: u32 = 3;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/follows", web::get().to(list))
        .route("/api/follows", web::post().to(follow))
        .route("/api/follows/{name}", web::delete().to(unfollow));
}

/// Errors of the follow routes.
#[derive(Debug, Error)]
pub enum FollowRouteError {
    #[error("sign in with Google to follow players")]
    NotSignedIn,
    #[error("the request body must be {{\"name\": \"...\"}}: {0}")]
    BadRequest(String),
    #[error("there is no player of that name")]
    NotFound,
    #[error("you cannot follow yourself")]
    Yourself,
    #[error("you follow as many players as you can; unfollow one first")]
    TooMany,
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for FollowRouteError {
    fn from(error: DbError) -> FollowRouteError {
        match error {
            DbError::NotFound => FollowRouteError::NotFound,
            DbError::Conflict => FollowRouteError::TooMany,
            other => FollowRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for FollowRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            FollowRouteError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            FollowRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            FollowRouteError::NotFound => (StatusCode::NOT_FOUND, "player_not_found"),
            FollowRouteError::Yourself => (StatusCode::UNPROCESSABLE_ENTITY, "yourself"),
            FollowRouteError::TooMany => (StatusCode::CONFLICT, "too_many_follows"),
            FollowRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            FollowRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(FollowRouteError);

fn signed_in(session: &Session) -> Result<&PlayerId, FollowRouteError> {
    if session.account { Ok(&session.player) } else { Err(FollowRouteError::NotSignedIn) }
}

/// The account called `name`, if it is open.
async fn named(store: &Store, name: &str) -> Result<(PlayerId, String), FollowRouteError> {
    let name = PublicName::parse(name).map_err(|_| FollowRouteError::NotFound)?;
    let account = store.account_by_name(&name).await?;
    if store.active_sanctions(&account.player_id).await?.contains(&SanctionKind::Closed) {
        return Err(FollowRouteError::NotFound);
    }
    let shown = account.name.ok_or(FollowRouteError::NotFound)?;
    Ok((account.player_id, shown))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowBody {
    name: String,
}

/// `POST /api/follows`: follows a player; `201` when new, `200` when followed already.
async fn follow(
    body: web::Bytes,
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, FollowRouteError> {
    let me = signed_in(&session)?;
    let asked: FollowBody = serde_json::from_slice(&body)
        .map_err(|error| FollowRouteError::BadRequest(error.to_string()))?;
    let (followed, name) = named(&store, &asked.name).await?;
    if &followed == me {
        return Err(FollowRouteError::Yourself);
    }
    let added = store.follow(me, &followed, Timestamp::now()).await?;
    let status = if added { StatusCode::CREATED } else { StatusCode::OK };
    Ok(HttpResponse::build(status).json(json!({ "name": name, "following": true })))
}

/// `DELETE /api/follows/{name}`: stops following; `404` when not following.
async fn unfollow(
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, FollowRouteError> {
    let me = signed_in(&session)?;
    let name = PublicName::parse(&path).map_err(|_| FollowRouteError::NotFound)?;
    let followed = store.account_by_name(&name).await?.player_id;
    if !store.unfollow(me, &followed).await? {
        return Err(FollowRouteError::NotFound);
    }
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/follows`: whom the account follows, by name, each with whether they are online,
/// the game they are playing (to watch) and their last results.
async fn list(
    session: Session,
    store: web::Data<Store>,
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    feed: web::Data<PlayerFeed>,
) -> Result<HttpResponse, FollowRouteError> {
    let me = signed_in(&session)?;
    let now = Timestamp::now();
    let following = store.following(me).await?;
    let presence = Presence::now(&online, &matchmaking, &store, now)
        .await
        .map_err(|error| FollowRouteError::Unavailable(error.to_string()))?;
    let playing = store.games_of_followed(me, Timestamp(now.0 - ACTIVE_WITHOUT_CLOCK_MS)).await?;
    let mut listed = Vec::with_capacity(following.len());
    for followed in &following {
        let games = store.recent_games(&followed.followed, RECENT_RESULTS).await?;
        let recent: Vec<Value> = games
            .iter()
            .map(|game| {
                let (color, result) = result_for(game, &followed.followed);
                let opponent =
                    if color == outflank_engine::Color::Black { &game.white } else { &game.black };
                json!({
                    "game_id": game.id,
                    "result": result,
                    "opponent": opponent.name,
                    "finished_at": game.finished_at.map(|at| at.0),
                })
            })
            .collect();
        // A block either way keeps where the other is to themselves.
        let open = !store.blocked_between(me, &followed.followed).await?;
        let game = playing.iter().find(|(player, _)| open && player == &followed.followed);
        let online = presence.includes(&followed.followed) || feed.is_connected(&followed.followed);
        listed.push(json!({
            "name": followed.name,
            "since": followed.since.0,
            "online": open && online,
            "playing": game.map(|(_, id)| id),
            "recent": recent,
        }));
    }
    Ok(HttpResponse::Ok().json(json!({ "following": listed })))
}
