//! The provider's discovery document (`/.well-known/openid-configuration`): where to send the
//! browser, where to exchange codes, and where the signing keys are.

use serde::Deserialize;

use super::OidcError;
use super::fetch::get_json;

/// Google's OpenID issuer, the default identity provider.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

/// The parts of the discovery document sign-in needs.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Metadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

/// The discovery document's address for `issuer`.
pub fn discovery_url(issuer: &str) -> String {
    format!("{}/.well-known/openid-configuration", issuer.trim_end_matches('/'))
}

/// Fetches and checks `issuer`'s discovery document: it must name exactly that issuer.
pub async fn fetch(http: &reqwest::Client, issuer: &str) -> Result<Metadata, OidcError> {
    let metadata: Metadata = get_json(http, &discovery_url(issuer)).await?;
    if metadata.issuer != issuer {
        return Err(OidcError::Provider(format!(
            "the discovery document names issuer {:?}, not {issuer:?}",
            metadata.issuer
        )));
    }
    Ok(metadata)
}
