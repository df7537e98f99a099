//! The way into a game's task on this node: requests over a channel, answered one by one.

use tokio::sync::{broadcast, mpsc, oneshot};

use crate::domain::PlayerId;
use crate::live::{Announcement, CatchUp, Command, Seat};

use crate::service::ServiceError;

/// A subscription to one game: what was missed, then the live stream (with no gap between).
#[derive(Debug)]
pub struct Subscription {
    /// What the subscriber may do in the game.
    pub seat: Seat,
    pub catch_up: CatchUp,
    /// Whether each side has someone connected, this subscriber included: `(black, white)`.
    pub presence: (bool, bool),
    pub events: broadcast::Receiver<Announcement>,
}

/// A request to a game's task.
pub(super) enum Request {
    Command {
        command: Command,
        reply: oneshot::Sender<Result<(), ServiceError>>,
    },
    Subscribe {
        player: PlayerId,
        since: Option<u64>,
        reply: oneshot::Sender<Subscription>,
    },
    Presence {
        player: PlayerId,
        connected: bool,
    },
    /// Stop: another node runs the game now.
    Stop,
}

/// The task running a game on this node. Cheap to clone.
#[derive(Clone, Debug)]
pub(super) struct LocalGame {
    requests: mpsc::Sender<Request>,
}

impl LocalGame {
    pub(super) fn new(requests: mpsc::Sender<Request>) -> LocalGame {
        LocalGame { requests }
    }

    pub(super) async fn command(&self, command: Command) -> Result<(), ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Command { command, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)?
    }

    pub(super) async fn subscribe(
        &self,
        player: PlayerId,
        since: Option<u64>,
    ) -> Result<Subscription, ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Subscribe { player, since, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)
    }

    pub(super) async fn presence(&self, player: PlayerId, connected: bool) {
        let _ = self.requests.send(Request::Presence { player, connected }).await;
    }

    /// Asks the task to stop (another node has taken the game over).
    pub(super) async fn stop(&self) {
        let _ = self.requests.send(Request::Stop).await;
    }

    pub(super) fn is_running(&self) -> bool {
        !self.requests.is_closed()
    }
}
