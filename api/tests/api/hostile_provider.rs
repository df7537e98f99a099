//! An OpenID provider that misbehaves on purpose, over real HTTP: discovery, keys, an
//! authorization endpoint that sends the browser straight back, and a token endpoint whose ID
//! token has one chosen flaw. The happy path is tested against the real local provider; this
//! one proves each flaw is refused.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::{App, HttpResponse, HttpServer, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use outflank_api::configuration::{OidcSettings, Secret};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};

pub const CLIENT_ID: &str = "outflank-hostile-test";

/// What is wrong with the ID token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Nothing: a valid token (shows the fixture itself works).
    None,
    WrongNonce,
    WrongAudience,
    WrongIssuer,
    Expired,
    /// Signed with another key, under the published key's id.
    BadSignature,
    /// Signed with a key the provider does not publish.
    UnknownKey,
    /// `alg: none`, no signature.
    Unsigned,
}

/// A signing key and its public JWK.
struct Key {
    kid: String,
    encoding: EncodingKey,
    jwk: Value,
}

impl Key {
    fn generate(kid: &str) -> Key {
        let secret = loop {
            let bytes: [u8; 32] = rand::random();
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let der = secret.to_pkcs8_der().unwrap();
        let point = secret.public_key().to_sec1_bytes();
        let jwk = json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        });
        Key { kid: kid.into(), encoding: EncodingKey::from_ec_der(der.as_bytes()), jwk }
    }

    fn sign(&self, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

struct State {
    issuer: String,
    flaw: Flaw,
    published: Key,
    other: Key,
    /// Nonces by the codes handed out.
    nonces: Mutex<HashMap<String, String>>,
    /// How often the discovery document was read.
    discovery_reads: Arc<AtomicUsize>,
}

/// A running hostile provider; stops with the test's runtime.
pub struct HostileProvider {
    pub issuer: String,
    discovery_reads: Arc<AtomicUsize>,
}

impl HostileProvider {
    pub async fn start(flaw: Flaw) -> HostileProvider {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let discovery_reads = Arc::new(AtomicUsize::new(0));
        let state = web::Data::new(State {
            discovery_reads: discovery_reads.clone(),
            issuer: issuer.clone(),
            flaw,
            published: Key::generate("published"),
            other: Key::generate("other"),
            nonces: Mutex::new(HashMap::new()),
        });
        let server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .route("/.well-known/openid-configuration", web::get().to(discovery))
                .route("/jwks", web::get().to(jwks))
                .route("/authorize", web::get().to(authorize))
                .route("/token", web::post().to(token))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        actix_web::rt::spawn(server);
        HostileProvider { issuer, discovery_reads }
    }

    /// How often the discovery document has been read.
    pub fn discovery_reads(&self) -> usize {
        self.discovery_reads.load(Ordering::SeqCst)
    }

    pub fn settings(&self) -> OidcSettings {
        OidcSettings {
            issuer: self.issuer.clone(),
            client_id: CLIENT_ID.into(),
            client_secret: Secret::new("hostile-secret"),
        }
    }
}

async fn discovery(state: web::Data<State>) -> HttpResponse {
    state.discovery_reads.fetch_add(1, Ordering::SeqCst);
    let issuer = &state.issuer;
    HttpResponse::Ok().json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
    }))
}

async fn jwks(state: web::Data<State>) -> HttpResponse {
    HttpResponse::Ok().json(json!({ "keys": [state.published.jwk] }))
}

/// Sends the browser straight back with a code, remembering the request's nonce.
async fn authorize(
    state: web::Data<State>,
    query: web::Query<HashMap<String, String>>,
) -> HttpResponse {
    let code = format!("code-{}", state.nonces.lock().unwrap().len());
    state.nonces.lock().unwrap().insert(code.clone(), query["nonce"].clone());
    let back = reqwest::Url::parse_with_params(
        &query["redirect_uri"],
        [("code", code.as_str()), ("state", query["state"].as_str())],
    )
    .unwrap();
    HttpResponse::Found().insert_header(("location", back.to_string())).finish()
}

/// Answers with an ID token carrying the provider's flaw.
async fn token(state: web::Data<State>, form: web::Form<HashMap<String, String>>) -> HttpResponse {
    let Some(nonce) = state.nonces.lock().unwrap().remove(&form["code"]) else {
        return HttpResponse::BadRequest().json(json!({ "error": "invalid_grant" }));
    };
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let mut claims = json!({
        "iss": state.issuer, "aud": CLIENT_ID, "sub": "hostile-subject",
        "iat": now, "exp": now + 300, "nonce": nonce,
    });
    let published = &state.published;
    let id_token = match state.flaw {
        Flaw::WrongNonce => {
            claims["nonce"] = json!("another-nonce");
            published.sign(&published.kid, &claims)
        }
        Flaw::WrongAudience => {
            claims["aud"] = json!("another-client");
            published.sign(&published.kid, &claims)
        }
        Flaw::WrongIssuer => {
            claims["iss"] = json!("https://issuer.example");
            published.sign(&published.kid, &claims)
        }
        Flaw::Expired => {
            claims["iat"] = json!(now - 7200);
            claims["exp"] = json!(now - 3600);
            published.sign(&published.kid, &claims)
        }
        Flaw::BadSignature => state.other.sign(&published.kid, &claims),
        Flaw::UnknownKey => state.other.sign(&state.other.kid, &claims),
        Flaw::Unsigned => {
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT","kid":"published"}"#);
            let body = URL_SAFE_NO_PAD.encode(claims.to_string());
            format!("{header}.{body}.")
        }
        Flaw::None => published.sign(&published.kid, &claims),
    };
    HttpResponse::Ok().json(json!({
        "access_token": "access", "token_type": "Bearer", "expires_in": 300, "id_token": id_token,
    }))
}
