//! Building and running the server: storage, session keys, then the HTTP listener, and the
//! internal one of `/metrics` and `/readyz` when `OUTFLANK_METRICS_ADDR` asks for it.

use std::net::{SocketAddr, TcpListener};
use std::num::NonZeroU32;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{App, HttpServer, middleware, web};

use crate::lobby_feed::LobbyFeed;
use crate::notifier::Notifier;
use crate::player_feed::PlayerFeed;
use crate::push_sender::PushSender;
use crate::web_push::VapidKey;
use thiserror::Error;

use crate::cluster::Cluster;
use crate::configuration::Settings;
use crate::domain::Timestamp;
use crate::http::origin::{AllowedOrigins, check_origin};
use crate::http::rate_limit::RateLimits;
use crate::identity::revocations::Revocations;
use crate::identity::session::{BadSecret, SessionKeys};
use crate::live::Timing;
use crate::metrics::Metrics;
use crate::routes::{self, Probes};
use crate::service::{
    Analyses, BoardValues, Clock, GameHub, LiveSearches, Matchmaking, Online, Router, SearchPool,
};
use crate::stop_watchdog::{self, Step};
use crate::storage::{DbError, Store};
use crate::ws::caps::OpenSockets;
use outflank_matchmaker::{AnyQueue, QueueError};

/// Settings key of the generated session secret.
const SESSION_SECRET_KEY: &str = "session_secret";
/// Where the generated Web Push key is kept when none is configured.
const VAPID_KEY: &str = "vapid_private_key";

/// The Web Push key: configured, or generated once and kept in the database like the session
/// secret, so every node and every restart signs with the key browsers subscribed with.
async fn vapid_key(settings: &Settings, store: &Store) -> Result<VapidKey, StartupError> {
    if let Some(configured) = &settings.vapid_private_key {
        return VapidKey::parse(configured.expose())
            .map_err(|error| StartupError::Vapid(error.to_string()));
    }
    let generated = loop {
        if let Some((_, private)) = VapidKey::from_random(rand::random()) {
            break private;
        }
    };
    let kept = store.setting_or_insert(VAPID_KEY, &generated).await?;
    VapidKey::parse(&kept).map_err(|error| StartupError::Vapid(error.to_string()))
}

/// The contact push services see: configured, else the public URL, else a local address.
fn vapid_subject(settings: &Settings) -> String {
    match (&settings.vapid_subject, &settings.public_url) {
        (Some(subject), _) => subject.clone(),
        (None, Some(public)) if public.is_https() => public.origin().to_owned(),
        _ => "mailto:admin@localhost".to_owned(),
    }
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum StartupError {
    #[error("cannot listen on {address}: {source}")]
    Bind { address: SocketAddr, source: std::io::Error },
    #[error("cannot open the database: {0}")]
    Store(#[from] DbError),
    #[error(transparent)]
    Secret(#[from] BadSecret),
    #[error("cannot set up sign-in: {0}")]
    SignIn(#[from] crate::identity::oidc::OidcError),
    #[error("cannot join the other nodes through Redis: {0}")]
    Cluster(#[from] crate::cluster::ClusterError),
    #[error("cannot reach the matchmaking queue: {0}")]
    Queue(#[from] QueueError),
    #[error("cannot start the threads that review games and value the analysis board: {0}")]
    Threads(std::io::Error),
    #[error("the stored Web Push key is not one: {0}")]
    Vapid(String),
}

/// A bound, not yet running server. Binding first lets port 0 work and report the real port.
pub struct Application {
    address: SocketAddr,
    server: Server,
    /// The internal listener of `/metrics` and `/readyz`, with its address, when there is one.
    probes: Option<(SocketAddr, Server)>,
    store: Store,
    hub: GameHub,
    live_searches: LiveSearches,
}

/// Stops a running server gracefully: players are told, game tasks end (everything they
/// acknowledged is already stored), then the listener closes.
#[derive(Clone)]
pub struct Stopper {
    hub: GameHub,
    handle: ServerHandle,
    probes: Option<ServerHandle>,
}

impl std::fmt::Debug for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stopper").finish_non_exhaustive()
    }
}

impl Stopper {
    pub async fn stop(&self) {
        self.hub.shutdown();
        // Give sockets a moment to pass the notice on before the workers stop.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        self.handle.stop(true).await;
        if let Some(probes) = &self.probes {
            probes.stop(true).await;
        }
    }

    /// Stops at once, without waiting for anything: open connections are dropped and players
    /// are not told. For a server whose owner has gone, such as a test that ended.
    pub fn stop_now(&self) {
        // The command is sent before the returned future is first polled.
        drop(self.handle.stop(false));
        if let Some(probes) = &self.probes {
            drop(probes.stop(false));
        }
    }
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application").field("address", &self.address).finish_non_exhaustive()
    }
}

impl Application {
    /// Opens the store (running migrations), loads the session secret, and binds the listener.
    ///
    /// # Errors
    /// A [`StartupError`] saying which step failed.
    pub async fn build(settings: &Settings) -> Result<Application, StartupError> {
        Application::build_with_clock(settings, Clock::System).await
    }

    /// [`Application::build`] with live games played by `clock` (a manual one in tests).
    ///
    /// # Errors
    /// A [`StartupError`] saying which step failed.
    pub async fn build_with_clock(
        settings: &Settings,
        clock: Clock,
    ) -> Result<Application, StartupError> {
        let store = Store::connect(settings.database_url.expose()).await?;
        // Puzzles made under older, looser rules are never served: they go, in the background.
        let swept = store.clone();
        actix_web::rt::spawn(async move {
            match crate::service::puzzles::sweep(&swept).await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(removed, "puzzles not worth solving were removed"),
                Err(error) => tracing::warn!(%error, "the puzzles could not be swept"),
            }
        });
        let secret = match &settings.session_secret {
            Some(secret) => secret.expose().to_owned(),
            None => store.setting_or_insert(SESSION_SECRET_KEY, &random_secret()).await?,
        };
        let secure = settings.public_url.as_ref().is_some_and(|url| url.is_https());
        let keys = web::Data::new(SessionKeys::new(secret.as_bytes(), secure)?);
        let revocations = Revocations::default();
        let since = revocations.load(&store, Timestamp::now()).await?;
        revocations.spawn_refresh(store.clone(), since);
        let revocations = web::Data::new(revocations);

        let bind_error = |source| StartupError::Bind { address: settings.address, source };
        let listener = TcpListener::bind(settings.address).map_err(bind_error)?;
        let address = listener.local_addr().map_err(bind_error)?;
        let origins =
            web::Data::new(AllowedOrigins::new(settings.public_url.clone(), address.port()));
        let store_data = web::Data::new(store.clone());
        let public_url = web::Data::new(settings.public_url.clone());
        let timing = Timing { move_time_ms: settings.move_time_ms_i64(), ..Timing::default() };
        let sign_in = web::Data::new(routes::auth::SignIn(
            settings.oidc.clone().map(crate::identity::oidc::Oidc::new).transpose()?,
        ));
        let metrics = Metrics::new();
        let pool = SearchPool::for_this_machine(metrics.clone());
        let cluster = match &settings.redis_url {
            Some(url) => Some(Cluster::connect(url.expose(), &settings.redis_prefix).await?),
            None => None,
        };
        let shared_sockets = cluster.as_ref().map(|(cluster, _)| cluster.clone());
        let router = match &cluster {
            Some((cluster, _)) => Router::Cluster(cluster.clone()),
            None => Router::Alone,
        };
        let live_searches = pool.live_searches();
        let counted_searches = live_searches.clone();
        let hub = GameHub::new(store.clone(), pool, (timing, clock), metrics.clone(), router);
        // Finished games are analysed here, claimed under this node's name.
        let node = match &cluster {
            Some((cluster, _)) => cluster.node().to_owned(),
            None => format!("local-{}", crate::domain::GameId::generate()),
        };
        let board_values =
            BoardValues::start(settings.board_values(), live_searches.clone(), metrics.clone())
                .map_err(StartupError::Threads)?;
        let board_values = web::Data::new(board_values);
        let clock = hub.clock().clone();
        let analyses =
            Analyses::start(store.clone(), live_searches, settings.analysis(), node, clock)
                .map_err(StartupError::Threads)?;
        hub.analyse_finished_games(analyses.clone());
        let analyses = web::Data::new(analyses);
        if let Some((cluster, requests)) = cluster {
            tracing::info!(node = cluster.node(), "sharing games with other nodes through Redis");
            crate::service::spawn_serving(hub.clone(), cluster, requests);
            hub.spawn_lease_renewal();
        }
        hub.spawn_abandoned_sweep();
        // A game that cannot be restored now is started when someone opens it.
        match hub.restore_live_games().await {
            Ok(restored) => tracing::info!(restored, "live games restored"),
            Err(error) => tracing::error!(%error, "live games not restored at start-up"),
        }
        let hub_data = web::Data::new(hub.clone());
        let room_joins = web::Data::new(routes::rooms::RoomJoins::default());
        let redis_url = settings.redis_url.as_ref().map(|url| url.expose().to_owned());
        let queue =
            AnyQueue::from_url(redis_url.as_deref(), &format!("{}:queue", settings.redis_prefix))
                .await?;
        let computer_after_ms = i64::try_from(settings.computer_after_ms).unwrap_or(i64::MAX);
        let matchmaking = Matchmaking::new(queue, computer_after_ms, hub.clone(), store.clone());
        matchmaking.spawn_pairing_loop();
        let matchmaking = web::Data::new(matchmaking);
        let sockets_per_address =
            usize::try_from(settings.sockets_per_address).unwrap_or(usize::MAX);
        let online = Online::new(sockets_per_address);
        let player_feed = PlayerFeed::new(shared_sockets.clone());
        let push = PushSender::new(
            vapid_key(settings, &store).await?,
            vapid_subject(settings),
            store.clone(),
            settings.push_local_endpoints,
        );
        let notifier = Notifier::new(store.clone(), player_feed.clone(), push.clone());
        crate::follow_notices::spawn(&hub, store.clone(), notifier.clone());
        crate::turn_notices::spawn(&hub, store.clone(), notifier.clone());
        let player_feed = web::Data::new(player_feed);
        let notifier = web::Data::new(notifier);
        let push = web::Data::new(push);
        let open_sockets = OpenSockets::new(online.clone(), shared_sockets);
        actix_web::rt::spawn(open_sockets.clone().recount_after_reconnections());
        let open_sockets = web::Data::new(open_sockets);
        let lobby_feed = LobbyFeed::default();
        lobby_feed.spawn(
            online.clone(),
            matchmaking.get_ref().clone(),
            store.clone(),
            LobbyFeed::EVERY,
        );
        let lobby_feed = web::Data::new(lobby_feed);
        let online = web::Data::new(online);
        let trusted_proxies = web::Data::new(settings.trusted_proxies.clone());
        let rate_limits = web::Data::new(
            RateLimits::new(
                NonZeroU32::new(settings.rate_per_second).unwrap_or(NonZeroU32::MIN),
                NonZeroU32::new(settings.rate_burst).unwrap_or(NonZeroU32::MIN),
            )
            .behind(settings.trusted_proxies.clone()),
        );
        let idle_limits = rate_limits.clone();
        actix_web::rt::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                every.tick().await;
                idle_limits.forget_idle();
            }
        });
        let metrics = web::Data::new(metrics);
        let probes = match settings.metrics_address {
            Some(wanted) => Some(probes_server(wanted, &store_data, &metrics, &matchmaking)?),
            None => None,
        };
        let probes_here = if probes.is_some() { Probes::Internal } else { Probes::Public };
        let admission = web::Data::new(settings.admission(store.write_latency()));
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let workers = settings.http_workers(cores);

        let server = HttpServer::new(move || {
            // The factory runs once on each worker: each watches its own event loop.
            admission.spawn_probe();
            App::new()
                .app_data(store_data.clone())
                .app_data(hub_data.clone())
                .app_data(analyses.clone())
                .app_data(board_values.clone())
                .app_data(room_joins.clone())
                .app_data(matchmaking.clone())
                .app_data(online.clone())
                .app_data(open_sockets.clone())
                .app_data(lobby_feed.clone())
                .app_data(player_feed.clone())
                .app_data(notifier.clone())
                .app_data(push.clone())
                .app_data(metrics.clone())
                .app_data(rate_limits.clone())
                .app_data(trusted_proxies.clone())
                .app_data(public_url.clone())
                .app_data(keys.clone())
                .app_data(revocations.clone())
                .app_data(sign_in.clone())
                .app_data(origins.clone())
                .app_data(crate::http::error::json_config())
                .app_data(admission.clone())
                .wrap(middleware::from_fn(crate::http::admission::admit_new_games))
                .wrap(middleware::from_fn(check_origin))
                .wrap(middleware::from_fn(crate::http::rate_limit::limit_rate))
                .wrap(middleware::from_fn(crate::http::security_headers::add_security_headers))
                // Pages, scripts, styles and JSON go out compressed (brotli or gzip, as the
                // client accepts); a socket's upgrade is left alone.
                .wrap(middleware::Compress::default())
                .wrap(middleware::from_fn(crate::http::tracing_span::request_span))
                .configure(crate::ws::configure)
                .configure(|config| routes::configure(config, probes_here))
        })
        .on_connect(send_at_once)
        // A client that closes its side of the connection has gone: its request is dropped
        // rather than worked to the end (the analysis board's search stops with it).
        .h1_allow_half_closed(false)
        .workers(workers)
        .disable_signals()
        .shutdown_timeout(stop_watchdog::REQUESTS_LIMIT.as_secs())
        .listen(listener)
        .map_err(bind_error)?
        .run();
        Ok(Application { address, server, probes, store, hub, live_searches: counted_searches })
    }

    /// The address actually bound.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The address the internal listener of `/metrics` and `/readyz` bound, if there is one.
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.probes.as_ref().map(|(address, _)| *address)
    }

    /// The live computer searches that background work (reviews, the analysis board) gives
    /// way to: a test may count one as running to hold that work where it is.
    pub fn live_searches(&self) -> LiveSearches {
        self.live_searches.clone()
    }

    /// What stops this server gracefully.
    pub fn stopper(&self) -> Stopper {
        Stopper {
            hub: self.hub.clone(),
            handle: self.server.handle(),
            probes: self.probes.as_ref().map(|(_, server)| server.handle()),
        }
    }

    /// Serves until SIGINT/SIGTERM (or [`Stopper::stop`]), then tells connected players, stops
    /// accepting, finishes open requests and closes the store (waiting at most
    /// [`CLOSE_LIMIT`](crate::storage::CLOSE_LIMIT) for connections still in use). A signal's
    /// stop also arms the [`stop_watchdog`], which ends the process if all that takes longer
    /// than [`STOP_LIMIT`](stop_watchdog::STOP_LIMIT).
    ///
    /// # Errors
    /// The server fails while running.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let stopper = self.stopper();
        actix_web::rt::spawn(async move {
            shutdown_signal().await;
            tracing::info!("shutting down");
            stop_watchdog::arm(stop_watchdog::STOP_LIMIT);
            stopper.stop().await;
        });
        let probes = self.probes.map(|(_, server)| server);
        let probes_handle = probes.as_ref().map(Server::handle);
        let probes = actix_web::rt::spawn(async move {
            match probes {
                Some(server) => server.await,
                None => Ok(()),
            }
        });
        let outcome = self.server.await;
        // Stopped by a signal or a `Stopper`, the probes are stopping already; a site that
        // failed takes its probes down with it.
        if let Some(handle) = probes_handle {
            handle.stop(true).await;
        }
        if let Ok(Err(error)) = probes.await {
            tracing::warn!(%error, "the listener of /metrics and /readyz failed");
        }
        stop_watchdog::reached(Step::ClosingStore);
        self.store.close().await;
        stop_watchdog::reached(Step::Exiting);
        outcome
    }
}

/// The internal listener at `wanted`, serving `/metrics` and `/readyz` alone, on one worker and
/// without the site's rate limits: monitoring inside the deployment reads it, visitors cannot.
///
/// # Errors
/// [`StartupError::Bind`] when the address cannot be listened on.
fn probes_server(
    wanted: SocketAddr,
    store: &web::Data<Store>,
    metrics: &web::Data<Metrics>,
    matchmaking: &web::Data<Matchmaking>,
) -> Result<(SocketAddr, Server), StartupError> {
    let bind_error = |source| StartupError::Bind { address: wanted, source };
    let listener = TcpListener::bind(wanted).map_err(bind_error)?;
    let address = listener.local_addr().map_err(bind_error)?;
    let (store, metrics, matchmaking) = (store.clone(), metrics.clone(), matchmaking.clone());
    let server = HttpServer::new(move || {
        App::new()
            .app_data(store.clone())
            .app_data(metrics.clone())
            .app_data(matchmaking.clone())
            .wrap(middleware::from_fn(crate::http::tracing_span::request_span))
            .configure(routes::configure_probes)
    })
    .workers(1)
    .disable_signals()
    .shutdown_timeout(stop_watchdog::REQUESTS_LIMIT.as_secs())
    .listen(listener)
    .map_err(bind_error)?
    .run();
    Ok((address, server))
}

/// Turns Nagle's algorithm off on each accepted connection: a game's messages are small frames
/// written as they happen, and one written while the last is unacknowledged would otherwise
/// wait for the client's delayed ACK (40 ms on Linux).
fn send_at_once(connection: &dyn std::any::Any, _: &mut actix_web::dev::Extensions) {
    if let Some(tcp) = connection.downcast_ref::<actix_web::rt::net::TcpStream>()
        && let Err(error) = tcp.set_nodelay(true)
    {
        tracing::debug!(%error, "TCP_NODELAY not set on a connection");
    }
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

/// 256 random bits as hex: the session secret of a server that was given none.
fn random_secret() -> String {
    use rand::Rng;
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn accepted_connections_send_without_waiting_for_acknowledgements() {
        let listener = actix_web::rt::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let _client = actix_web::rt::net::TcpStream::connect(address).await.unwrap();
        let (accepted, _) = listener.accept().await.unwrap();
        assert!(!accepted.nodelay().unwrap());
        send_at_once(&accepted, &mut actix_web::dev::Extensions::new());
        assert!(accepted.nodelay().unwrap());
    }
}
