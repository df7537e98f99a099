//! The server binary's commands besides serving: `outflank moderators add NAME`,
//! `outflank moderators remove NAME` and `outflank moderators list`, on the database the
//! server is configured with (either backend).

use std::fmt::Write;

use thiserror::Error;

use crate::accounts::PublicName;
use crate::domain::Timestamp;
use crate::storage::{DbError, Store};

/// How the commands are written, for `--help` and mistakes.
pub const USAGE: &str =
    "usage: outflank moderators add NAME | moderators remove NAME | moderators list";

/// Why a command failed; the message is printed as it is.
#[derive(Debug, Error)]
pub enum CommandError {
    #[error("{USAGE}")]
    Usage,
    #[error("there is no account called {0:?}")]
    NoAccount(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Whether `args` (without the program's name) ask for a command rather than the server.
pub fn is_command(args: &[String]) -> bool {
    args.first().is_some_and(|first| first == "moderators")
}

/// Runs the command `args` against `store` at `now`; returns what to print.
///
/// # Errors
/// [`CommandError`] saying what was wrong; nothing is changed then.
pub async fn run(store: &Store, args: &[String], now: Timestamp) -> Result<String, CommandError> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["moderators", "add", name] => {
            let name = account_name(name)?;
            let added =
                store.add_moderator(&name, now).await.map_err(|error| missing(error, &name))?;
            Ok(if added {
                format!("{name} is now a moderator\n")
            } else {
                format!("{name} was a moderator already\n")
            })
        }
        ["moderators", "remove", name] => {
            let name = account_name(name)?;
            let removed =
                store.remove_moderator(&name, now).await.map_err(|error| missing(error, &name))?;
            Ok(if removed {
                format!("{name} is no longer a moderator\n")
            } else {
                format!("{name} was not a moderator\n")
            })
        }
        ["moderators", "list"] => {
            let mut out = String::new();
            for moderator in store.moderators().await? {
                let name = moderator.name.unwrap_or_else(|| format!("({})", moderator.player));
                let _ = writeln!(out, "{name}");
            }
            if out.is_empty() {
                out.push_str("no moderators\n");
            }
            Ok(out)
        }
        _ => Err(CommandError::Usage),
    }
}

fn account_name(text: &str) -> Result<PublicName, CommandError> {
    PublicName::parse(text).map_err(|_| CommandError::NoAccount(text.to_owned()))
}

fn missing(error: DbError, name: &PublicName) -> CommandError {
    match error {
        DbError::NotFound => CommandError::NoAccount(name.to_string()),
        other => CommandError::Db(other),
    }
}
