//! Quick (and, with accounts, ranked) games: seekers wait in a queue shared by every node; a
//! pairing loop on each node pairs them, and the node holding a seeker's connection turns the
//! decision into a game.

use std::sync::Arc;
use std::time::Duration;

use outflank_engine::Color;
use outflank_engine::ai::Level;
use outflank_matchmaker::{
    AnyQueue, Decision, Millis, Policy, PoolSeek, Queue, QueueError, QueueKind, SeekerId, Ticket,
};

use crate::accounts::rating::shown;
use crate::domain::{ClientKey, GameId, Nickname, PlayerId, SanctionKind, Timestamp};
use crate::live::{Human, Pool, Setup, TimeControl};
use crate::storage::{DbError, Store};

use super::{GameHub, Origin, ServiceError, Start};

/// How often each node runs the pairing.
const PAIRING_EVERY: Duration = Duration::from_millis(500);
/// The rating a guest is paired by: everyone starts at 1,200.
pub const GUEST_RATING: i32 = 1200;

/// Why a player may not wait in a queue.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SeekRefusal {
    #[error("ranked games need an account: sign in with Google first")]
    AccountRequired,
    #[error("choose your public name before playing ranked games")]
    NameRequired,
    #[error("ranked play is closed to this account: a moderator found engine assistance")]
    Sanctioned,
    #[error("matchmaking is unavailable right now; try again in a moment")]
    Unavailable,
}

/// The game a decision became, from the seeker's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    pub game_id: GameId,
    /// The pool the game is played in: its time control.
    pub pool: Pool,
    /// The opponent's name, or the computer's label.
    pub opponent: String,
    /// The computer's level, when the opponent is the computer.
    pub computer: Option<Level>,
}

/// The matchmaking side of the server.
#[derive(Clone)]
pub struct Matchmaking {
    queue: Arc<AnyQueue>,
    policy: Policy,
    hub: GameHub,
    store: Store,
}

impl std::fmt::Debug for Matchmaking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matchmaking").field("policy", &self.policy).finish_non_exhaustive()
    }
}

/// Matchmaking times as the queue counts them.
pub fn millis(time: Timestamp) -> Millis {
    Millis(time.0)
}

impl Matchmaking {
    /// Matchmaking over `queue`; a seeker alone for `computer_after_ms` gets the computer.
    pub fn new(queue: AnyQueue, computer_after_ms: i64, hub: GameHub, store: Store) -> Matchmaking {
        let policy = Policy { computer_after_ms, ..Policy::default() };
        Matchmaking { queue: Arc::new(queue), policy, hub, store }
    }

    /// The time now, by the clock the games are played by.
    pub fn now(&self) -> Timestamp {
        self.hub.clock().now()
    }

    /// Runs the pairing every half second for as long as the process lives.
    pub fn spawn_pairing_loop(&self) {
        let queue = Arc::clone(&self.queue);
        let policy = self.policy.clone();
        let clock = self.hub.clock().clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(PAIRING_EVERY);
            loop {
                every.tick().await;
                if let Err(error) = queue.run_pairing(millis(clock.now()), &policy).await {
                    tracing::warn!(%error, "pairing failed; retrying");
                }
            }
        });
    }

    /// Puts `player` in `queue`, in each of `pools` at the rating given there (from
    /// [`Matchmaking::ratings_for`]), waiting since `since`.
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn seek(
        &self,
        player: &PlayerId,
        queue: QueueKind,
        pools: &[(Pool, i32)],
        since: Timestamp,
    ) -> Result<(), QueueError> {
        let pools = pools.iter().map(|&(pool, rating)| PoolSeek::new(pool.key(), rating)).collect();
        let mut ticket =
            Ticket::seeking(SeekerId::new(player.as_str()), queue, pools, millis(since));
        // The previous opponent is met again only when nobody else fits; a store that cannot
        // say who it was delays nobody.
        match self.store.last_opponent(player).await {
            Ok(Some(opponent)) => ticket = ticket.with_last_opponent(opponent.as_str()),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, "reading the last opponent failed"),
        }
        // Blocks hold both ways; a store that cannot say waits the seeker out rather than
        // pairing them with someone they blocked.
        let avoided = self.store.avoided_by(player).await.map_err(|error| {
            tracing::warn!(%error, "reading blocks failed");
            QueueError::Backend(error.to_string())
        })?;
        ticket = ticket.avoiding(avoided.iter().map(|other| SeekerId::new(other.as_str())));
        self.queue.join(ticket, millis(self.now())).await
    }

    /// Takes `player` out of every queue.
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn cancel(&self, player: &PlayerId) -> Result<bool, QueueError> {
        self.queue.leave(&SeekerId::new(player.as_str())).await
    }

    /// Keeps `player` waiting; `false` when they no longer are (paired, or dropped).
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn heartbeat(&self, player: &PlayerId) -> Result<bool, QueueError> {
        self.queue.heartbeat(&SeekerId::new(player.as_str()), millis(self.now())).await
    }

    /// The decision made for `player`, if any, taken so it is acted on once.
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn take_decision(&self, player: &PlayerId) -> Result<Option<Decision>, QueueError> {
        self.queue.take_decision(&SeekerId::new(player.as_str())).await
    }

    /// How many are waiting, in every queue.
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn waiting(&self) -> Result<usize, QueueError> {
        let quick = self.queue.waiting(QueueKind::Quick).await?.len();
        let ranked = self.queue.waiting(QueueKind::Ranked).await?.len();
        Ok(quick + ranked)
    }

    /// Who is waiting, in every queue (a seeker whose id is not a player's is left out).
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn waiting_players(&self) -> Result<Vec<PlayerId>, QueueError> {
        let mut players = Vec::new();
        for kind in QueueKind::ALL {
            let tickets = self.queue.waiting(kind).await?;
            players.extend(tickets.iter().filter_map(|ticket| ticket.seeker.as_str().parse().ok()));
        }
        Ok(players)
    }

    /// Every seek waiting, in every queue: the lobby's open seeks.
    ///
    /// # Errors
    /// The queue is unreachable.
    pub async fn open_seeks(&self) -> Result<Vec<Ticket>, QueueError> {
        let mut tickets = Vec::new();
        for kind in QueueKind::ALL {
            tickets.extend(self.queue.waiting(kind).await?);
        }
        Ok(tickets)
    }

    /// How long a seeker waits for a person before getting the computer, in milliseconds.
    pub fn computer_after_ms(&self) -> i64 {
        self.policy.computer_after_ms
    }

    /// Whether a sanction keeps `player` out of ranked games.
    async fn ranked_closed_to(&self, player: &PlayerId) -> Result<bool, SeekRefusal> {
        match self.store.active_sanctions(player).await {
            Ok(kinds) => Ok(kinds.contains(&SanctionKind::Engine)),
            Err(error) => {
                tracing::warn!(%error, "reading sanctions failed");
                Err(SeekRefusal::Unavailable)
            }
        }
    }

    /// The ratings `player` is paired by in each of `pools` of `queue`: their account's there
    /// (ranked games need a named account; `signed_in` says whether the session has one), or
    /// the starting rating for a guest.
    ///
    /// # Errors
    /// [`SeekRefusal`] when the player may not wait in `queue`, or the account cannot be read.
    pub async fn ratings_for(
        &self,
        player: &PlayerId,
        signed_in: bool,
        queue: QueueKind,
        pools: &[Pool],
    ) -> Result<Vec<(Pool, i32)>, SeekRefusal> {
        let account = if signed_in {
            match self.store.account(player).await {
                Ok(account) => match self.store.standings(player).await {
                    Ok(standings) => Some((account, standings)),
                    Err(error) => {
                        tracing::warn!(%error, "reading the ratings failed");
                        return Err(SeekRefusal::Unavailable);
                    }
                },
                Err(DbError::NotFound) => None,
                Err(error) => {
                    tracing::warn!(%error, "reading an account failed");
                    return Err(SeekRefusal::Unavailable);
                }
            }
        } else {
            None
        };
        let standings = match (queue, account) {
            (QueueKind::Ranked, None) => return Err(SeekRefusal::AccountRequired),
            (QueueKind::Ranked, Some((account, _))) if account.name.is_none() => {
                return Err(SeekRefusal::NameRequired);
            }
            (QueueKind::Ranked, Some(_)) if self.ranked_closed_to(player).await? => {
                return Err(SeekRefusal::Sanctioned);
            }
            (_, Some((_, standings))) => standings,
            (QueueKind::Quick, None) => Vec::new(),
        };
        Ok(pools
            .iter()
            .map(|&pool| {
                let rating = standings
                    .iter()
                    .find(|standing| standing.pool == pool)
                    .map_or(GUEST_RATING, |standing| {
                        i32::try_from(shown(standing.rating)).unwrap_or(GUEST_RATING)
                    });
                (pool, rating)
            })
            .collect())
    }

    /// The pool a decision names (a decision from before pools is in the default one).
    fn pool_of(decision: &Decision) -> Pool {
        decision.pool().as_str().parse().unwrap_or(Pool::DEFAULT)
    }

    /// The control a game of `pool` is played under: the default pool's is the configured
    /// move time.
    fn control_for(&self, pool: Pool) -> TimeControl {
        if pool == Pool::DEFAULT { self.hub.timing().default_control() } else { pool.control() }
    }

    /// Turns `decision` into a game for `me` (whose nickname is `name`): a game against the
    /// person found, created once whichever of the two nodes gets here first, or against the
    /// computer, clearly labelled and unrated.
    ///
    /// # Errors
    /// The game cannot be created or a player cannot be read back.
    pub async fn start_game(
        &self,
        decision: &Decision,
        me: &Human,
        client: ClientKey,
    ) -> Result<Paired, ServiceError> {
        let pool = Self::pool_of(decision);
        let control = self.control_for(pool);
        match decision {
            Decision::Match { queue, black, white, pairing, .. } => {
                let black = self.human(black).await?;
                let white = self.human(white).await?;
                let opponent =
                    if black.id == me.id { white.name.to_string() } else { black.name.to_string() };
                let setup = match queue {
                    QueueKind::Quick => Setup::Quick { black, white },
                    QueueKind::Ranked => Setup::Ranked { black, white },
                };
                let game_id = GameId::from_pairing(*pairing);
                let origin = Origin::people();
                // Whichever node creates the game first draws the opening; the other finds
                // the game made and joins it.
                self.hub
                    .create_with_id(
                        game_id.clone(),
                        (setup, control),
                        Start::new(pool.is_xot()),
                        None,
                        origin,
                    )
                    .await?;
                Ok(Paired { game_id, pool, opponent, computer: None })
            }
            Decision::Computer { rating, .. } => {
                let level = Level::for_rating(*rating);
                let color = if rand::random::<bool>() { Color::Black } else { Color::White };
                // The computer keeps the pool's clock, except in the default pool, where it
                // plays untimed as it always has (SPEC §2).
                let timed = pool != Pool::DEFAULT;
                let setup =
                    Setup::Computer { human: me.clone(), color, level, timed, stand_in: true };
                let origin = Origin::stand_in(client);
                let game_id = self
                    .hub
                    .create_within_budget((setup, control), Start::new(pool.is_xot()), origin)
                    .await?;
                let opponent = crate::live::Player::Computer(level).display_name();
                Ok(Paired { game_id, pool, opponent, computer: Some(level) })
            }
        }
    }

    /// A paired seeker as a player, with the nickname their session stored.
    async fn human(&self, seeker: &SeekerId) -> Result<Human, ServiceError> {
        let id: PlayerId = seeker.as_str().parse().map_err(|_| ServiceError::Unavailable)?;
        let row = self.store.player(&id).await?;
        let name = Nickname::parse(&row.nickname).map_err(|_| ServiceError::Unavailable)?;
        Ok(Human { id, name })
    }
}
