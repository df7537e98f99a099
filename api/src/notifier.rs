//! One way to notify an account: the notification is stored, then told to the account's open
//! sockets on every node, then pushed to the browsers it subscribed for that kind. A
//! notification that cannot be stored is logged and goes no further: what caused it stands.

use crate::domain::{NotificationKind, PlayerId, Timestamp};
use crate::player_feed::PlayerFeed;
use crate::push_sender::PushSender;
use crate::social::{Notification, PlayerEvent};
use crate::storage::Store;

/// Notifies accounts. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Notifier {
    store: Store,
    feed: PlayerFeed,
    push: PushSender,
}

impl Notifier {
    pub fn new(store: Store, feed: PlayerFeed, push: PushSender) -> Notifier {
        Notifier { store, feed, push }
    }

    /// Notifies `to` of `kind` with `data` at `now`; the stored notification, if it was.
    pub async fn notify(
        &self,
        to: &PlayerId,
        kind: NotificationKind,
        data: serde_json::Value,
        now: Timestamp,
    ) -> Option<Notification> {
        match self.store.notify(to, kind, data, now).await {
            Ok(notification) => {
                let event = PlayerEvent::Notification { notification: notification.clone() };
                self.feed.tell(to, &event);
                self.push.push(to, &notification);
                Some(notification)
            }
            Err(error) => {
                tracing::warn!(%error, kind = kind.as_str(), "a notification was not stored");
                None
            }
        }
    }

    /// The players' feeds the notifications are told on.
    pub fn feed(&self) -> &PlayerFeed {
        &self.feed
    }
}
