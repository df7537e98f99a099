//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`), in colour only when
//! stderr is a terminal and `NO_COLOR` is not set.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls do nothing.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let no_color = std::env::var("NO_COLOR").ok();
    let ansi = colour(std::io::stderr().is_terminal(), no_color.as_deref());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .try_init();
}

/// Whether to write colour codes: only to a terminal, and never when `NO_COLOR` is set to
/// something (<https://no-color.org>).
pub fn colour(is_terminal: bool, no_color: Option<&str>) -> bool {
    is_terminal && no_color.is_none_or(str::is_empty)
}

#[cfg(test)]
mod tests {
    use super::colour;

    #[test]
    fn colour_only_on_a_terminal_and_never_with_no_color() {
        assert!(colour(true, None));
        assert!(colour(true, Some("")));
        assert!(!colour(true, Some("1")));
        assert!(!colour(false, None));
        assert!(!colour(false, Some("1")));
    }
}
