//! Parsing, serialization, and the examples in `docs/protocol.md`.

use outflank_engine::ai::Level;
use outflank_engine::{Color, Move, Square};
use serde_json::{Value, json};

use super::*;
use crate::domain::{GameId, Nickname, ParseIdError, PlayerId, Timestamp};
use crate::live::{
    Action, Command, CommandError, Event, GameState, Human, Pool, SearchId, Seat, Setup, Timing,
};

const DOC: &str = include_str!("../../../../docs/protocol.md");

/// The time the example games start at.
const T0: Timestamp = Timestamp(1_700_000_000_000);

fn ann() -> PlayerId {
    "annaaaaaaaaaaaaa".parse().unwrap()
}

fn ben() -> PlayerId {
    "bennbbbbbbbbbbbb".parse().unwrap()
}

fn game_id() -> GameId {
    "k7Hq2mXp9R".parse().unwrap()
}

fn human(id: PlayerId, name: &str) -> Human {
    Human { id, name: Nickname::parse(name).unwrap() }
}

fn friend_game() -> GameState {
    let setup = Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    GameState::new(game_id(), setup, Timing::default(), T0)
}

/// Applies a command, returning the public messages it produced.
fn apply(state: &mut GameState, command: Command, now: Timestamp) -> Vec<ServerMsg> {
    let events = state.apply(command, now).expect("an accepted command");
    events.iter().filter_map(ServerMsg::from_event).collect()
}

/// The side to move plays each square one second apart from `T0`; returns the messages.
fn play(state: &mut GameState, line: &str) -> Vec<ServerMsg> {
    let mut messages = Vec::new();
    for square in line.split_whitespace() {
        let side = state.game().side_to_move();
        let by = state.setup().human(side).unwrap().id.clone();
        let now = T0.plus(1_000 * (state.game().plies().len() as i64 + 1));
        let square = square.parse().unwrap();
        messages.extend(apply(state, Command::play(by, square), now));
    }
    messages
}

fn last(messages: Vec<ServerMsg>) -> ServerMsg {
    messages.into_iter().last().expect("a message")
}

/// One real message of every kind, from example games.
fn examples() -> Vec<ServerMsg> {
    let mut examples = Vec::new();

    let mut state = friend_game();
    play(&mut state, "d3 c3");
    examples.push(ServerMsg::snapshot(&state.snapshot(T0.plus(6_500)), Seat::Black));

    let setup = Setup::Computer {
        human: human(ann(), "Ann"),
        color: Color::White,
        level: Level::HARD,
        timed: false,
        stand_in: false,
    };
    let mut computer = GameState::new(game_id(), setup, Timing::default(), T0);
    let reply = Command::ComputerMove { search_id: SearchId(1), mv: Move::Place(Square::D3) };
    computer.apply(reply, T0.plus(900)).unwrap();
    examples.push(ServerMsg::snapshot(&computer.snapshot(T0.plus(2_000)), Seat::White));

    let mut state = friend_game();
    examples.push(last(play(&mut state, "d3")));

    let mut state = friend_game();
    examples.push(last(play(&mut state, "d3 c3 b3 b2 f5 a3 a1 c1")));

    let setup = Setup::SameDevice { player: human(ann(), "Ann") };
    let mut state = GameState::new(game_id(), setup, Timing::default(), T0);
    play(&mut state, "d3 c3");
    examples.extend(apply(&mut state, Command::player(ann(), Action::Undo), T0.plus(5_000)));

    let mut state = friend_game();
    play(&mut state, "d3 c3");
    examples.extend(apply(&mut state, Command::player(ann(), Action::OfferDraw), T0.plus(4_000)));
    examples.extend(apply(&mut state, Command::player(ben(), Action::DeclineDraw), T0.plus(5_000)));

    let mut state = friend_game();
    examples.push(last(play(&mut state, "d3 c3 b3 d2 e1 d6 d7 e3 f4")));
    let rematch = |by| Command::player(by, Action::Rematch);
    examples.extend(apply(&mut state, rematch(ben()), T0.plus(20_000)));
    examples.extend(apply(&mut state, rematch(ann()), T0.plus(21_000)));

    let mut state = friend_game();
    play(&mut state, "d3");
    examples.extend(apply(&mut state, Command::Tick, T0.plus(31_500)));
    examples.extend(apply(&mut state, Command::player(ann(), Action::Leave), T0.plus(40_000)));

    examples.push(ServerMsg::from(CommandError::NotYourTurn));
    examples
        .push(ServerMsg::from(&ClientMsg::parse(r#"{"type":"move","square":"z9"}"#).unwrap_err()));
    examples.push(ServerMsg::Pong);
    examples.push(ServerMsg::Presence { black: true, white: false });
    examples
}

/// The JSON blocks of the docs under headings starting with `heading`.
fn documented(heading: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut section = "";
    let mut block: Option<String> = None;
    for line in DOC.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = title;
        } else if line == "```json" {
            block = Some(String::new());
        } else if line == "```" {
            if let Some(text) = block.take()
                && section.starts_with(heading)
            {
                blocks.push(text);
            }
        } else if let Some(text) = block.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    blocks
}

/// The JSON blocks of the docs' section titled `section` (a `## ` heading), each with the title
/// of the `### ` part it sits in (empty before the first).
fn documented_parts(section: &str) -> Vec<(&'static str, String)> {
    let mut blocks = Vec::new();
    let (mut current, mut part) = ("", "");
    let mut block: Option<String> = None;
    for line in DOC.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            (current, part) = (title, "");
        } else if let Some(title) = line.strip_prefix("### ") {
            part = title;
        } else if line == "```json" {
            block = Some(String::new());
        } else if line == "```" {
            if let Some(text) = block.take()
                && current == section
            {
                blocks.push((part, text));
            }
        } else if let Some(text) = block.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    blocks
}

/// The notifications in an example: every object with a `kind` and a `read`.
fn notifications_in(value: &Value) -> Vec<&Value> {
    match value {
        Value::Object(map) if map.contains_key("kind") && map.contains_key("read") => vec![value],
        Value::Object(map) => map.values().flat_map(notifications_in).collect(),
        Value::Array(items) => items.iter().flat_map(notifications_in).collect(),
        _ => Vec::new(),
    }
}

/// The `type`s of the messages the player's socket (`/api/me/ws`) sends.
const PLAYER_SOCKET_TYPES: [&str; 5] = ["hello", "notification", "challenge", "pong", "error"];

/// The first column of the docs' table of notification kinds, in order.
fn documented_notification_kinds() -> Vec<String> {
    DOC.lines()
        .skip_while(|line| *line != "| `kind` | who gets it | `data` |")
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.split('|').nth(1))
        .map(|cell| cell.trim().trim_matches('`').to_owned())
        .collect()
}

#[test]
fn every_example_of_challenges_follows_and_notifications_is_json_the_server_sends() {
    let blocks = documented_parts("Challenges and notifications");
    for part in
        ["Challenges", "Following", "Notifications", "The player's socket", "Push notifications"]
    {
        assert!(blocks.iter().any(|(seen, _)| *seen == part), "no example under {part}");
    }
    let kinds: Vec<&str> =
        crate::domain::NotificationKind::ALL.iter().map(|kind| kind.as_str()).collect();
    assert_eq!(documented_notification_kinds(), kinds, "the table of kinds lists each, in order");
    let push = blocks
        .iter()
        .filter_map(|(part, block)| (*part == "Push notifications").then_some(block))
        .filter_map(|block| serde_json::from_str::<Value>(block).ok())
        .find(|value| value.get("public_key").is_some())
        .expect("an example of GET /api/push");
    assert_eq!(push["kinds"], json!(kinds), "GET /api/push lists every kind, in order");
    for (part, block) in &blocks {
        let value: Value = serde_json::from_str(block).unwrap_or_else(|e| panic!("{e}: {block}"));
        if *part == "The player's socket" {
            let kind = value["type"].as_str().unwrap_or_default();
            assert!(PLAYER_SOCKET_TYPES.contains(&kind), "not a player's socket message: {block}");
        }
        for notification in notifications_in(&value) {
            let read: crate::social::Notification = serde_json::from_value(notification.clone())
                .unwrap_or_else(|e| panic!("{e}: {notification}"));
            assert_eq!(&serde_json::to_value(&read).unwrap(), notification);
        }
    }
}

#[test]
fn every_client_example_in_the_docs_parses() {
    let blocks = documented("Client");
    let mut kinds: Vec<&str> = Vec::new();
    for block in &blocks {
        let msg = ClientMsg::parse(block.trim()).unwrap_or_else(|e| panic!("{e}: {block}"));
        let value = serde_json::to_value(&msg).unwrap();
        let kind = ClientMsg::TYPES.iter().find(|&&kind| value["type"] == kind).unwrap();
        kinds.push(kind);
    }
    for kind in ClientMsg::TYPES {
        assert!(kinds.contains(&kind), "no example of {kind}");
    }
}

#[test]
fn every_server_example_in_the_docs_round_trips_exactly() {
    for block in documented("Server") {
        let value: Value = serde_json::from_str(&block).unwrap_or_else(|e| panic!("{e}: {block}"));
        let msg: ServerMsg =
            serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {block}"));
        assert_eq!(serde_json::to_value(&msg).unwrap(), value);
    }
}

#[test]
fn every_server_message_kind_is_documented_with_a_real_example() {
    let blocks: Vec<Value> =
        documented("Server").iter().map(|block| serde_json::from_str(block).unwrap()).collect();
    let examples = examples();
    for example in &examples {
        let value = serde_json::to_value(example).unwrap();
        assert!(
            blocks.contains(&value),
            "not in docs/protocol.md:\n{}",
            serde_json::to_string_pretty(&value).unwrap()
        );
    }
    for kind in [
        "snapshot",
        "moved",
        "undone",
        "draw_offered",
        "draw_declined",
        "ended",
        "rematch_asked",
        "rematch_started",
        "left",
        "error",
        "pong",
        "presence",
    ] {
        assert!(examples.iter().any(|example| example.kind() == kind), "no example of {kind}");
    }
}

#[test]
fn a_move_parses_with_its_square() {
    assert_eq!(
        ClientMsg::parse(r#"{"type":"move","square":"d3"}"#),
        Ok(ClientMsg::Act(Action::Move { square: Square::D3 }))
    );
}

#[test]
fn a_join_parses_with_and_without_since() {
    assert_eq!(
        ClientMsg::parse(r#"{"type":"join","game_id":"k7Hq2mXp9R","since":12}"#),
        Ok(ClientMsg::Join { game_id: game_id(), since: Some(12) })
    );
    assert_eq!(
        ClientMsg::parse(r#"{"type":"join","game_id":"k7Hq2mXp9R"}"#),
        Ok(ClientMsg::Join { game_id: game_id(), since: None })
    );
}

#[test]
fn unknown_fields_are_ignored() {
    assert_eq!(ClientMsg::parse(r#"{"type":"ping","id":7}"#), Ok(ClientMsg::Ping));
}

#[test]
fn malformed_json_is_refused() {
    let error = ClientMsg::parse(r#"{"type":"move""#).unwrap_err();
    assert_eq!(error.code(), "bad_json");
    assert!(error.to_string().starts_with("the message is not valid JSON: "), "{error}");
}

#[test]
fn a_message_without_a_type_is_refused() {
    for frame in [r#"{"square":"d3"}"#, r#"["move"]"#, r#"{"type":3}"#, "null"] {
        assert_eq!(ClientMsg::parse(frame), Err(ProtocolError::MissingType), "{frame}");
    }
}

#[test]
fn an_unknown_type_is_refused_by_name() {
    let error = ClientMsg::parse(r#"{"type":"castle"}"#).unwrap_err();
    assert_eq!(error, ProtocolError::UnknownType("castle".into()));
    assert_eq!(error.to_string(), r#"unknown message type "castle""#);
}

#[test]
fn a_bad_square_is_refused_by_name() {
    let error = ClientMsg::parse(r#"{"type":"move","square":"z9"}"#).unwrap_err();
    assert_eq!(error.code(), "bad_square");
    assert_eq!(error.to_string(), r#""z9" is not a square (columns a–h, rows 1–8)"#);
}

#[test]
fn a_bad_game_id_is_refused() {
    let error = ClientMsg::parse(r#"{"type":"join","game_id":"../x"}"#).unwrap_err();
    assert_eq!(error.code(), "bad_game_id");
    assert_eq!(error.to_string(), r#""../x" is not a valid game id"#);
}

#[test]
fn a_missing_or_mistyped_field_is_refused() {
    let error = ClientMsg::parse(r#"{"type":"move"}"#).unwrap_err();
    assert_eq!(error.to_string(), "bad move message: missing field `square`");
    let error =
        ClientMsg::parse(r#"{"type":"join","game_id":"k7Hq2mXp9R","since":-1}"#).unwrap_err();
    assert_eq!(error.code(), "bad_message");
}

#[test]
fn a_frame_over_the_limit_is_refused_before_parsing() {
    let frame = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_FRAME_BYTES));
    assert_eq!(ClientMsg::parse(&frame), Err(ProtocolError::TooLarge(frame.len())));
}

#[test]
fn every_actions_type_in_json_is_its_kind() {
    for action in Action::EVERY_KIND {
        let value = serde_json::to_value(action).unwrap();
        assert_eq!(value["type"], action.kind(), "{value}");
    }
    assert_eq!(sorted(Action::KINDS).windows(2).filter(|pair| pair[0] == pair[1]).count(), 0);
}

/// The values of `export const <name> = Object.freeze({ KEY: 'value', … });` in the browser
/// client's `protocol.js`.
fn client_constants(name: &str) -> Vec<String> {
    let script = include_str!("../../../../web/js/protocol.js");
    let start = format!("export const {name} = Object.freeze({{");
    let at = script.find(&start).unwrap_or_else(|| panic!("no {name} in protocol.js"));
    let body = &script[at + start.len()..];
    let body = &body[..body.find("})").expect("the object closes")];
    body.split(',')
        .filter_map(|entry| entry.split_once(':'))
        .map(|(_, value)| value.trim().trim_matches('\'').to_owned())
        .collect()
}

fn sorted(names: impl IntoIterator<Item = impl ToString>) -> Vec<String> {
    let mut names: Vec<String> = names.into_iter().map(|name| name.to_string()).collect();
    names.sort();
    names
}

#[test]
fn the_browser_client_names_exactly_the_game_sockets_messages() {
    assert_eq!(sorted(client_constants("ClientMsg")), sorted(ClientMsg::TYPES));
}

#[test]
fn the_browser_client_names_exactly_the_queue_sockets_messages_and_queues() {
    assert_eq!(sorted(client_constants("QueueClientMsg")), sorted(SeekerMsg::TYPES));
    for kind in SeekerMsg::TYPES {
        let frame = match kind {
            "seek" => r#"{"type":"seek","queue":"quick"}"#.to_owned(),
            other => format!(r#"{{"type":"{other}"}}"#),
        };
        let msg = SeekerMsg::parse(&frame).unwrap();
        assert_eq!(serde_json::to_value(&msg).unwrap()["type"], kind);
    }
    let queues = QueueName::ALL.map(|queue| serde_json::to_value(queue).unwrap());
    let queues = queues.iter().map(|queue| queue.as_str().unwrap());
    assert_eq!(sorted(client_constants("Queue")), sorted(queues));
}

#[test]
fn the_browser_client_lists_exactly_the_pools_in_order_with_their_names() {
    let script = include_str!("../../../../web/js/protocol.js");
    let start = script.find("export const POOLS = Object.freeze([").expect("POOLS in protocol.js");
    let body = &script[start..];
    let body = &body[..body.find("]);").expect("the list closes")];
    let listed: Vec<String> = body
        .lines()
        .filter(|line| line.contains("key: "))
        .map(|line| line.trim().to_owned())
        .collect();
    let expected: Vec<String> = Pool::ALL
        .iter()
        .map(|pool| format!("Object.freeze({{ key: '{}', name: '{}' }}),", pool.key(), pool.name()))
        .collect();
    assert_eq!(listed, expected);
}

#[test]
fn a_seek_for_no_queue_there_is_is_refused_as_a_bad_queue() {
    let refused = SeekerMsg::parse(r#"{"type":"seek","queue":"blitz"}"#).unwrap_err();
    assert_eq!(refused.code, codes::BAD_QUEUE);
    assert_eq!(refused.message, r#""blitz" is not a queue; expected quick or ranked"#);
}

#[test]
fn a_seek_without_pools_seeks_in_the_default_pool() {
    let msg = SeekerMsg::parse(r#"{"type":"seek","queue":"quick"}"#).unwrap();
    assert_eq!(msg, SeekerMsg::Seek { queue: QueueName::Quick, pools: vec![Pool::DEFAULT] });
}

#[test]
fn a_seek_keeps_its_pools_in_order_each_once() {
    let frame = r#"{"type":"seek","queue":"ranked","pools":["rapid","blitz","rapid"]}"#;
    let msg = SeekerMsg::parse(frame).unwrap();
    assert_eq!(
        msg,
        SeekerMsg::Seek { queue: QueueName::Ranked, pools: vec![Pool::Rapid, Pool::Blitz] }
    );
}

#[test]
fn a_seek_with_pools_that_are_not_names_is_a_bad_message() {
    let refused = SeekerMsg::parse(r#"{"type":"seek","queue":"ranked","pools":[3]}"#).unwrap_err();
    assert_eq!(refused.code, codes::BAD_MESSAGE);
}

#[test]
fn every_action_parses_to_the_action_the_game_knows() {
    for action in Action::EVERY_KIND {
        let frame = serde_json::to_string(&ClientMsg::Act(action)).unwrap();
        assert_eq!(ClientMsg::parse(&frame), Ok(ClientMsg::Act(action)), "{frame}");
        assert!(ClientMsg::TYPES.contains(&action.kind()), "{frame}");
    }
}

#[test]
fn join_and_ping_stay_with_the_socket() {
    assert_eq!(ClientMsg::Ping.action(), None);
    assert_eq!(ClientMsg::Join { game_id: game_id(), since: None }.action(), None);
    assert_eq!(ClientMsg::Act(Action::Resign).action(), Some(Action::Resign));
}

#[test]
fn a_position_names_the_opening_its_moves_make() {
    let mut state = friend_game();
    // d3 c3 is the Diagonal opening seen from another side (f5 f6).
    let moved = serde_json::to_value(last(play(&mut state, "d3 c3"))).unwrap();
    assert_eq!(moved["opening_name"], "Diagonal");
}

#[test]
fn driver_instructions_are_not_sent_to_clients() {
    assert_eq!(ServerMsg::from_event(&Event::CancelSearch(SearchId(3))), None);
}

#[test]
fn a_moved_message_serializes_to_the_documented_json() {
    let mut state = friend_game();
    let moved = last(play(&mut state, "d3"));
    // One ply has no name yet: the four first moves are one opening.
    let expected = json!({
        "type": "moved",
        "version": 1,
        "plies": [{ "number": 1, "color": "black", "move": "d3" }],
        "last_move": { "number": 1, "color": "black", "square": "d3", "flips": ["d4"] },
        "board": "-------------------X-------XX------XO---------------------------",
        "to_move": "white",
        "legal": [
            { "square": "c3", "flips": ["d4"] },
            { "square": "e3", "flips": ["e4"] },
            { "square": "c5", "flips": ["d5"] }
        ],
        "counts": { "black": 4, "white": 1, "empty": 59 },
        "opening_name": null,
        "clocks": { "black_ms": 30000, "white_ms": 30000, "running": "white" }
    });
    assert_eq!(serde_json::to_value(&moved).unwrap(), expected);
}

#[test]
fn an_error_serializes_with_code_and_message() {
    let value =
        serde_json::to_value(ServerMsg::from(CommandError::IllegalMove(Square::A1))).unwrap();
    assert_eq!(
        value,
        json!({ "type": "error", "code": "illegal_move", "message": "a1 is not a legal move" })
    );
}

#[test]
fn pong_is_just_its_type() {
    assert_eq!(ServerMsg::Pong.to_json(), r#"{"type":"pong"}"#);
}

#[test]
fn every_error_code_is_documented() {
    let command_errors = [
        CommandError::NotAPlayer,
        CommandError::GameOver,
        CommandError::GameNotOver,
        CommandError::NotYourTurn,
        CommandError::IllegalMove(Square::A1),
        CommandError::UndoNotAllowed,
        CommandError::NothingToUndo,
        CommandError::DrawNotAllowed,
        CommandError::DrawAlreadyOffered,
        CommandError::DrawOfferTooSoon(1),
        CommandError::NoDrawOffer,
        CommandError::RematchAlreadyAsked,
        CommandError::RematchAlreadyStarted,
        CommandError::OpponentLeft,
    ];
    let protocol_errors = [
        ProtocolError::TooLarge(0),
        ProtocolError::BadJson(String::new()),
        ProtocolError::MissingType,
        ProtocolError::UnknownType(String::new()),
        ProtocolError::BadSquare(outflank_engine::ParseSquareError(String::new())),
        ProtocolError::BadGameId(ParseIdError { kind: "game id", text: String::new() }),
        ProtocolError::BadMessage { kind: String::new(), message: String::new() },
    ];
    let handler = [
        codes::GAME_NOT_FOUND,
        codes::WRONG_GAME,
        codes::NOT_JOINED,
        codes::RATE_LIMITED,
        codes::SHUTTING_DOWN,
        codes::SESSION_REVOKED,
    ];
    let all = command_errors
        .iter()
        .map(|error| error.code())
        .chain(protocol_errors.iter().map(ProtocolError::code))
        .chain(handler);
    for code in all {
        assert!(
            DOC.contains(&format!("| `{code}` |")),
            "{code} is not in the table of error codes"
        );
    }
}

#[test]
fn a_square_list_is_written_as_names_in_square_order_and_read_back() {
    let squares = SquareList([Square::E4, Square::D4, Square::H8].into_iter().collect());
    let json = serde_json::to_string(&squares).unwrap();
    assert_eq!(json, r#"["d4","e4","h8"]"#);
    assert_eq!(serde_json::from_str::<SquareList>(&json).unwrap(), squares);
}
