//! Sign-in with an OpenID Connect provider (Google in production, a local provider in tests):
//! the authorization-code flow with PKCE, `state` and `nonce` (the `oauth2` crate builds the
//! request and exchanges the code), and the ID token verified here against the provider's
//! published keys. The HTTP client follows no redirects.

mod discovery;
mod error;
mod fetch;
mod id_token;
mod keys;
pub mod login;

use std::sync::Arc;
use std::time::{Duration, Instant};

use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    ExtraTokenFields, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
    StandardRevocableToken, StandardTokenResponse, TokenUrl,
};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use crate::secret::Secret;
pub use discovery::{GOOGLE_ISSUER, Metadata};
pub use error::OidcError;
use keys::KeyCache;
pub use login::Login;

/// The OpenID Connect client: which provider, and this site's credentials with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OidcSettings {
    /// The issuer; its discovery document is at `<issuer>/.well-known/openid-configuration`.
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Secret,
}

/// How long a call to the provider may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the discovery document is kept before it is read again (providers move endpoints
/// rarely, but a server runs for months).
pub const METADATA_TTL: Duration = Duration::from_secs(3600);

/// Who signed in: the provider and its stable id for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub issuer: String,
    pub subject: String,
}

/// The extra field of an OpenID token response.
#[derive(Clone, Debug, Deserialize, Serialize)]
struct IdTokenField {
    id_token: Option<String>,
}

impl ExtraTokenFields for IdTokenField {}

type TokenResponse = StandardTokenResponse<IdTokenField, BasicTokenType>;

type Client = oauth2::Client<
    BasicErrorResponse,
    TokenResponse,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// The sign-in service for one provider and client. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Oidc {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: OidcSettings,
    http: reqwest::Client,
    /// The discovery document and when it was read.
    metadata: Mutex<Option<(Metadata, Instant)>>,
    /// How long the document is kept.
    metadata_ttl: Duration,
    keys: KeyCache,
}

impl Oidc {
    /// Sign-in with the provider and client of `settings`. Nothing is fetched until the first
    /// sign-in, so a provider that is down does not stop the server from starting.
    ///
    /// # Errors
    /// [`OidcError::Provider`] if the HTTP client cannot be built.
    pub fn new(settings: OidcSettings) -> Result<Oidc, OidcError> {
        Oidc::with_metadata_ttl(settings, METADATA_TTL)
    }

    /// Like [`Oidc::new`], keeping the discovery document for `metadata_ttl` instead of
    /// [`METADATA_TTL`].
    ///
    /// # Errors
    /// [`OidcError::Provider`] if the HTTP client cannot be built.
    pub fn with_metadata_ttl(
        settings: OidcSettings,
        metadata_ttl: Duration,
    ) -> Result<Oidc, OidcError> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(HTTP_TIMEOUT)
            .build()
            .map_err(|error| OidcError::Provider(error.to_string()))?;
        let inner = Inner {
            settings,
            http,
            metadata: Mutex::new(None),
            metadata_ttl,
            keys: KeyCache::default(),
        };
        Ok(Oidc { inner: Arc::new(inner) })
    }

    /// Starts a sign-in that returns to `redirect_uri`: the provider's address to send the
    /// browser to, and the secrets of this attempt to keep in a signed cookie until it returns.
    ///
    /// # Errors
    /// [`OidcError::Provider`] when the discovery document cannot be read.
    pub async fn begin(
        &self,
        redirect_uri: &str,
        return_to: &str,
    ) -> Result<(String, Login), OidcError> {
        let client = self.client(redirect_uri).await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let nonce = CsrfToken::new_random();
        let (url, state) = client
            .authorize_url(CsrfToken::new_random)
            .add_scope(Scope::new("openid".into()))
            .add_extra_param("nonce", nonce.secret())
            .set_pkce_challenge(challenge)
            .url();
        let login = Login {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            verifier: verifier.secret().clone(),
            redirect_uri: redirect_uri.to_owned(),
            return_to: return_to.to_owned(),
        };
        Ok((url.into(), login))
    }

    /// Finishes the sign-in `login` began: exchanges `code` and verifies the ID token. The
    /// caller has already checked the returned `state` against `login.state`.
    ///
    /// # Errors
    /// [`OidcError`] saying which step failed.
    pub async fn finish(&self, login: &Login, code: &str) -> Result<Identity, OidcError> {
        let client = self.client(&login.redirect_uri).await?;
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(PkceCodeVerifier::new(login.verifier.clone()))
            .request_async(&self.inner.http)
            .await
            .map_err(|error| OidcError::Exchange(error.to_string()))?;
        let token = response
            .extra_fields()
            .id_token
            .clone()
            .ok_or_else(|| OidcError::Exchange("the response has no ID token".into()))?;
        let metadata = self.metadata().await?;
        let choice = id_token::key_choice(&token)?;
        let key = self.inner.keys.key(&self.inner.http, &metadata.jwks_uri, &choice.kid).await?;
        let expected = id_token::Expected {
            issuer: &self.inner.settings.issuer,
            client_id: &self.inner.settings.client_id,
            nonce: &login.nonce,
        };
        let subject = id_token::verify(&token, &key, choice.algorithm, &expected)?;
        Ok(Identity { issuer: self.inner.settings.issuer.clone(), subject })
    }

    /// The provider's discovery document, read again once it is `metadata_ttl` old. If the
    /// provider cannot be read then, the document already held goes on serving.
    async fn metadata(&self) -> Result<Metadata, OidcError> {
        let mut cached = self.inner.metadata.lock().await;
        if let Some((metadata, read_at)) = cached.as_ref()
            && read_at.elapsed() < self.inner.metadata_ttl
        {
            return Ok(metadata.clone());
        }
        match discovery::fetch(&self.inner.http, &self.inner.settings.issuer).await {
            Ok(metadata) => {
                *cached = Some((metadata.clone(), Instant::now()));
                Ok(metadata)
            }
            Err(error) => match cached.as_ref() {
                Some((stale, _)) => {
                    tracing::warn!(%error, "the discovery document could not be read again");
                    Ok(stale.clone())
                }
                None => Err(error),
            },
        }
    }

    async fn client(&self, redirect_uri: &str) -> Result<Client, OidcError> {
        let metadata = self.metadata().await?;
        let bad = |what: &str, error: oauth2::url::ParseError| {
            OidcError::Provider(format!("{what} is not a URL: {error}"))
        };
        let settings = &self.inner.settings;
        Ok(oauth2::Client::new(ClientId::new(settings.client_id.clone()))
            .set_client_secret(ClientSecret::new(settings.client_secret.expose().to_owned()))
            .set_auth_uri(
                AuthUrl::new(metadata.authorization_endpoint)
                    .map_err(|error| bad("the authorization endpoint", error))?,
            )
            .set_token_uri(
                TokenUrl::new(metadata.token_endpoint)
                    .map_err(|error| bad("the token endpoint", error))?,
            )
            .set_redirect_uri(
                RedirectUrl::new(redirect_uri.to_owned())
                    .map_err(|error| bad("the redirect URI", error))?,
            ))
    }
}
