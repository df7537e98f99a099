//! WebSocket messages of live games.

pub mod protocol;
