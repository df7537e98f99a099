//! Client frames of the live-game WebSocket (`ClientMsg::parse`, the function the socket
//! handler calls on every text frame).
//!
//! Any text: parsing never panics. A frame that parses was within the size limit, and the
//! message written back as JSON parses to the same message; the message turns into a game
//! command (or none, for `join` and `ping`) without panicking. A frame that is refused has one
//! of the documented error codes, and the `error` reply built from it is a JSON `error`
//! message carrying that code.

#![no_main]

use libfuzzer_sys::fuzz_target;
use outflank_api::ws::protocol::{ClientMsg, MAX_FRAME_BYTES, ServerMsg};

const CODES: [&str; 7] = [
    "too_large",
    "bad_json",
    "missing_type",
    "unknown_type",
    "bad_square",
    "bad_game_id",
    "bad_message",
];

fuzz_target!(|data: &[u8]| {
    // Text frames reach the handler as valid UTF-8.
    let text = String::from_utf8_lossy(data);
    match ClientMsg::parse(&text) {
        Ok(msg) => {
            assert!(text.len() <= MAX_FRAME_BYTES, "a frame of {} bytes parsed", text.len());
            let json = serde_json::to_string(&msg).expect("a client message serializes");
            assert_eq!(ClientMsg::parse(&json), Ok(msg.clone()), "{json} does not read back");
            let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
            let kind = value["type"].as_str().expect("a type field");
            assert!(ClientMsg::TYPES.contains(&kind), "type {kind:?}");
            let action = msg.action();
            assert_eq!(
                action.is_none(),
                matches!(msg, ClientMsg::Join { .. } | ClientMsg::Ping),
                "{msg:?}"
            );
            if let Some(action) = action {
                assert_eq!(action.kind(), kind, "{json}");
            }
        }
        Err(error) => {
            assert!(CODES.contains(&error.code()), "undocumented code {}", error.code());
            let reply = ServerMsg::from(&error).to_json();
            let value: serde_json::Value =
                serde_json::from_str(&reply).expect("the error reply is JSON");
            assert_eq!(value["type"], "error", "{reply}");
            assert_eq!(value["code"], error.code(), "{reply}");
        }
    }
});
