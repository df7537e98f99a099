//! Web Push end to end: a browser's subscription is kept per kind, a notification of that kind
//! reaches its push service encrypted for that browser alone (decrypted here by the standard,
//! independently of the server's code) and signed with the key browsers subscribe with, and a
//! push service that says the subscription is gone has it removed.

use std::sync::{Arc, Mutex};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::{PublicKey, SecretKey};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::helpers::{TestApp, spawn_app_with};
use crate::oidc_support::{local_provider, named_account};

/// What the local push service received: the path, its headers and the body.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    encoding: String,
    ttl: String,
    authorization: String,
    body: Vec<u8>,
}

/// A push service on a free local port: `/push/gone/…` answers 410, others 201.
async fn push_service() -> (String, Arc<Mutex<Vec<Received>>>) {
    let received = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&received);
    let server = HttpServer::new(move || {
        let kept = Arc::clone(&kept);
        App::new().default_service(web::to(move |request: HttpRequest, body: web::Bytes| {
            let kept = Arc::clone(&kept);
            async move {
                let header = |name: &str| {
                    request
                        .headers()
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned()
                };
                let path = request.path().to_owned();
                kept.lock().unwrap().push(Received {
                    path: path.clone(),
                    encoding: header("content-encoding"),
                    ttl: header("ttl"),
                    authorization: header("authorization"),
                    body: body.to_vec(),
                });
                if path.starts_with("/push/gone/") {
                    HttpResponse::Gone().finish()
                } else {
                    HttpResponse::Created().finish()
                }
            }
        }))
    })
    .workers(1)
    .bind("127.0.0.1:0")
    .unwrap();
    let address = server.addrs()[0];
    actix_web::rt::spawn(server.run());
    (format!("http://{address}"), received)
}

/// A browser's push keys: its P-256 key and auth secret.
struct BrowserKeys {
    secret: SecretKey,
    auth: [u8; 16],
}

impl BrowserKeys {
    fn new() -> BrowserKeys {
        let secret = loop {
            if let Ok(secret) = SecretKey::from_slice(&rand::random::<[u8; 32]>()) {
                break secret;
            }
        };
        BrowserKeys { secret, auth: rand::random() }
    }

    fn subscription(&self, endpoint: &str, kinds: &[&str]) -> Value {
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.secret.public_key().to_sec1_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
            "kinds": kinds,
        })
    }

    /// Decrypts an `aes128gcm` push body as RFC 8291 says a browser does.
    fn decrypt(&self, body: &[u8]) -> Value {
        let (salt, rest) = body.split_at(16);
        let record_size = u32::from_be_bytes(rest[..4].try_into().unwrap());
        assert!(record_size >= 18);
        let key_length = usize::from(rest[4]);
        let (sender, sealed) = rest[5..].split_at(key_length);
        let sender_key = PublicKey::from_sec1_bytes(sender).unwrap();
        let shared =
            p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), sender_key.as_affine());
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(&self.secret.public_key().to_sec1_bytes());
        info.extend_from_slice(sender);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes().as_ref())
            .expand(&info, &mut ikm)
            .unwrap();
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let (mut key, mut nonce) = ([0u8; 16], [0u8; 12]);
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut key).unwrap();
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce).unwrap();
        let mut plain =
            Aes128Gcm::new(&key.into()).decrypt(Nonce::from_slice(&nonce), sealed).unwrap();
        assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
        serde_json::from_slice(&plain).unwrap()
    }
}

/// Checks the VAPID header: signed by `public_key` for the service at `audience`.
fn check_vapid(authorization: &str, public_key: &str, audience: &str) {
    let (token, key) = authorization.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
    assert_eq!(key, public_key);
    let (signed, signature) = token.rsplit_once('.').unwrap();
    let claims: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(signed.split_once('.').unwrap().1).unwrap())
            .unwrap();
    assert_eq!(claims["aud"], audience);
    assert_eq!(claims["sub"], "mailto:admin@localhost");
    let verifying = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(key).unwrap()).unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    assert!(verifying.verify(signed.as_bytes(), &signature).is_ok());
}

async fn app() -> Option<TestApp> {
    let provider = local_provider()?;
    Some(
        spawn_app_with(|settings| {
            settings.oidc = Some(provider.settings());
            settings.push_local_endpoints = true;
        })
        .await,
    )
}

async fn wait_for(received: &Arc<Mutex<Vec<Received>>>, n: usize) -> Vec<Received> {
    for _ in 0..200 {
        let now = received.lock().unwrap().clone();
        if now.len() >= n {
            return now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the push service received {} pushes, not {n}", received.lock().unwrap().len());
}

#[actix_web::test]
async fn a_notification_reaches_the_push_service_encrypted_for_the_browser_and_signed() {
    let Some(app) = app().await else { return };
    let (service, received) = push_service().await;
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let browser = BrowserKeys::new();
    let endpoint = format!("{service}/push/bob-1");
    let subscription = browser.subscription(&endpoint, &["challenge_received"]);
    assert_eq!(bob.post("/api/push/subscriptions", &subscription).await.status(), 201);
    let push: Value = bob.get("/api/push").await.json().await.unwrap();
    assert_eq!(
        push["subscriptions"],
        json!([{ "endpoint": endpoint, "kinds": ["challenge_received"] }])
    );

    let made = ann.post("/api/challenges", &json!({ "to": "Bob", "control": "3+2" })).await;
    assert_eq!(made.status(), 201);
    let pushes = wait_for(&received, 1).await;
    let pushed = &pushes[0];
    assert_eq!((pushed.path.as_str(), pushed.encoding.as_str()), ("/push/bob-1", "aes128gcm"));
    assert_eq!(pushed.ttl, "86400");
    check_vapid(&pushed.authorization, push["public_key"].as_str().unwrap(), &service);
    let message = browser.decrypt(&pushed.body);
    assert_eq!(message["kind"], "challenge_received");
    assert_eq!(message["title"], "Ann challenges you");
    assert_eq!(message["url"], "/");
}

#[actix_web::test]
async fn only_the_kinds_asked_for_are_pushed_and_a_gone_subscription_is_removed() {
    let Some(app) = app().await else { return };
    let (service, received) = push_service().await;
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let browser = BrowserKeys::new();
    let gone = format!("{service}/push/gone/ann");
    let subscription = browser.subscription(&gone, &["challenge_accepted"]);
    assert_eq!(ann.post("/api/push/subscriptions", &subscription).await.status(), 201);
    // Declined is not asked for: nothing is pushed.
    let first: Value =
        ann.post("/api/challenges", &json!({ "to": "Bob" })).await.json().await.unwrap();
    bob.post(&format!("/api/challenges/{}/decline", first["id"].as_str().unwrap()), &json!({}))
        .await;
    let second: Value =
        ann.post("/api/challenges", &json!({ "to": "Bob" })).await.json().await.unwrap();
    bob.post(&format!("/api/challenges/{}/accept", second["id"].as_str().unwrap()), &json!({}))
        .await;
    let pushes = wait_for(&received, 1).await;
    assert_eq!(browser.decrypt(&pushes[0].body)["kind"], "challenge_accepted");
    for _ in 0..200 {
        let push: Value = ann.get("/api/push").await.json().await.unwrap();
        if push["subscriptions"] == json!([]) {
            assert_eq!(received.lock().unwrap().len(), 1);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the gone subscription was kept");
}

#[actix_web::test]
async fn bad_subscriptions_are_refused_and_change_nothing() {
    let Some(app) = app().await else { return };
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let guest = app.user("Gus").await;
    let browser = BrowserKeys::new();
    let good = browser.subscription("http://127.0.0.1:9/push/1", &["daily_turn"]);
    let mut bad_keys = good.clone();
    bad_keys["keys"]["p256dh"] = json!("AAAA");
    let mut short_auth = good.clone();
    short_auth["keys"]["auth"] = json!("AAAA");
    let cases = [
        (&bob, browser.subscription("ftp://127.0.0.1/push", &["daily_turn"]), 422, "bad_endpoint"),
        (&bob, browser.subscription("not a url", &["daily_turn"]), 422, "bad_endpoint"),
        (&bob, bad_keys, 422, "bad_keys"),
        (&bob, short_auth, 422, "bad_keys"),
        (&bob, browser.subscription("http://127.0.0.1:9/push/1", &[]), 422, "no_kinds"),
        (
            &bob,
            browser.subscription("http://127.0.0.1:9/push/1", &["everything"]),
            400,
            "bad_request",
        ),
        (&guest, good.clone(), 401, "not_signed_in"),
    ];
    for (user, body, status, code) in cases {
        let response = user.post("/api/push/subscriptions", &body).await;
        let got = response.status().as_u16();
        let refused: Value = response.json().await.unwrap();
        assert_eq!((got, refused["error"]["code"].as_str()), (status, Some(code)), "{body}");
    }
    let push: Value = bob.get("/api/push").await.json().await.unwrap();
    assert_eq!(push["subscriptions"], json!([]));
    let missing = "/api/push/subscriptions?endpoint=http%3A%2F%2F127.0.0.1%3A9%2Fpush%2F1";
    assert_eq!(bob.delete(missing).await.status(), 404);
    assert_eq!(bob.delete("/api/push/subscriptions").await.status(), 400);
    assert_eq!(bob.post("/api/push/subscriptions", &good).await.status(), 201);
    assert_eq!(bob.post("/api/push/subscriptions", &good).await.status(), 200);
    assert_eq!(bob.delete(missing).await.status(), 204);
}
