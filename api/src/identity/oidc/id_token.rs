//! Checking an ID token: its signature against the provider's published key, and its claims
//! (`iss`, `aud`, `exp`, `nonce`, and `azp` when there are several audiences).

use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

use super::OidcError;
use super::keys::Key;

/// Signature algorithms accepted: the asymmetric ones providers publish keys for. `none` and
/// the HMAC family (which would make a public key a shared secret) are refused.
const ACCEPTED: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
];

/// Clock skew allowed between the provider and this server, in seconds.
const LEEWAY_SECONDS: u64 = 60;

/// What a token must say to be accepted.
#[derive(Debug)]
pub struct Expected<'a> {
    /// The configured issuer; see [`accepted_issuers`] for the forms of it a token may name.
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub nonce: &'a str,
}

/// The header fields that pick the key.
#[derive(Debug)]
pub struct KeyChoice {
    pub kid: String,
    pub algorithm: Algorithm,
}

/// Reads which key signed `token`, refusing algorithms that are not accepted.
///
/// # Errors
/// [`OidcError::BadToken`] for an unreadable header, an unaccepted algorithm or no key id.
pub fn key_choice(token: &str) -> Result<KeyChoice, OidcError> {
    let header = jsonwebtoken::decode_header(token)
        .map_err(|error| OidcError::BadToken(format!("unreadable header: {error}")))?;
    if !ACCEPTED.contains(&header.alg) {
        return Err(OidcError::BadToken(format!("algorithm {:?} is not accepted", header.alg)));
    }
    let kid = header.kid.ok_or_else(|| OidcError::BadToken("no key id".into()))?;
    Ok(KeyChoice { kid, algorithm: header.alg })
}

#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    nonce: Option<String>,
    aud: Audience,
    azp: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Audience {
    Many(Vec<String>),
    One(serde::de::IgnoredAny),
}

/// The `iss` values a token from `issuer` may carry: Google documents that its ID tokens name
/// `https://accounts.google.com` or `accounts.google.com`; every other provider names exactly
/// its issuer.
pub fn accepted_issuers(issuer: &str) -> Vec<&str> {
    if issuer == super::discovery::GOOGLE_ISSUER {
        vec![super::discovery::GOOGLE_ISSUER, "accounts.google.com"]
    } else {
        vec![issuer]
    }
}

/// Verifies `token`, signed with `key` using `algorithm`, and returns its subject.
///
/// # Errors
/// [`OidcError::BadToken`] naming what is wrong.
pub fn verify(
    token: &str,
    key: &Key,
    algorithm: Algorithm,
    expected: &Expected<'_>,
) -> Result<String, OidcError> {
    if let Some(key_algorithm) = key.jwk.common.key_algorithm
        && key_algorithm.to_string() != format!("{algorithm:?}")
    {
        return Err(OidcError::BadToken("the key is published for another algorithm".into()));
    }
    let mut validation = Validation::new(algorithm);
    validation.leeway = LEEWAY_SECONDS;
    validation.set_issuer(&accepted_issuers(expected.issuer));
    validation.set_audience(&[expected.client_id]);
    validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<Claims>(token, &key.decoding, &validation)
        .map_err(|error| OidcError::BadToken(error.to_string()))?
        .claims;
    if claims.nonce.as_deref() != Some(expected.nonce) {
        return Err(OidcError::BadToken("the nonce does not match this sign-in".into()));
    }
    if let Audience::Many(audiences) = &claims.aud
        && audiences.len() > 1
        && claims.azp.as_deref() != Some(expected.client_id)
    {
        return Err(OidcError::BadToken("the token was issued to another party".into()));
    }
    if claims.sub.is_empty() || claims.sub.len() > 255 {
        return Err(OidcError::BadToken("the subject is empty or too long".into()));
    }
    Ok(claims.sub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn google_tokens_may_name_the_issuer_with_or_without_https() {
        assert_eq!(
            accepted_issuers("https://accounts.google.com"),
            ["https://accounts.google.com", "accounts.google.com"]
        );
    }

    #[test]
    fn other_providers_must_name_exactly_their_issuer() {
        assert_eq!(accepted_issuers("https://id.example"), ["https://id.example"]);
    }
}
