//! Settings read from the environment, with defaults that make a bare `cargo run` work.

use std::net::SocketAddr;

use thiserror::Error;

/// Where the server listens unless `OUTFLANK_ADDR` says otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `OUTFLANK_ADDR`: the socket address to listen on; port 0 picks a free port.
    pub address: SocketAddr,
}

/// A setting that could not be used; names the variable.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{variable}={value:?} is not a valid {expected}")]
    Invalid { variable: &'static str, value: String, expected: &'static str },
}

impl Settings {
    /// Reads the settings from the process environment.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the first variable that cannot be used.
    pub fn from_env() -> Result<Settings, ConfigError> {
        Settings::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `lookup`, so tests need not touch the process environment.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the first variable that cannot be used.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Settings, ConfigError> {
        let value = lookup("OUTFLANK_ADDR").unwrap_or_else(|| DEFAULT_ADDR.to_owned());
        let address = value.parse().map_err(|_| ConfigError::Invalid {
            variable: "OUTFLANK_ADDR",
            value,
            expected: "socket address such as 127.0.0.1:8080",
        })?;
        Ok(Settings { address })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_set_listens_on_localhost_8080() {
        let settings = Settings::from_lookup(|_| None).unwrap();
        assert_eq!(settings.address, "127.0.0.1:8080".parse().unwrap());
    }

    #[test]
    fn a_bad_address_names_the_variable() {
        let error = Settings::from_lookup(|_| Some("localhost".into())).unwrap_err();
        assert_eq!(
            error.to_string(),
            "OUTFLANK_ADDR=\"localhost\" is not a valid socket address such as 127.0.0.1:8080"
        );
    }
}
