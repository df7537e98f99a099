//! Reading the provider's JSON documents (discovery, signing keys).

use serde::de::DeserializeOwned;

use super::OidcError;

/// GETs `url` and reads its JSON body; redirects and error statuses are failures.
pub(super) async fn get_json<T: DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
) -> Result<T, OidcError> {
    let response = http
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|error| OidcError::Provider(format!("GET {url}: {error}")))?;
    if !response.status().is_success() {
        return Err(OidcError::Provider(format!("GET {url}: status {}", response.status())));
    }
    response.json().await.map_err(|error| OidcError::Provider(format!("GET {url}: {error}")))
}
