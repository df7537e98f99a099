//! Challenges between accounts: `POST /api/challenges` challenges a player by public name,
//! `GET /api/challenges` lists the open ones received and sent, and
//! `POST /api/challenges/{id}/accept`, `…/decline` and `…/cancel` answer one. The challenged
//! player hears of it at once on every page (`/api/me/ws`) and in their notifications; an
//! accepted challenge starts its game, rated in its pool when asked.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use thiserror::Error;

use crate::accounts::PublicName;
use crate::domain::{
    ChallengeId, ChallengeStatus, ColourChoice, GameId, Nickname, NotificationKind, PlayerId,
    SanctionKind, Timestamp,
};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::json::social::{ChallengeLists, challenge as shown};
use crate::live::{ChosenControlError, Human, Pool, Setup, TimeControl};
use crate::notifier::Notifier;
use crate::player_feed::PlayerFeed;
use crate::service::{GameHub, Origin, Start};
use crate::social::{Challenge, ChallengeAnswer, ChallengeError, Party, PlayerEvent};
use crate::storage::{ChallengeRow, DbError, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/challenges", web::post().to(create))
        .route("/api/challenges", web::get().to(list))
        .route("/api/challenges/{id}/accept", web::post().to(accept))
        .route("/api/challenges/{id}/decline", web::post().to(decline))
        .route("/api/challenges/{id}/cancel", web::post().to(cancel));
}

/// Errors of the challenge routes.
#[derive(Debug, Error)]
pub enum ChallengeRouteError {
    #[error("sign in with Google to challenge players")]
    NotSignedIn,
    #[error("choose your public name first")]
    NameFirst,
    #[error("the request body is not a challenge: {0}")]
    BadRequest(String),
    #[error(transparent)]
    Control(#[from] ChosenControlError),
    #[error("you cannot challenge yourself")]
    Yourself,
    #[error("there is no player of that name")]
    PlayerNotFound,
    #[error(
        "you have {} challenges waiting already; cancel one first",
        crate::social::MAX_OPEN_CHALLENGES
    )]
    TooMany,
    #[error("rated games are closed to this account")]
    RankedClosed,
    #[error("no rating pool plays this control: choose a pool's control, or play it unrated")]
    NoPool,
    #[error("there is no such challenge")]
    NotFound,
    #[error("{0}")]
    Answer(ChallengeError),
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for ChallengeRouteError {
    fn from(error: DbError) -> ChallengeRouteError {
        match error {
            DbError::NotFound => ChallengeRouteError::NotFound,
            other => ChallengeRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for ChallengeRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ChallengeRouteError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            ChallengeRouteError::NameFirst => (StatusCode::FORBIDDEN, "name_required"),
            ChallengeRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ChallengeRouteError::Control(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "bad_time_control")
            }
            ChallengeRouteError::Yourself => (StatusCode::UNPROCESSABLE_ENTITY, "self_challenge"),
            ChallengeRouteError::PlayerNotFound => (StatusCode::NOT_FOUND, "player_not_found"),
            ChallengeRouteError::TooMany => (StatusCode::TOO_MANY_REQUESTS, "too_many_challenges"),
            ChallengeRouteError::RankedClosed => (StatusCode::FORBIDDEN, "ranked_closed"),
            ChallengeRouteError::NoPool => (StatusCode::UNPROCESSABLE_ENTITY, "no_rating_pool"),
            ChallengeRouteError::NotFound => (StatusCode::NOT_FOUND, "challenge_not_found"),
            ChallengeRouteError::Answer(ChallengeError::NotYours) => {
                (StatusCode::FORBIDDEN, "not_your_challenge")
            }
            ChallengeRouteError::Answer(ChallengeError::Expired) => {
                (StatusCode::GONE, "challenge_expired")
            }
            ChallengeRouteError::Answer(ChallengeError::Closed(_)) => {
                (StatusCode::CONFLICT, "challenge_closed")
            }
            ChallengeRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            ChallengeRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(ChallengeRouteError);

/// What `POST /api/challenges` takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeRequest {
    /// The challenged player's public name.
    to: String,
    /// The game's control as players write it (`3+2`, `2d`); the default without.
    control: Option<String>,
    #[serde(default = "random_colour")]
    colour: ColourChoice,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    xot: bool,
}

fn random_colour() -> ColourChoice {
    ColourChoice::Random
}

/// The signed-in account's player and public name.
async fn me(session: &Session, store: &Store) -> Result<(PlayerId, String), ChallengeRouteError> {
    if !session.account {
        return Err(ChallengeRouteError::NotSignedIn);
    }
    let account = store.account(&session.player).await.map_err(|error| match error {
        DbError::NotFound => ChallengeRouteError::NotSignedIn,
        other => other.into(),
    })?;
    let name = account.name.ok_or(ChallengeRouteError::NameFirst)?;
    Ok((account.player_id, name))
}

/// Whether `player` may play rated games (no engine sanction in force).
async fn may_play_rated(store: &Store, player: &PlayerId) -> Result<bool, ChallengeRouteError> {
    Ok(!store.active_sanctions(player).await?.contains(&SanctionKind::Engine))
}

/// `POST /api/challenges`: challenges a player. A challenge between two players one of whom
/// blocked the other is answered `declined` at once, and the other never hears of it.
async fn create(
    body: web::Bytes,
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
    notifier: web::Data<Notifier>,
) -> Result<HttpResponse, ChallengeRouteError> {
    let (me, my_name) = me(&session, &store).await?;
    let asked: ChallengeRequest = serde_json::from_slice(&body)
        .map_err(|error| ChallengeRouteError::BadRequest(error.to_string()))?;
    let control = asked.control.as_deref().map(TimeControl::chosen).transpose()?;
    let played = control.unwrap_or(hub.timing().default_control());
    if asked.rated && Pool::of(played, asked.xot).is_none() {
        return Err(ChallengeRouteError::NoPool);
    }
    let name = PublicName::parse(&asked.to).map_err(|_| ChallengeRouteError::PlayerNotFound)?;
    let target = store.account_by_name(&name).await.map_err(|error| match error {
        DbError::NotFound => ChallengeRouteError::PlayerNotFound,
        other => other.into(),
    })?;
    let (Some(target_name), target) = (target.name, target.player_id) else {
        return Err(ChallengeRouteError::PlayerNotFound);
    };
    if target == me {
        return Err(ChallengeRouteError::Yourself);
    }
    let sanctions = store.active_sanctions(&target).await?;
    if sanctions.contains(&SanctionKind::Closed) {
        return Err(ChallengeRouteError::PlayerNotFound);
    }
    if asked.rated
        && (!may_play_rated(&store, &me).await? || sanctions.contains(&SanctionKind::Engine))
    {
        return Err(ChallengeRouteError::RankedClosed);
    }
    let now = hub.clock().now();
    let blocked = store.blocked_between(&me, &target).await?;
    let challenge = Challenge {
        id: ChallengeId::generate(),
        from: my_name,
        to: target_name,
        control,
        colour: asked.colour,
        rated: asked.rated,
        xot: asked.xot,
        status: if blocked { ChallengeStatus::Declined } else { ChallengeStatus::Open },
        created_at: now,
        expires_at: Challenge::expiry(control, now),
        game_id: None,
    };
    let row = ChallengeRow { challenge, challenger: me, challenged: target };
    if !store.create_challenge(&row).await? {
        return Err(ChallengeRouteError::TooMany);
    }
    if !blocked {
        let notice = NotificationKind::ChallengeReceived;
        notify(&notifier, &row.challenged, notice, &row.challenge, now).await;
        notifier
            .feed()
            .tell(&row.challenged, &PlayerEvent::Challenge { challenge: row.challenge.clone() });
    }
    notifier
        .feed()
        .tell(&row.challenger, &PlayerEvent::Challenge { challenge: row.challenge.clone() });
    Ok(HttpResponse::Created().json(shown(&row.challenge, now)))
}

/// Notifies `to` of `kind` about `challenge` as it stands at `now`.
async fn notify(
    notifier: &Notifier,
    to: &PlayerId,
    kind: NotificationKind,
    challenge: &Challenge,
    now: Timestamp,
) {
    let data = serde_json::to_value(shown(challenge, now)).unwrap_or_default();
    notifier.notify(to, kind, data, now).await;
}

/// `GET /api/challenges`: the signed-in player's open challenges, received and sent.
async fn list(
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
) -> Result<HttpResponse, ChallengeRouteError> {
    let (me, _) = me(&session, &store).await?;
    let now = hub.clock().now();
    let rows = store.open_challenges(&me, now).await?;
    Ok(HttpResponse::Ok().json(ChallengeLists::of(&me, &rows, now)))
}

/// The challenge of `path` with the side the signed-in player is on; someone else's is not
/// found.
async fn load(
    store: &Store,
    path: &str,
    session: &Session,
) -> Result<(ChallengeRow, Party), ChallengeRouteError> {
    let (me, _) = me(session, store).await?;
    let id: ChallengeId = path.parse().map_err(|_| ChallengeRouteError::NotFound)?;
    let row = store.challenge(&id).await?;
    let party = if row.challenger == me {
        Party::Challenger
    } else if row.challenged == me {
        Party::Challenged
    } else {
        return Err(ChallengeRouteError::NotFound);
    };
    Ok((row, party))
}

/// Stores `answer` to `row` at `now`, or says why it came too late: another answer or its
/// expiry.
async fn answer(
    store: &Store,
    row: &mut ChallengeRow,
    (answer, party): (ChallengeAnswer, Party),
    game: Option<&GameId>,
    now: Timestamp,
) -> Result<Timestamp, ChallengeRouteError> {
    let status = row.challenge.answer(answer, party, now).map_err(ChallengeRouteError::Answer)?;
    if !store.answer_challenge(&row.challenge.id, status, now, game).await? {
        let stored = store.challenge(&row.challenge.id).await?;
        let late = stored.challenge.answer(answer, party, now).err();
        return Err(ChallengeRouteError::Answer(late.unwrap_or(ChallengeError::Expired)));
    }
    row.challenge.status = status;
    row.challenge.game_id = game.cloned();
    Ok(now)
}

/// Tells both players that `row` changed.
fn tell_both(feed: &PlayerFeed, row: &ChallengeRow) {
    let event = PlayerEvent::Challenge { challenge: row.challenge.clone() };
    feed.tell(&row.challenger, &event);
    feed.tell(&row.challenged, &event);
}

/// `POST /api/challenges/{id}/accept`: the challenged player accepts; the game starts and both
/// players are sent to it.
async fn accept(
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
    notifier: web::Data<Notifier>,
) -> Result<HttpResponse, ChallengeRouteError> {
    let (mut row, party) = load(&store, &path, &session).await?;
    // A check before the answer is stored: a block or a sanction since the challenge was made.
    row.challenge
        .answer(ChallengeAnswer::Accept, party, hub.clock().now())
        .map_err(ChallengeRouteError::Answer)?;
    if store.blocked_between(&row.challenger, &row.challenged).await? {
        return decline_for(&store, &notifier, row, party, hub.clock().now()).await;
    }
    if row.challenge.rated
        && !(may_play_rated(&store, &row.challenger).await?
            && may_play_rated(&store, &row.challenged).await?)
    {
        return Err(ChallengeRouteError::RankedClosed);
    }
    let challenger = Human {
        id: row.challenger.clone(),
        name: Nickname::parse(&row.challenge.from)
            .map_err(|error| ChallengeRouteError::Unavailable(error.to_string()))?,
    };
    let challenged = Human { id: row.challenged.clone(), name: session.nickname.clone() };
    let (black, white) = if row.challenge.challenger_is_black(rand::random()) {
        (challenger, challenged)
    } else {
        (challenged, challenger)
    };
    let setup = if row.challenge.rated {
        Setup::Ranked { black, white }
    } else {
        Setup::Friend { black, white }
    };
    let control = row.challenge.control.unwrap_or(hub.timing().default_control());
    let game = GameId::generate();
    let accepting = (ChallengeAnswer::Accept, party);
    let now = answer(&store, &mut row, accepting, Some(&game), hub.clock().now()).await?;
    let start = Start::new(row.challenge.xot);
    if let Err(error) =
        hub.create_with_id(game, (setup, control), start, None, Origin::people()).await
    {
        store.reopen_challenge(&row.challenge.id).await?;
        return Err(ChallengeRouteError::Unavailable(error.to_string()));
    }
    let kind = NotificationKind::ChallengeAccepted;
    notify(&notifier, &row.challenger, kind, &row.challenge, now).await;
    tell_both(notifier.feed(), &row);
    Ok(HttpResponse::Ok().json(shown(&row.challenge, now)))
}

/// Declines `row` for its challenged player and tells both.
async fn decline_for(
    store: &Store,
    notifier: &Notifier,
    mut row: ChallengeRow,
    party: Party,
    now: Timestamp,
) -> Result<HttpResponse, ChallengeRouteError> {
    let now = answer(store, &mut row, (ChallengeAnswer::Decline, party), None, now).await?;
    let kind = NotificationKind::ChallengeDeclined;
    notify(notifier, &row.challenger, kind, &row.challenge, now).await;
    tell_both(notifier.feed(), &row);
    Ok(HttpResponse::Ok().json(shown(&row.challenge, now)))
}

/// `POST /api/challenges/{id}/decline`: the challenged player turns it down.
async fn decline(
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
    notifier: web::Data<Notifier>,
) -> Result<HttpResponse, ChallengeRouteError> {
    let (row, party) = load(&store, &path, &session).await?;
    decline_for(&store, &notifier, row, party, hub.clock().now()).await
}

/// `POST /api/challenges/{id}/cancel`: its sender withdraws it.
async fn cancel(
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
    hub: web::Data<GameHub>,
    notifier: web::Data<Notifier>,
) -> Result<HttpResponse, ChallengeRouteError> {
    let (mut row, party) = load(&store, &path, &session).await?;
    let now =
        answer(&store, &mut row, (ChallengeAnswer::Cancel, party), None, hub.clock().now()).await?;
    tell_both(notifier.feed(), &row);
    Ok(HttpResponse::Ok().json(shown(&row.challenge, now)))
}
