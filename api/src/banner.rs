//! The block `outflank` prints once it listens: where to open it, where its data lives, whether
//! sign-in is on and how games are shared. Pure text, so it is tested without a server;
//! whether to colour it is [`crate::telemetry::colour`]'s rule.

use std::net::{IpAddr, SocketAddr};

use crate::configuration::{GOOGLE_ISSUER, Settings};
use crate::storage::redact_url;

/// What the block says about one running server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Banner {
    /// Where to open the site from this machine, e.g. `http://localhost:8080`.
    pub url: String,
    /// Said after the URL when it is not the whole story (listening on every interface).
    pub listening: Option<String>,
    /// The public address from `OUTFLANK_PUBLIC_URL`, when set.
    pub public_url: Option<String>,
    /// Where the data lives (no password in it).
    pub storage: String,
    /// Whether sign-in is on, and how to turn it on when it is off.
    pub sign_in: String,
    /// Where the matchmaking queue and the games' traffic between nodes go.
    pub queue: String,
}

impl Banner {
    /// The block for a server started with `settings` and listening on `address` (the address
    /// actually bound, so port 0 shows the port chosen).
    pub fn new(settings: &Settings, address: SocketAddr) -> Banner {
        Banner {
            url: local_url(address),
            listening: address
                .ip()
                .is_unspecified()
                .then(|| format!("listening on every interface, {address}")),
            public_url: settings.public_url.as_ref().map(|url| url.origin().to_owned()),
            storage: storage(settings.database_url.expose()),
            sign_in: sign_in(settings),
            queue: queue(settings),
        }
    }

    /// The block as lines, bold and underlined URL when `colour` (stdout is a terminal).
    pub fn render(&self, colour: bool) -> String {
        let url = if colour { format!("\x1b[1;4m{}\x1b[0m", self.url) } else { self.url.clone() };
        let label = |name: &str| {
            if colour { format!("\x1b[2m{name:<9}\x1b[0m") } else { format!("{name:<9}") }
        };
        let mut text = format!("Outflank is running: {url}");
        if let Some(listening) = &self.listening {
            text.push_str(&format!("   ({listening})"));
        }
        text.push('\n');
        if let Some(public_url) = &self.public_url {
            text.push_str(&format!("  {} {public_url}\n", label("public")));
        }
        text.push_str(&format!("  {} {}\n", label("storage"), self.storage));
        text.push_str(&format!("  {} {}\n", label("sign-in"), self.sign_in));
        text.push_str(&format!("  {} {}\n", label("queue"), self.queue));
        text
    }
}

/// `http://host:port` to open from this machine: an address meaning "every interface" or the
/// loopback one is shown as `localhost`.
fn local_url(address: SocketAddr) -> String {
    let ip = address.ip();
    let host = match ip {
        _ if ip.is_unspecified() || ip.is_loopback() => "localhost".to_owned(),
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    };
    format!("http://{host}:{}", address.port())
}

fn storage(database_url: &str) -> String {
    let Some(rest) = database_url.strip_prefix("sqlite:") else {
        return format!("PostgreSQL at {}", redact_url(database_url));
    };
    let path = rest.trim_start_matches("//");
    let path = path.split_once('?').map_or(path, |(path, _)| path);
    if path.is_empty() || path == ":memory:" {
        return "SQLite in memory (nothing is kept after it stops)".to_owned();
    }
    let shown = if path.starts_with('/') || path.starts_with('.') {
        path.to_owned()
    } else {
        format!("./{path}")
    };
    format!("SQLite at {shown}   (set DATABASE_URL=postgres://… for PostgreSQL)")
}

fn sign_in(settings: &Settings) -> String {
    match &settings.oidc {
        None => "Google sign-in is off (set OUTFLANK_GOOGLE_CLIENT_ID and \
                 OUTFLANK_GOOGLE_CLIENT_SECRET to turn it on); guests can play"
            .to_owned(),
        Some(oidc) if oidc.issuer == GOOGLE_ISSUER => {
            format!("Google sign-in is on (client {})", oidc.client_id)
        }
        Some(oidc) => format!("sign-in is on, through the OpenID provider at {}", oidc.issuer),
    }
}

fn queue(settings: &Settings) -> String {
    match &settings.redis_url {
        None => "in-process (one node; set REDIS_URL to run several)".to_owned(),
        Some(url) => {
            format!("Redis at {} (keys under {}:)", redact_url(url.expose()), settings.redis_prefix)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::{OidcSettings, Secret};

    fn settings(vars: &[(&str, &str)]) -> Settings {
        Settings::from_lookup(|name| {
            vars.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned())
        })
        .expect("valid settings")
    }

    fn address(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_defaults_are_sqlite_no_sign_in_and_one_node() {
        let banner = Banner::new(&settings(&[]), address("127.0.0.1:8080"));
        assert_eq!(
            banner.render(false),
            "Outflank is running: http://localhost:8080\n\
             \x20 storage   SQLite at ./data/outflank.sqlite   (set DATABASE_URL=postgres://… for \
             PostgreSQL)\n\
             \x20 sign-in   Google sign-in is off (set OUTFLANK_GOOGLE_CLIENT_ID and \
             OUTFLANK_GOOGLE_CLIENT_SECRET to turn it on); guests can play\n\
             \x20 queue     in-process (one node; set REDIS_URL to run several)\n"
        );
    }

    #[test]
    fn every_interface_is_shown_as_localhost_with_the_bound_port() {
        let banner = Banner::new(&settings(&[]), address("0.0.0.0:43117"));
        assert!(banner.render(false).starts_with(
            "Outflank is running: http://localhost:43117   \
             (listening on every interface, 0.0.0.0:43117)\n"
        ));
        let banner = Banner::new(&settings(&[]), address("[::]:8080"));
        assert_eq!(banner.url, "http://localhost:8080");
    }

    #[test]
    fn another_address_is_shown_as_it_is() {
        assert_eq!(local_url(address("192.168.1.20:8080")), "http://192.168.1.20:8080");
        assert_eq!(local_url(address("[2001:db8::1]:8080")), "http://[2001:db8::1]:8080");
    }

    #[test]
    fn an_absolute_sqlite_path_is_shown_without_its_options() {
        let banner = Banner::new(
            &settings(&[("DATABASE_URL", "sqlite:///var/lib/outflank/db.sqlite?mode=rwc")]),
            address("127.0.0.1:8080"),
        );
        assert!(banner.storage.starts_with("SQLite at /var/lib/outflank/db.sqlite "));
        assert_eq!(storage("sqlite::memory:"), "SQLite in memory (nothing is kept after it stops)");
    }

    #[test]
    fn a_postgres_password_is_never_shown() {
        let url = "postgres://outflank:hunter2@db.internal:5432/outflank";
        let banner = Banner::new(&settings(&[("DATABASE_URL", url)]), address("127.0.0.1:8080"));
        assert_eq!(
            banner.storage,
            "PostgreSQL at postgres://outflank:***@db.internal:5432/outflank"
        );
        assert!(!banner.render(false).contains("hunter2"));
        assert!(!banner.render(true).contains("hunter2"));
    }

    #[test]
    fn google_sign_in_on_names_the_client_but_not_the_secret() {
        let banner = Banner::new(
            &settings(&[
                ("OUTFLANK_GOOGLE_CLIENT_ID", "1234.apps.googleusercontent.com"),
                ("OUTFLANK_GOOGLE_CLIENT_SECRET", "very-private-value"),
            ]),
            address("127.0.0.1:8080"),
        );
        assert_eq!(banner.sign_in, "Google sign-in is on (client 1234.apps.googleusercontent.com)");
        assert!(!banner.render(false).contains("very-private-value"));
    }

    #[test]
    fn another_provider_is_named() {
        let mut settings = settings(&[]);
        settings.oidc = Some(OidcSettings {
            issuer: "http://127.0.0.1:9000".into(),
            client_id: "outflank".into(),
            client_secret: Secret::new("x"),
        });
        let banner = Banner::new(&settings, address("127.0.0.1:8080"));
        assert_eq!(
            banner.sign_in,
            "sign-in is on, through the OpenID provider at http://127.0.0.1:9000"
        );
    }

    #[test]
    fn redis_is_shown_with_its_prefix_and_without_its_password() {
        let banner = Banner::new(
            &settings(&[
                ("REDIS_URL", "redis://:s3cret@cache.internal:6379"),
                ("OUTFLANK_REDIS_PREFIX", "site-a"),
            ]),
            address("127.0.0.1:8080"),
        );
        assert_eq!(banner.queue, "Redis at redis://:***@cache.internal:6379 (keys under site-a:)");
        assert!(!banner.render(false).contains("s3cret"));
    }

    #[test]
    fn the_public_url_gets_a_line_of_its_own() {
        let banner = Banner::new(
            &settings(&[
                ("OUTFLANK_PUBLIC_URL", "https://outflank.example"),
                ("OUTFLANK_SESSION_SECRET", "a8f3b1c9d2e4f60718293a4b5c6d7e8f90"),
            ]),
            address("0.0.0.0:8080"),
        );
        assert!(banner.render(false).contains("\n  public    https://outflank.example\n"));
    }

    #[test]
    fn without_a_terminal_there_are_no_escape_codes() {
        let banner = Banner::new(&settings(&[]), address("127.0.0.1:8080"));
        assert!(!banner.render(false).contains('\x1b'));
        let coloured = banner.render(true);
        assert!(coloured.contains("\x1b[1;4mhttp://localhost:8080\x1b[0m"));
        let plain: String = coloured.replace("\x1b[1;4m", "").replace("\x1b[2m", "");
        assert_eq!(plain.replace("\x1b[0m", ""), banner.render(false));
    }
}
