//! The site's public address (`OUTFLANK_PUBLIC_URL`).

/// The public address of the site, e.g. `https://outflank.example`: used in links and as the
/// only origin allowed to change state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    /// Scheme, host and port, without a trailing slash: what browsers send as `Origin`.
    origin: String,
}

impl PublicUrl {
    /// Parses an `http://` or `https://` URL; a path after the host is not allowed.
    pub fn parse(text: &str) -> Option<PublicUrl> {
        let text = text.trim().trim_end_matches('/');
        let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"))?;
        let valid = !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
        valid.then(|| PublicUrl { origin: text.to_ascii_lowercase() })
    }

    /// The origin, e.g. `https://outflank.example`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Whether cookies must be marked `Secure`.
    pub fn is_https(&self) -> bool {
        self.origin.starts_with("https://")
    }
}
