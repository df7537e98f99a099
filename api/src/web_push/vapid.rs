//! The server's VAPID key (RFC 8292): a P-256 key whose public half browsers subscribe with,
//! and the short-lived ES256 token it signs for each push service.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::SecretKey;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use thiserror::Error;

use crate::domain::Timestamp;

/// How long a token is valid (the standard allows at most a day).
const TOKEN_LIFETIME_MS: i64 = 12 * 3600 * 1000;

/// The server's VAPID key.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
    /// The public key, uncompressed and base64url, as browsers take it.
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKey").field("public", &self.public).finish_non_exhaustive()
    }
}

/// A private key that is not one.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("a VAPID private key is 32 bytes in base64url, a P-256 scalar")]
pub struct BadVapidKey;

impl VapidKey {
    /// The key whose private scalar is `private` (base64url, 32 bytes).
    ///
    /// # Errors
    /// [`BadVapidKey`] when it is not one.
    pub fn parse(private: &str) -> Result<VapidKey, BadVapidKey> {
        let bytes = URL_SAFE_NO_PAD
            .decode(private.trim().trim_end_matches('='))
            .map_err(|_| BadVapidKey)?;
        let secret = SecretKey::from_slice(&bytes).map_err(|_| BadVapidKey)?;
        let public = URL_SAFE_NO_PAD.encode(secret.public_key().to_sec1_bytes());
        Ok(VapidKey { signing: SigningKey::from(secret), public })
    }

    /// A new key from 32 random bytes; `None` in the rare case they are no P-256 scalar.
    pub fn from_random(bytes: [u8; 32]) -> Option<(VapidKey, String)> {
        let private = URL_SAFE_NO_PAD.encode(bytes);
        VapidKey::parse(&private).ok().map(|key| (key, private))
    }

    /// The public key browsers subscribe with (`applicationServerKey`).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header for a push service at `audience` (its origin, as
    /// `https://push.example.net`), from `subject` (a `mailto:` or `https:` contact) at `now`.
    pub fn authorization(&self, audience: &str, subject: &str, now: Timestamp) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let expires = (now.0 + TOKEN_LIFETIME_MS) / 1000;
        let claims = serde_json::json!({ "aud": audience, "exp": expires, "sub": subject });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.signing.sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        format!("vapid t={signed}.{signature}, k={}", self.public)
    }
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::VerifyingKey;
    use p256::ecdsa::signature::Verifier;

    use super::*;

    #[test]
    fn the_token_is_signed_by_the_key_browsers_subscribe_with() {
        let (key, private) = VapidKey::from_random([7; 32]).unwrap();
        assert_eq!(VapidKey::parse(&private).unwrap().public_key(), key.public_key());
        let header = key.authorization(
            "https://push.example.net",
            "mailto:ops@example.org",
            Timestamp(1_000_000),
        );
        let (token, public) = header.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
        assert_eq!(public, key.public_key());
        let (signed, signature) = token.rsplit_once('.').unwrap();
        let claims: serde_json::Value = serde_json::from_slice(
            &URL_SAFE_NO_PAD.decode(signed.split_once('.').unwrap().1).unwrap(),
        )
        .unwrap();
        assert_eq!(
            claims,
            serde_json::json!({ "aud": "https://push.example.net", "exp": 1_000 + 12 * 3600, "sub": "mailto:ops@example.org" })
        );
        let verifying =
            VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(public).unwrap()).unwrap();
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
        assert!(verifying.verify(signed.as_bytes(), &signature).is_ok());
    }

    #[test]
    fn a_private_key_that_is_not_one_is_refused() {
        assert_eq!(VapidKey::parse("short").unwrap_err(), BadVapidKey);
        assert_eq!(VapidKey::parse(&URL_SAFE_NO_PAD.encode([0u8; 32])).unwrap_err(), BadVapidKey);
    }
}
