//! A push message's body for one subscription: RFC 8291's key derivation from the browser's
//! P-256 key and auth secret, and one `aes128gcm` record (RFC 8188).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;
use thiserror::Error;

/// The record size announced in the header: one record holds the whole message.
const RECORD_SIZE: u32 = 4096;

/// A subscription's keys, as the browser gives them (`p256dh`, `auth`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionKeys {
    /// The browser's public key, an uncompressed P-256 point (65 bytes).
    p256dh: Vec<u8>,
    /// The browser's 16-byte auth secret.
    auth: [u8; 16],
}

/// Keys that are not a subscription's.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("a subscription's keys are base64url: p256dh a P-256 point, auth 16 bytes")]
pub struct BadSubscriptionKey;

impl SubscriptionKeys {
    /// The keys from their base64url text, checked.
    ///
    /// # Errors
    /// [`BadSubscriptionKey`] when either is not what the standard says.
    pub fn parse(p256dh: &str, auth: &str) -> Result<SubscriptionKeys, BadSubscriptionKey> {
        let point =
            URL_SAFE_NO_PAD.decode(p256dh.trim_end_matches('=')).map_err(|_| BadSubscriptionKey)?;
        if point.len() != 65 || PublicKey::from_sec1_bytes(&point).is_err() {
            return Err(BadSubscriptionKey);
        }
        let auth =
            URL_SAFE_NO_PAD.decode(auth.trim_end_matches('=')).map_err(|_| BadSubscriptionKey)?;
        let auth: [u8; 16] = auth.try_into().map_err(|_| BadSubscriptionKey)?;
        Ok(SubscriptionKeys { p256dh: point, auth })
    }
}

/// `plaintext` encrypted for `keys`, with the sender's one-time key `ephemeral` (32 random
/// bytes, a valid P-256 scalar) and a random 16-byte `salt`: the body of the push request.
///
/// # Errors
/// [`BadSubscriptionKey`] when `ephemeral` is no P-256 scalar (draw again).
pub fn encrypt(
    plaintext: &[u8],
    keys: &SubscriptionKeys,
    ephemeral: &[u8; 32],
    salt: &[u8; 16],
) -> Result<Vec<u8>, BadSubscriptionKey> {
    let secret = SecretKey::from_slice(ephemeral).map_err(|_| BadSubscriptionKey)?;
    let sender_public = secret.public_key().to_sec1_bytes();
    let browser = PublicKey::from_sec1_bytes(&keys.p256dh).map_err(|_| BadSubscriptionKey)?;
    let shared = p256::ecdh::diffie_hellman(secret.to_nonzero_scalar(), browser.as_affine());

    // RFC 8291 §3.3: the input keying material from the shared secret and the auth secret.
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(&keys.p256dh);
    key_info.extend_from_slice(&sender_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(&keys.auth), shared.raw_secret_bytes().as_ref())
        .expand(&key_info, &mut ikm)
        .map_err(|_| BadSubscriptionKey)?;

    // RFC 8188 §2.2–2.3: the content key and the nonce of the one record.
    let record = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut key = [0u8; 16];
    let mut nonce = [0u8; 12];
    record.expand(b"Content-Encoding: aes128gcm\0", &mut key).map_err(|_| BadSubscriptionKey)?;
    record.expand(b"Content-Encoding: nonce\0", &mut nonce).map_err(|_| BadSubscriptionKey)?;

    // The last (and only) record ends with the delimiter 2, without padding.
    let mut padded = plaintext.to_vec();
    padded.push(2);
    let cipher = Aes128Gcm::new(&key.into());
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), padded.as_slice())
        .map_err(|_| BadSubscriptionKey)?;

    let mut body = Vec::with_capacity(16 + 4 + 1 + sender_public.len() + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(u8::try_from(sender_public.len()).unwrap_or(65));
    body.extend_from_slice(&sender_public);
    body.extend_from_slice(&sealed);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(text: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(text).unwrap()
    }

    /// RFC 8291, Appendix A.
    #[test]
    fn the_rfcs_example_encrypts_to_its_body() {
        let keys = SubscriptionKeys::parse(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            "BTBZMqHH6r4Tts7J_aSIgg",
        )
        .unwrap();
        let ephemeral: [u8; 32] =
            bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw").try_into().unwrap();
        let salt: [u8; 16] = bytes("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = encrypt(b"When I grow up, I want to be a watermelon", &keys, &ephemeral, &salt)
            .unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
    }

    #[test]
    fn keys_that_are_not_a_subscriptions_are_refused() {
        let auth = "BTBZMqHH6r4Tts7J_aSIgg";
        assert_eq!(SubscriptionKeys::parse("AAAA", auth), Err(BadSubscriptionKey));
        let point = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
        assert_eq!(SubscriptionKeys::parse(point, "short"), Err(BadSubscriptionKey));
        assert_eq!(SubscriptionKeys::parse(point, "not base64!"), Err(BadSubscriptionKey));
        let mut off_curve = bytes(point);
        off_curve[64] ^= 1;
        assert_eq!(
            SubscriptionKeys::parse(&URL_SAFE_NO_PAD.encode(off_curve), auth),
            Err(BadSubscriptionKey)
        );
    }
}
