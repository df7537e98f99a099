//! Pairing of players waiting for quick and ranked games. Not built yet: the pairing policy
//! and its queues arrive with the matchmaking work; nothing here is used by the server today.
