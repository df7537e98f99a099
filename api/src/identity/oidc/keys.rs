//! The provider's signing keys (its JWKS), cached by key id and fetched again when a token names
//! a key id the cache does not hold, which is how providers roll their keys over.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use tokio::sync::Mutex;

use super::OidcError;

/// However many unknown key ids arrive, the key set is fetched at most this often.
const MIN_REFETCH: Duration = Duration::from_secs(1);

/// A key from the set, ready to verify with.
#[derive(Clone)]
pub struct Key {
    pub jwk: Jwk,
    pub decoding: DecodingKey,
}

/// Keys by id, with when they were last fetched.
#[derive(Default)]
pub struct KeyCache {
    state: Mutex<Cached>,
}

#[derive(Default)]
struct Cached {
    keys: HashMap<String, Key>,
    fetched_at: Option<Instant>,
}

impl std::fmt::Debug for KeyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyCache").finish_non_exhaustive()
    }
}

impl KeyCache {
    /// The key called `kid` at `jwks_uri`, fetching the set when the cache lacks it.
    ///
    /// # Errors
    /// [`OidcError::UnknownKey`] when the provider does not publish it;
    /// [`OidcError::Provider`] when the set cannot be fetched.
    pub async fn key(
        &self,
        http: &reqwest::Client,
        jwks_uri: &str,
        kid: &str,
    ) -> Result<Key, OidcError> {
        let mut cached = self.state.lock().await;
        if let Some(key) = cached.keys.get(kid) {
            return Ok(key.clone());
        }
        let recently = cached.fetched_at.is_some_and(|at| at.elapsed() < MIN_REFETCH);
        if !recently {
            let set: JwkSet = super::fetch::get_json(http, jwks_uri).await?;
            cached.keys = usable_keys(set);
            cached.fetched_at = Some(Instant::now());
        }
        cached.keys.get(kid).cloned().ok_or(OidcError::UnknownKey)
    }
}

/// The keys of `set` that have an id and can verify signatures; others are skipped.
fn usable_keys(set: JwkSet) -> HashMap<String, Key> {
    set.keys
        .into_iter()
        .filter_map(|jwk| {
            let kid = jwk.common.key_id.clone()?;
            let decoding = DecodingKey::from_jwk(&jwk).ok()?;
            Some((kid, Key { jwk, decoding }))
        })
        .collect()
}
