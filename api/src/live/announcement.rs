//! A game's broadcast as this node's subscribers receive it.

use std::sync::{Arc, OnceLock};

use bytestring::ByteString;

use super::Broadcast;

/// A broadcast shared by every subscriber on this node, with room for the frame the sockets
/// send for it: the first socket that sends it renders it, and the others send the same bytes.
/// A broadcast channel hands each receiver a clone, so a clone costs a reference count, not a
/// copy of the event.
#[derive(Clone, Debug)]
pub struct Announcement(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    broadcast: Broadcast,
    frame: OnceLock<Option<ByteString>>,
}

impl Announcement {
    pub fn new(broadcast: Broadcast) -> Announcement {
        Announcement(Arc::new(Shared { broadcast, frame: OnceLock::new() }))
    }

    /// What the game said.
    pub fn broadcast(&self) -> &Broadcast {
        &self.0.broadcast
    }

    /// The frame sockets send for this broadcast (`None`: nothing to send), rendered by `render`
    /// on the first call and the same on every later one. The socket edge is its only caller,
    /// with its one renderer.
    pub fn frame(
        &self,
        render: impl FnOnce(&Broadcast) -> Option<ByteString>,
    ) -> Option<ByteString> {
        self.0.frame.get_or_init(|| render(&self.0.broadcast)).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_rendered_once_and_shared_by_every_clone() {
        let announcement = Announcement::new(Broadcast::Presence { black: true, white: false });
        let copy = announcement.clone();
        let first = announcement.frame(|_| Some(ByteString::from_static("rendered")));
        let second = copy.frame(|_| Some(ByteString::from_static("rendered again")));
        assert_eq!(first.as_deref(), Some("rendered"));
        assert_eq!(second.as_deref(), Some("rendered"));
    }

    #[test]
    fn a_broadcast_with_nothing_to_send_stays_without_a_frame() {
        let announcement = Announcement::new(Broadcast::Shutdown);
        assert_eq!(announcement.frame(|_| None), None);
        assert_eq!(announcement.frame(|_| Some(ByteString::from_static("late"))), None);
    }
}
