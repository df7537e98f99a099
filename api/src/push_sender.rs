//! Sends a notification to the browsers its account subscribed for its kind, by Web Push:
//! each message encrypted for its browser and signed with the server's VAPID key, posted to the
//! browser's push service. A service that says the subscription is gone (404, 410) or not
//! this server's (403) has it removed. Nothing is sent, and no push service reached, without a subscription.

use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;
use serde_json::{Value, json};
use thiserror::Error;

use crate::domain::{NotificationKind, PlayerId, Timestamp};
use crate::social::Notification;
use crate::storage::{PushSubscriptionRow, Store};
use crate::web_push::{SubscriptionKeys, VapidKey, encrypt};

/// How long a push service keeps a message for a browser that is offline.
const TTL_SECONDS: u32 = 24 * 3600;
/// How long one push request may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// The longest endpoint kept.
pub const MAX_ENDPOINT: usize = 2048;

/// Sends pushes. Cheap to clone.
#[derive(Clone, Debug)]
pub struct PushSender {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    key: VapidKey,
    subject: String,
    client: reqwest::Client,
    store: Store,
    local_endpoints: bool,
}

/// An endpoint no push is sent to.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("a push endpoint is the https address of a public push service")]
pub struct BadEndpoint;

impl PushSender {
    /// A sender signing with `key` as `subject`; `local_endpoints` also allows http and local
    /// hosts (development and tests).
    pub fn new(key: VapidKey, subject: String, store: Store, local_endpoints: bool) -> PushSender {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(TIMEOUT)
            .build()
            .unwrap_or_default();
        PushSender { inner: Arc::new(Inner { key, subject, client, store, local_endpoints }) }
    }

    /// The key browsers subscribe with.
    pub fn public_key(&self) -> &str {
        self.inner.key.public_key()
    }

    /// `endpoint` if pushes may be sent there: https on a named public host (http and local
    /// hosts too when allowed), at most [`MAX_ENDPOINT`] long.
    ///
    /// # Errors
    /// [`BadEndpoint`] otherwise.
    pub fn check_endpoint(&self, endpoint: &str) -> Result<Url, BadEndpoint> {
        if endpoint.len() > MAX_ENDPOINT {
            return Err(BadEndpoint);
        }
        let url = Url::parse(endpoint).map_err(|_| BadEndpoint)?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(BadEndpoint);
        }
        if self.inner.local_endpoints {
            return match url.scheme() {
                "https" | "http" if url.host().is_some() => Ok(url),
                _ => Err(BadEndpoint),
            };
        }
        // Push services have public names; an address or a local name would let a subscription
        // make the server call inside its own network.
        match url.host() {
            Some(url::Host::Domain(host))
                if url.scheme() == "https"
                    && host.contains('.')
                    && !["localhost", "local", "internal", "lan", "home"]
                        .iter()
                        .any(|local| host == *local || host.ends_with(&format!(".{local}"))) =>
            {
                Ok(url)
            }
            _ => Err(BadEndpoint),
        }
    }

    /// Pushes `notification` to `to`'s browsers that asked for its kind, in the background.
    pub fn push(&self, to: &PlayerId, notification: &Notification) {
        let sender = self.clone();
        let to = to.clone();
        let notification = notification.clone();
        actix_web::rt::spawn(async move {
            let subscriptions = match sender.inner.store.push_subscriptions(&to).await {
                Ok(subscriptions) => subscriptions,
                Err(error) => return tracing::warn!(%error, "push subscriptions not read"),
            };
            let message = message(&notification).to_string();
            for subscription in subscriptions {
                if subscription.kinds.contains(&notification.kind) {
                    sender.send(&subscription, &message, notification.kind).await;
                }
            }
        });
    }

    async fn send(
        &self,
        subscription: &PushSubscriptionRow,
        message: &str,
        kind: NotificationKind,
    ) {
        let Ok(url) = self.check_endpoint(&subscription.endpoint) else { return };
        let Ok(keys) = SubscriptionKeys::parse(&subscription.p256dh, &subscription.auth) else {
            return;
        };
        let body = loop {
            let ephemeral: [u8; 32] = rand::random();
            let salt: [u8; 16] = rand::random();
            // A random scalar out of range is all but impossible; draw again if so.
            if let Ok(body) = encrypt(message.as_bytes(), &keys, &ephemeral, &salt) {
                break body;
            }
        };
        let audience = url.origin().ascii_serialization();
        let authorization =
            self.inner.key.authorization(&audience, &self.inner.subject, Timestamp::now());
        let urgency = if kind == NotificationKind::DailyReminder { "high" } else { "normal" };
        let sent = self
            .inner
            .client
            .post(url)
            .header("TTL", TTL_SECONDS.to_string())
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Urgency", urgency)
            .header("Authorization", authorization)
            .body(body)
            .send()
            .await;
        match sent {
            Ok(response) if response.status().is_success() => {}
            // Gone (404, 410), or made for another key (403, after the key changed): it will
            // never take a push from this server again.
            Ok(response) if matches!(response.status().as_u16(), 403 | 404 | 410) => {
                if let Err(error) =
                    self.inner.store.drop_push_subscription(&subscription.endpoint).await
                {
                    tracing::warn!(%error, "a gone push subscription was not removed");
                }
            }
            Ok(response) => tracing::info!(status = %response.status(), "a push was refused"),
            Err(error) => tracing::info!(%error, "a push could not be sent"),
        }
    }
}

/// What a browser shows for `notification`: a title, a line and where a click goes.
pub fn message(notification: &Notification) -> Value {
    let data = &notification.data;
    let text = |key: &str| data[key].as_str().unwrap_or("someone").to_owned();
    let game = |id: &Value| id.as_str().map_or_else(|| "/".to_owned(), |id| format!("/game/{id}"));
    let (title, body, url) = match notification.kind {
        NotificationKind::ChallengeReceived => (
            format!("{} challenges you", text("from")),
            format!(
                "{} — open Outflank to answer",
                data["control"].as_str().unwrap_or("30 s a move")
            ),
            "/".to_owned(),
        ),
        NotificationKind::ChallengeAccepted => (
            format!("{} accepted your challenge", text("to")),
            "Your game is on.".to_owned(),
            game(&data["game_id"]),
        ),
        NotificationKind::ChallengeDeclined => {
            (format!("{} declined your challenge", text("to")), String::new(), "/".to_owned())
        }
        NotificationKind::ReportActedOn => (
            "A report you made was acted on".to_owned(),
            format!("About {}. Thank you.", text("target")),
            "/".to_owned(),
        ),
        NotificationKind::DailyTurn => (
            "Your move".to_owned(),
            format!("Your daily game against {} waits for you.", text("opponent")),
            game(&data["game_id"]),
        ),
        NotificationKind::DailyReminder => (
            "Your time is running out".to_owned(),
            format!("Less than a tenth of your time is left against {}.", text("opponent")),
            game(&data["game_id"]),
        ),
        NotificationKind::FollowedStarted => (
            format!("{} started a game", text("player")),
            format!("against {} — watch it live", text("opponent")),
            game(&data["game_id"]),
        ),
        NotificationKind::GuestHistoryKept => {
            ("Your guest games are on your account".to_owned(), String::new(), "/".to_owned())
        }
    };
    json!({ "id": notification.id, "kind": notification.kind, "title": title, "body": body, "url": url })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn sender(local: bool) -> PushSender {
        let (key, _) = VapidKey::from_random([9; 32]).unwrap();
        let url = format!("sqlite://{}?mode=rwc", tempfile_path());
        let store = Store::connect(&url).await.unwrap();
        PushSender::new(key, "mailto:ops@example.org".into(), store, local)
    }

    fn tempfile_path() -> String {
        let dir = std::env::temp_dir()
            .join(format!("outflank-push-{}", crate::domain::GameId::generate()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("db.sqlite").display().to_string()
    }

    #[tokio::test]
    async fn only_public_https_push_services_are_reached() {
        let sender = sender(false).await;
        assert!(sender.check_endpoint("https://fcm.googleapis.com/fcm/send/abc").is_ok());
        assert!(
            sender.check_endpoint("https://updates.push.services.mozilla.com/wpush/v2/x").is_ok()
        );
        for refused in [
            "http://fcm.googleapis.com/fcm/send/abc",
            "https://127.0.0.1/push",
            "https://[::1]/push",
            "https://10.0.0.5/push",
            "https://localhost/push",
            "https://redis.internal/push",
            "https://printer.local/push",
            "https://intranet/push",
            "https://user:pass@push.example.net/x",
            "ftp://push.example.net/x",
            "not a url",
        ] {
            assert_eq!(sender.check_endpoint(refused).err(), Some(BadEndpoint), "{refused}");
        }
        let long = format!("https://push.example.net/{}", "a".repeat(MAX_ENDPOINT));
        assert_eq!(sender.check_endpoint(&long).err(), Some(BadEndpoint));
    }

    #[tokio::test]
    async fn local_endpoints_are_for_development_only() {
        let sender = sender(true).await;
        assert!(sender.check_endpoint("http://127.0.0.1:9000/push/1").is_ok());
        assert_eq!(sender.check_endpoint("file:///etc/passwd").err(), Some(BadEndpoint));
    }
}
