//! Settings read from the environment, with defaults that make a bare `cargo run` work.
//!
//! | variable | default |
//! |---|---|
//! | `OUTFLANK_ADDR` | `127.0.0.1:8080` |
//! | `OUTFLANK_METRICS_ADDR` | unset: `/metrics` and `/readyz` on `OUTFLANK_ADDR` with the site; else only on this internal address |
//! | `OUTFLANK_PUBLIC_URL` | unset: any loopback origin on the listening port is accepted |
//! | `DATABASE_URL` | `sqlite://<OUTFLANK_DATA_DIR>/outflank.sqlite` |
//! | `OUTFLANK_DATA_DIR` | `data` |
//! | `REDIS_URL` | unset: in-process queues |
//! | `OUTFLANK_REDIS_PREFIX` | `outflank` |
//! | `OUTFLANK_SESSION_SECRET` | unset: generated once and kept in the database |
//! | `OUTFLANK_MOVE_TIME_MS` | `30000` |
//! | `OUTFLANK_COMPUTER_AFTER_MS` | `15000` |
//! | `OUTFLANK_GOOGLE_CLIENT_ID` | unset: sign-in is off (both id and secret are needed) |
//! | `OUTFLANK_GOOGLE_CLIENT_SECRET` | unset |
//! | `OUTFLANK_OIDC_ISSUER` | `https://accounts.google.com` |
//! | `OUTFLANK_RATE_PER_SECOND` | `20`: API requests per second per address and per session |
//! | `OUTFLANK_RATE_BURST` | `60`: API requests allowed at once before that rate applies |
//! | `OUTFLANK_SOCKETS_PER_ADDRESS` | `64`: WebSockets open at once per client address |
//! | `OUTFLANK_ANALYSIS_WORKERS` | `1`: finished games analysed at once, each on its own core counted from the last |
//! | `OUTFLANK_ANALYSIS_QUEUE` | `200`: analyses waiting at most in each line (played games, imports); more are refused |
//! | `OUTFLANK_ANALYSIS_DEPTH` | `12`: plies of midgame search in an analysis |
//! | `OUTFLANK_ANALYSIS_EXACT` | `20`: empties from which an analysis solves exactly |
//! | `OUTFLANK_ADMISSION_LAG_MS` | `100`: a worker this late on its ticks is saturated, and new games get `503 server_busy` with `Retry-After`; `off` never refuses |
//! | `OUTFLANK_VAPID_PRIVATE_KEY` | unset: generated once and kept in the database (Web Push's key, 32 bytes base64url) |
//! | `OUTFLANK_VAPID_SUBJECT` | unset: the public URL, else `mailto:admin@localhost` (the contact push services see) |
//! | `OUTFLANK_PUSH_LOCAL_ENDPOINTS` | unset: push subscriptions must name public https services; `1` also allows http and local hosts (development and tests only) |
//! | `OUTFLANK_TRUSTED_PROXIES` | unset: the TCP peer is the client; else proxies (`10.0.0.0/8,::1`) whose `X-Forwarded-For` names it |

use std::net::SocketAddr;
use std::path::PathBuf;

use thiserror::Error;

pub use crate::http::PublicUrl;
use crate::http::client_address::TrustedProxies;
use crate::http::rate_limit;
pub use crate::identity::oidc::{GOOGLE_ISSUER, OidcSettings};
pub use crate::secret::Secret;
use crate::service::{
    AnalysisSettings, BoardValuesSettings, DEFAULT_QUEUE, DEFAULT_SOCKETS_PER_CLIENT,
    DEFAULT_WORKERS,
};
use crate::storage::redact_url;
use outflank_engine::analysis::{DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES, ReviewOptions};

/// Where the server listens unless `OUTFLANK_ADDR` says otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// Time for each move in clocked games (SPEC: 30 s).
pub const DEFAULT_MOVE_TIME_MS: u64 = 30_000;
/// How long a quick-game seeker waits for a person before getting the computer (SPEC: ~15 s).
pub const DEFAULT_COMPUTER_AFTER_MS: u64 = 15_000;

/// How late a worker's ticks may run before new games are refused (see
/// [`crate::http::admission`]).
pub const DEFAULT_ADMISSION_LAG_MS: u64 = 100;

/// The server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `OUTFLANK_ADDR`: the socket address to listen on; port 0 picks a free port.
    pub address: SocketAddr,
    /// `OUTFLANK_METRICS_ADDR`: an internal address serving `/metrics` and `/readyz` alone, so
    /// the site need not show them; `None` serves them with the site (rate-limited).
    pub metrics_address: Option<SocketAddr>,
    /// `OUTFLANK_PUBLIC_URL`: the site's public address, if set.
    pub public_url: Option<PublicUrl>,
    /// `DATABASE_URL`: `postgres://…` or `sqlite://…`.
    pub database_url: Secret,
    /// `REDIS_URL`: shared queues and pub/sub; `None` keeps everything in this process.
    pub redis_url: Option<Secret>,
    /// `OUTFLANK_REDIS_PREFIX`: the start of every Redis key, so several sites (or test runs)
    /// can share one Redis.
    pub redis_prefix: String,
    /// `OUTFLANK_SESSION_SECRET`: the key that signs session cookies, if given.
    pub session_secret: Option<Secret>,
    /// `OUTFLANK_MOVE_TIME_MS`: time for each move in clocked games.
    pub move_time_ms: u64,
    /// `OUTFLANK_COMPUTER_AFTER_MS`: a seeker nobody pairs within this time gets the computer.
    pub computer_after_ms: u64,
    /// `OUTFLANK_GOOGLE_CLIENT_ID`, `OUTFLANK_GOOGLE_CLIENT_SECRET`, `OUTFLANK_OIDC_ISSUER`:
    /// sign-in, when configured.
    pub oidc: Option<OidcSettings>,
    /// `OUTFLANK_RATE_PER_SECOND`: steady API requests per second per address and session.
    pub rate_per_second: u32,
    /// `OUTFLANK_RATE_BURST`: API requests allowed at once before the steady rate applies.
    pub rate_burst: u32,
    /// `OUTFLANK_SOCKETS_PER_ADDRESS`: WebSockets one client address may hold open at once
    /// (an IPv6 client counts by its /64).
    pub sockets_per_address: u32,
    /// `OUTFLANK_TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` names the client, for
    /// per-address limits.
    pub trusted_proxies: TrustedProxies,
    /// `OUTFLANK_ADMISSION_LAG_MS`: how late a worker's ticks may run before new games are
    /// refused as the server is saturated; `None` (`off`) never refuses.
    pub admission_lag_ms: Option<u64>,
    /// `OUTFLANK_WORKERS`: threads serving HTTP and WebSockets, each with its own event loop
    /// (games run on them too); `None`: one fewer than the cores this process may use, at least
    /// one ([`Settings::http_workers`]).
    pub http_workers: Option<u32>,
    /// `OUTFLANK_ANALYSIS_WORKERS`: finished games analysed at once, each on a thread.
    pub analysis_workers: u32,
    /// `OUTFLANK_ANALYSIS_QUEUE`: analyses waiting at most in each line (played games,
    /// imports); more are refused.
    pub analysis_queue: u32,
    /// `OUTFLANK_ANALYSIS_DEPTH`: plies of midgame search in an analysis.
    pub analysis_depth: u32,
    /// `OUTFLANK_ANALYSIS_EXACT`: positions with this many empties or fewer are solved.
    pub analysis_exact_empties: u32,
    /// `OUTFLANK_VAPID_PRIVATE_KEY`: the Web Push key, if given (else kept in the database).
    pub vapid_private_key: Option<Secret>,
    /// `OUTFLANK_VAPID_SUBJECT`: the contact push services see (`mailto:` or `https:`).
    pub vapid_subject: Option<String>,
    /// `OUTFLANK_PUSH_LOCAL_ENDPOINTS`: whether push subscriptions may name http endpoints and
    /// local hosts, for development and tests; never on a public site.
    pub push_local_endpoints: bool,
}

/// A setting that could not be used; names the variable.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{variable}={value:?} is not a valid {expected}")]
    Invalid { variable: &'static str, value: String, expected: &'static str },
    #[error("{variable} must be set: {why}")]
    Missing { variable: &'static str, why: &'static str },
}

impl Settings {
    /// Reads the settings from the process environment.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the first variable that cannot be used.
    pub fn from_env() -> Result<Settings, ConfigError> {
        Settings::from_lookup(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
    }

    /// Reads the settings through `lookup`, so tests need not touch the process environment.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the first variable that cannot be used.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Settings, ConfigError> {
        let invalid =
            |variable, value: String, expected| ConfigError::Invalid { variable, value, expected };

        let value = lookup("OUTFLANK_ADDR").unwrap_or_else(|| DEFAULT_ADDR.to_owned());
        let address = value.parse().map_err(|_| {
            invalid("OUTFLANK_ADDR", value, "socket address such as 127.0.0.1:8080")
        })?;

        let metrics_address = match lookup("OUTFLANK_METRICS_ADDR") {
            None => None,
            Some(value) => Some(value.trim().parse().map_err(|_| {
                invalid("OUTFLANK_METRICS_ADDR", value, "socket address such as 10.0.0.5:9090")
            })?),
        };

        let public_url = match lookup("OUTFLANK_PUBLIC_URL") {
            None => None,
            Some(value) => Some(PublicUrl::parse(&value).ok_or_else(|| {
                invalid("OUTFLANK_PUBLIC_URL", value, "URL such as https://outflank.example")
            })?),
        };

        let database_url = match lookup("DATABASE_URL") {
            Some(value) if is_database_url(&value) => value,
            Some(value) => {
                // A URL may hold a password: it is never echoed.
                let shown = redact_url(&value);
                return Err(invalid("DATABASE_URL", shown, "postgres:// or sqlite:// URL"));
            }
            None => {
                let dir =
                    PathBuf::from(lookup("OUTFLANK_DATA_DIR").unwrap_or_else(|| "data".into()));
                format!("sqlite://{}?mode=rwc", dir.join("outflank.sqlite").display())
            }
        };

        let redis_url = match lookup("REDIS_URL") {
            None => None,
            Some(value) if value.starts_with("redis://") || value.starts_with("rediss://") => {
                Some(Secret::new(value))
            }
            Some(value) => return Err(invalid("REDIS_URL", redact_url(&value), "redis:// URL")),
        };

        let redis_prefix = match lookup("OUTFLANK_REDIS_PREFIX") {
            None => "outflank".to_owned(),
            Some(value)
                if !value.is_empty()
                    && value.chars().all(|c| c.is_ascii_alphanumeric() || "_-:.".contains(c)) =>
            {
                value
            }
            Some(value) => {
                return Err(invalid(
                    "OUTFLANK_REDIS_PREFIX",
                    value,
                    "key prefix of letters, digits, '_', '-', ':' and '.'",
                ));
            }
        };

        let session_secret = match lookup("OUTFLANK_SESSION_SECRET") {
            None if public_url.as_ref().is_some_and(PublicUrl::is_https) => {
                return Err(ConfigError::Missing {
                    variable: "OUTFLANK_SESSION_SECRET",
                    why: "a site served over https keeps its session key out of the database \
                          (generate one with `openssl rand -hex 32`)",
                });
            }
            None => None,
            Some(value) if value.len() >= 32 && !is_placeholder(&value) => Some(Secret::new(value)),
            Some(_) => {
                return Err(invalid(
                    "OUTFLANK_SESSION_SECRET",
                    "[redacted]".into(),
                    "random secret of at least 32 characters (not an example value)",
                ));
            }
        };

        let move_time_ms = match lookup("OUTFLANK_MOVE_TIME_MS") {
            None => DEFAULT_MOVE_TIME_MS,
            Some(value) => {
                value.parse().ok().filter(|ms| (100..=3_600_000).contains(ms)).ok_or_else(|| {
                    invalid(
                        "OUTFLANK_MOVE_TIME_MS",
                        value,
                        "number of milliseconds from 100 to 3600000",
                    )
                })?
            }
        };

        let computer_after_ms = match lookup("OUTFLANK_COMPUTER_AFTER_MS") {
            None => DEFAULT_COMPUTER_AFTER_MS,
            Some(value) => {
                value.parse().ok().filter(|ms| (100..=600_000).contains(ms)).ok_or_else(|| {
                    invalid(
                        "OUTFLANK_COMPUTER_AFTER_MS",
                        value,
                        "number of milliseconds from 100 to 600000",
                    )
                })?
            }
        };

        let issuer = lookup("OUTFLANK_OIDC_ISSUER").unwrap_or_else(|| GOOGLE_ISSUER.to_owned());
        if !(issuer.starts_with("https://") || issuer.starts_with("http://")) {
            return Err(invalid(
                "OUTFLANK_OIDC_ISSUER",
                issuer,
                "URL such as https://accounts.google.com",
            ));
        }
        let oidc =
            match (lookup("OUTFLANK_GOOGLE_CLIENT_ID"), lookup("OUTFLANK_GOOGLE_CLIENT_SECRET")) {
                (None, None) => None,
                (Some(client_id), Some(secret)) => Some(OidcSettings {
                    issuer: issuer.trim_end_matches('/').to_owned(),
                    client_id,
                    client_secret: Secret::new(secret),
                }),
                (None, Some(_)) => {
                    return Err(invalid(
                        "OUTFLANK_GOOGLE_CLIENT_ID",
                        String::new(),
                        "client id (it is needed with OUTFLANK_GOOGLE_CLIENT_SECRET)",
                    ));
                }
                (Some(_), None) => {
                    return Err(invalid(
                        "OUTFLANK_GOOGLE_CLIENT_SECRET",
                        String::new(),
                        "client secret (it is needed with OUTFLANK_GOOGLE_CLIENT_ID)",
                    ));
                }
            };

        let count = |variable: &'static str, default: u32| -> Result<u32, ConfigError> {
            match lookup(variable) {
                None => Ok(default),
                Some(value) => value
                    .parse()
                    .ok()
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| invalid(variable, value, "number from 1 to 1000000")),
            }
        };
        let rate_per_second = count("OUTFLANK_RATE_PER_SECOND", rate_limit::DEFAULT_PER_SECOND)?;
        let rate_burst = count("OUTFLANK_RATE_BURST", rate_limit::DEFAULT_BURST)?;
        let default_sockets = u32::try_from(DEFAULT_SOCKETS_PER_CLIENT).unwrap_or(u32::MAX);
        let sockets_per_address = count("OUTFLANK_SOCKETS_PER_ADDRESS", default_sockets)?;
        let trusted_proxies = match lookup("OUTFLANK_TRUSTED_PROXIES") {
            None => TrustedProxies::default(),
            Some(value) => value.parse().map_err(|_| {
                invalid(
                    "OUTFLANK_TRUSTED_PROXIES",
                    value,
                    "list of IP addresses and networks such as 10.0.0.0/8,::1",
                )
            })?,
        };

        let admission_lag_ms = match lookup("OUTFLANK_ADMISSION_LAG_MS") {
            None => Some(DEFAULT_ADMISSION_LAG_MS),
            Some(value) if value.trim().eq_ignore_ascii_case("off") => None,
            Some(value) => {
                Some(value.trim().parse().ok().filter(|ms| (10..=60_000).contains(ms)).ok_or_else(
                    || {
                        invalid(
                            "OUTFLANK_ADMISSION_LAG_MS",
                            value,
                            "number of milliseconds from 10 to 60000, or off",
                        )
                    },
                )?)
            }
        };

        let ranged = |variable: &'static str,
                      default: u32,
                      range: std::ops::RangeInclusive<u32>,
                      expected: &'static str|
         -> Result<u32, ConfigError> {
            match lookup(variable) {
                None => Ok(default),
                Some(value) => value
                    .parse()
                    .ok()
                    .filter(|n| range.contains(n))
                    .ok_or_else(|| invalid(variable, value, expected)),
            }
        };
        let http_workers = lookup("OUTFLANK_WORKERS")
            .map(|value| {
                value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=1024).contains(n))
                    .ok_or_else(|| invalid("OUTFLANK_WORKERS", value, "number from 1 to 1024"))
            })
            .transpose()?;
        let analysis_workers =
            ranged("OUTFLANK_ANALYSIS_WORKERS", DEFAULT_WORKERS, 1..=64, "number from 1 to 64")?;
        let analysis_queue = count("OUTFLANK_ANALYSIS_QUEUE", DEFAULT_QUEUE)?;
        let analysis_depth =
            ranged("OUTFLANK_ANALYSIS_DEPTH", DEFAULT_DEPTH, 1..=20, "number from 1 to 20")?;
        let analysis_exact_empties = ranged(
            "OUTFLANK_ANALYSIS_EXACT",
            DEFAULT_EXACT_EMPTIES,
            0..=24,
            "number of empties from 0 to 24",
        )?;

        let vapid_private_key = match lookup("OUTFLANK_VAPID_PRIVATE_KEY") {
            None => None,
            Some(value) if crate::web_push::VapidKey::parse(&value).is_ok() => {
                Some(Secret::new(value))
            }
            Some(_) => {
                return Err(invalid(
                    "OUTFLANK_VAPID_PRIVATE_KEY",
                    "[redacted]".into(),
                    "P-256 private key: 32 bytes in base64url",
                ));
            }
        };
        let vapid_subject = match lookup("OUTFLANK_VAPID_SUBJECT") {
            None => None,
            Some(value) if value.starts_with("mailto:") || value.starts_with("https://") => {
                Some(value)
            }
            Some(value) => {
                return Err(invalid(
                    "OUTFLANK_VAPID_SUBJECT",
                    value,
                    "contact as mailto:… or https://…",
                ));
            }
        };
        let push_local_endpoints = match lookup("OUTFLANK_PUSH_LOCAL_ENDPOINTS").as_deref() {
            None | Some("0") => false,
            Some("1") => true,
            Some(other) => {
                return Err(invalid("OUTFLANK_PUSH_LOCAL_ENDPOINTS", other.to_owned(), "0 or 1"));
            }
        };

        Ok(Settings {
            address,
            metrics_address,
            public_url,
            database_url: Secret::new(database_url),
            redis_url,
            redis_prefix,
            session_secret,
            move_time_ms,
            computer_after_ms,
            oidc,
            rate_per_second,
            rate_burst,
            sockets_per_address,
            trusted_proxies,
            admission_lag_ms,
            http_workers,
            analysis_workers,
            analysis_queue,
            analysis_depth,
            analysis_exact_empties,
            vapid_private_key,
            vapid_subject,
            push_local_endpoints,
        })
    }
}

/// Whether `secret` is an example value copied from documentation rather than a random one:
/// it says so (`CHANGE-ME`, `example`, ...) or repeats a few characters.
fn is_placeholder(secret: &str) -> bool {
    let lower = secret.to_ascii_lowercase();
    let said =
        ["change-me", "changeme", "change_me", "example", "placeholder", "replace", "secret"]
            .iter()
            .any(|word| lower.contains(word));
    let distinct: std::collections::BTreeSet<char> = secret.chars().collect();
    said || distinct.len() < 8
}

impl Settings {
    /// When new games are refused as the server is saturated: its workers late by more than
    /// the limit, or moves taking longer than it to be stored in `writes`.
    pub fn admission(
        &self,
        writes: std::sync::Arc<crate::storage::WriteLatency>,
    ) -> crate::http::admission::Admission {
        crate::http::admission::Admission::watching_writes(
            self.admission_lag_ms.map(std::time::Duration::from_millis),
            writes,
        )
    }

    /// Threads serving HTTP and WebSockets: `OUTFLANK_WORKERS`, or else one fewer than the
    /// `cores` this process may use, and at least one.
    ///
    /// The core left over runs what the workers hand their work to: the store's writes (SQLite's
    /// thread, or a database on the same machine) and game reviews. With a worker on every
    /// core, each move crossed between the workers and those threads on shared cores; on two
    /// cores, one worker took about 10 % less CPU per move at saturation, with the same moves a
    /// second (docs/performance-history.md, "One worker fewer than cores").
    pub fn http_workers(&self, cores: usize) -> usize {
        match self.http_workers {
            Some(workers) => usize::try_from(workers).unwrap_or(1),
            None => cores.saturating_sub(1).max(1),
        }
    }

    /// How finished games are analysed.
    pub fn analysis(&self) -> AnalysisSettings {
        AnalysisSettings {
            workers: usize::try_from(self.analysis_workers).unwrap_or(1),
            queue: usize::try_from(self.analysis_queue).unwrap_or(usize::MAX),
            review: ReviewOptions {
                depth: self.analysis_depth,
                exact_empties: self.analysis_exact_empties,
                ..ReviewOptions::default()
            },
        }
    }

    /// How the analysis board values positions: as deep as a game's analysis, so that the
    /// board and a review agree on a position.
    pub fn board_values(&self) -> BoardValuesSettings {
        BoardValuesSettings { options: self.analysis().review, ..BoardValuesSettings::default() }
    }

    /// The move time as the signed milliseconds live games compute with.
    pub fn move_time_ms_i64(&self) -> i64 {
        i64::try_from(self.move_time_ms).unwrap_or(i64::MAX)
    }
}

fn is_database_url(value: &str) -> bool {
    ["postgres://", "postgresql://", "sqlite:"].iter().any(|prefix| value.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        Settings::from_lookup(|name| {
            vars.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned())
        })
    }

    #[test]
    fn nothing_set_gives_the_embedded_defaults() {
        let settings = settings(&[]).unwrap();
        assert_eq!(settings.address, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(settings.public_url, None);
        assert_eq!(settings.database_url.expose(), "sqlite://data/outflank.sqlite?mode=rwc");
        assert_eq!(settings.redis_url, None);
        assert_eq!(settings.redis_prefix, "outflank");
        assert_eq!(settings.session_secret, None);
        assert_eq!(settings.move_time_ms, 30_000);
        assert_eq!(settings.computer_after_ms, 15_000);
        assert_eq!(settings.oidc, None);
        assert_eq!((settings.rate_per_second, settings.rate_burst), (20, 60));
        assert_eq!(settings.trusted_proxies, TrustedProxies::default());
    }

    #[test]
    fn trusted_proxies_are_addresses_and_networks() {
        let settings = settings(&[("OUTFLANK_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1")]);
        assert_eq!(settings.unwrap().trusted_proxies.to_string(), "10.0.0.0/8,127.0.0.1/32");
        let error = settings_error("OUTFLANK_TRUSTED_PROXIES", "10.0.0.0/8,nginx");
        assert_eq!(
            error,
            "OUTFLANK_TRUSTED_PROXIES=\"10.0.0.0/8,nginx\" is not a valid list of IP addresses \
             and networks such as 10.0.0.0/8,::1"
        );
    }

    #[test]
    fn admission_refuses_new_games_after_100_ms_of_lag_unless_off() {
        assert_eq!(settings(&[]).unwrap().admission_lag_ms, Some(100));
        let set = settings(&[("OUTFLANK_ADMISSION_LAG_MS", "250")]).unwrap();
        assert_eq!(set.admission_lag_ms, Some(250));
        let off = settings(&[("OUTFLANK_ADMISSION_LAG_MS", "off")]).unwrap();
        assert_eq!(off.admission_lag_ms, None);
        assert_eq!(
            settings_error("OUTFLANK_ADMISSION_LAG_MS", "5"),
            "OUTFLANK_ADMISSION_LAG_MS=\"5\" is not a valid number of milliseconds from 10 to \
             60000, or off"
        );
    }

    #[test]
    fn rate_limits_must_be_positive_numbers() {
        let settings =
            settings(&[("OUTFLANK_RATE_PER_SECOND", "500"), ("OUTFLANK_RATE_BURST", "900")]);
        let settings = settings.unwrap();
        assert_eq!((settings.rate_per_second, settings.rate_burst), (500, 900));
        let error = settings_error("OUTFLANK_RATE_BURST", "0");
        assert_eq!(error, "OUTFLANK_RATE_BURST=\"0\" is not a valid number from 1 to 1000000");
    }

    #[test]
    fn http_workers_default_to_one_fewer_than_the_cores_and_at_least_one() {
        let settings = settings(&[]).unwrap();
        assert_eq!(settings.http_workers, None);
        assert_eq!(
            [1, 2, 8].map(|cores| settings.http_workers(cores)),
            [1, 1, 7],
            "workers for 1, 2 and 8 cores"
        );
    }

    #[test]
    fn http_workers_can_be_set_from_1_to_1024() {
        let settings = settings(&[("OUTFLANK_WORKERS", "3")]).unwrap();
        assert_eq!(settings.http_workers(2), 3);
        assert_eq!(
            settings_error("OUTFLANK_WORKERS", "0"),
            "OUTFLANK_WORKERS=\"0\" is not a valid number from 1 to 1024"
        );
        assert_eq!(
            settings_error("OUTFLANK_WORKERS", "many"),
            "OUTFLANK_WORKERS=\"many\" is not a valid number from 1 to 1024"
        );
    }

    #[test]
    fn analyses_default_to_one_worker_a_queue_of_200_depth_12_and_exact_from_20() {
        let settings = settings(&[]).unwrap();
        assert_eq!((settings.analysis_workers, settings.analysis_queue), (1, 200));
        let analysis = settings.analysis();
        assert_eq!((analysis.workers, analysis.queue), (1, 200));
        assert_eq!((analysis.review.depth, analysis.review.exact_empties), (12, 20));
    }

    #[test]
    fn analysis_settings_must_be_in_range() {
        let settings = settings(&[
            ("OUTFLANK_ANALYSIS_WORKERS", "2"),
            ("OUTFLANK_ANALYSIS_QUEUE", "5"),
            ("OUTFLANK_ANALYSIS_DEPTH", "4"),
            ("OUTFLANK_ANALYSIS_EXACT", "0"),
        ])
        .unwrap();
        let analysis = settings.analysis();
        assert_eq!((analysis.workers, analysis.queue), (2, 5));
        assert_eq!((analysis.review.depth, analysis.review.exact_empties), (4, 0));
        assert_eq!(
            settings_error("OUTFLANK_ANALYSIS_WORKERS", "0"),
            "OUTFLANK_ANALYSIS_WORKERS=\"0\" is not a valid number from 1 to 64"
        );
        assert_eq!(
            settings_error("OUTFLANK_ANALYSIS_QUEUE", "none"),
            "OUTFLANK_ANALYSIS_QUEUE=\"none\" is not a valid number from 1 to 1000000"
        );
        assert_eq!(
            settings_error("OUTFLANK_ANALYSIS_DEPTH", "21"),
            "OUTFLANK_ANALYSIS_DEPTH=\"21\" is not a valid number from 1 to 20"
        );
        assert_eq!(
            settings_error("OUTFLANK_ANALYSIS_EXACT", "25"),
            "OUTFLANK_ANALYSIS_EXACT=\"25\" is not a valid number of empties from 0 to 24"
        );
    }

    fn settings_error(variable: &str, value: &str) -> String {
        settings(&[(variable, value)]).unwrap_err().to_string()
    }

    #[test]
    fn google_sign_in_needs_both_id_and_secret() {
        let oidc = settings(&[
            ("OUTFLANK_GOOGLE_CLIENT_ID", "id"),
            ("OUTFLANK_GOOGLE_CLIENT_SECRET", "secret"),
        ])
        .unwrap()
        .oidc
        .unwrap();
        assert_eq!(oidc.issuer, "https://accounts.google.com");
        assert_eq!(oidc.client_id, "id");
        let error = settings(&[("OUTFLANK_GOOGLE_CLIENT_ID", "id")]).unwrap_err();
        assert!(error.to_string().starts_with("OUTFLANK_GOOGLE_CLIENT_SECRET="), "{error}");
    }

    #[test]
    fn metrics_are_served_with_the_site_unless_an_internal_address_is_set() {
        assert_eq!(settings(&[]).unwrap().metrics_address, None);
        let set = settings(&[("OUTFLANK_METRICS_ADDR", "10.0.0.5:9090")]).unwrap();
        assert_eq!(set.metrics_address, Some("10.0.0.5:9090".parse().unwrap()));
        assert_eq!(
            settings_error("OUTFLANK_METRICS_ADDR", "metrics:9090"),
            "OUTFLANK_METRICS_ADDR=\"metrics:9090\" is not a valid socket address such as \
             10.0.0.5:9090"
        );
    }

    #[test]
    fn a_bad_address_names_the_variable() {
        let error = settings(&[("OUTFLANK_ADDR", "localhost")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "OUTFLANK_ADDR=\"localhost\" is not a valid socket address such as 127.0.0.1:8080"
        );
    }

    #[test]
    fn the_password_of_a_bad_database_or_redis_url_is_not_echoed() {
        let error = settings(&[("DATABASE_URL", "mysql://app:hunter2@db/outflank")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "DATABASE_URL=\"mysql://app:***@db/outflank\" is not a valid postgres:// or sqlite:// URL"
        );
        let error = settings(&[("REDIS_URL", "http://:hunter2@cache:6379")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "REDIS_URL=\"http://:***@cache:6379\" is not a valid redis:// URL"
        );
    }

    #[test]
    fn a_bad_database_url_names_the_variable() {
        let error = settings(&[("DATABASE_URL", "mysql://x")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "DATABASE_URL=\"mysql://x\" is not a valid postgres:// or sqlite:// URL"
        );
    }

    #[test]
    fn a_short_session_secret_is_refused_without_printing_it() {
        let error = settings(&[("OUTFLANK_SESSION_SECRET", "hunter2")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "OUTFLANK_SESSION_SECRET=\"[redacted]\" is not a valid random secret of at least 32 characters (not an example value)"
        );
    }

    #[test]
    fn an_example_session_secret_is_refused() {
        for example in [
            "CHANGE-ME-to-64-hex-characters-from-openssl-rand-hex-32",
            "my-example-session-key-that-is-long-enough",
            "0000000000000000000000000000000000000000",
        ] {
            let error = settings(&[("OUTFLANK_SESSION_SECRET", example)]).unwrap_err();
            assert!(error.to_string().contains("not an example value"), "{example}: {error}");
        }
        let random = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assert!(settings(&[("OUTFLANK_SESSION_SECRET", random)]).is_ok());
    }

    #[test]
    fn a_site_served_over_https_needs_its_session_secret() {
        let error = settings(&[("OUTFLANK_PUBLIC_URL", "https://outflank.example")]).unwrap_err();
        assert!(error.to_string().starts_with("OUTFLANK_SESSION_SECRET must be set"), "{error}");
        assert!(settings(&[("OUTFLANK_PUBLIC_URL", "http://localhost:8080")]).is_ok());
    }

    #[test]
    fn a_redis_prefix_with_spaces_is_refused() {
        let error = settings(&[("OUTFLANK_REDIS_PREFIX", "my site")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "OUTFLANK_REDIS_PREFIX=\"my site\" is not a valid key prefix of letters, digits, '_', '-', ':' and '.'"
        );
    }

    #[test]
    fn move_time_must_be_a_sane_number() {
        assert_eq!(settings(&[("OUTFLANK_MOVE_TIME_MS", "1500")]).unwrap().move_time_ms, 1500);
        assert!(settings(&[("OUTFLANK_MOVE_TIME_MS", "0")]).is_err());
        assert!(settings(&[("OUTFLANK_MOVE_TIME_MS", "soon")]).is_err());
    }

    #[test]
    fn public_url_gives_the_origin_and_https() {
        let url = PublicUrl::parse("https://Outflank.example/").unwrap();
        assert_eq!(url.origin(), "https://outflank.example");
        assert!(url.is_https());
        assert_eq!(PublicUrl::parse("ftp://x"), None);
        assert_eq!(PublicUrl::parse("https://x/path"), None);
    }

    #[test]
    fn secrets_are_redacted_in_debug_output() {
        let settings = settings(&[("DATABASE_URL", "postgres://u:pw@h/db")]).unwrap();
        assert!(!format!("{settings:?}").contains("pw"));
    }
}
