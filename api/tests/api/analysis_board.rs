//! The analysis board: `POST /api/analysis/position` (the rules) and `POST /api/analysis/values`
//! (the engine's value of every legal move).

use std::time::Duration;

use outflank_api::configuration::Settings;
use outflank_engine::{Board, Game, Move, Square};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::helpers::{TestApp, browser, spawn_app, spawn_app_with};

const START: &str = "---------------------------OX------XO--------------------------- X";
/// The shortest game: Black 13, White 0 after nine plies.
const SHORTEST: &str = "d3 c3 b3 d2 e1 d6 d7 e3 f4";
/// After White's c1 (the eighth ply) Black has no move and passes.
const TO_A_PASS: [&str; 8] = ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"];
/// A 60-ply game (level 8 against itself after f5) that ends on a full board.
const FULL: &str = "f5 d6 c3 d3 c4 f4 f6 g5 e6 f7 h5 g6 e7 c5 b6 g4 d2 d7 h6 b5 c6 c7 a6 a4 h3 g3 b4 b3 h4 c2 f3 a3 a5 a7 b1 e3 g8 e1 b2 g2 f2 g1 h1 h2 d8 f8 e2 c1 f1 a1 a2 d1 b8 c8 a8 e8 b7 g7 h7 h8";

/// Values quick enough for a debug build: a 2-ply search, exact from 12 empties.
fn quick(settings: &mut Settings) {
    settings.analysis_depth = 2;
    settings.analysis_exact_empties = 12;
}

async fn ask(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    let response = app.post_json(path, &body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

async fn position(app: &TestApp, body: Value) -> (u16, Value) {
    ask(app, "/api/analysis/position", body).await
}

async fn values(app: &TestApp, body: Value) -> (u16, Value) {
    ask(app, "/api/analysis/values", body).await
}

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

fn board_of(position: &str) -> String {
    position.split_whitespace().next().unwrap().to_owned()
}

#[actix_web::test]
async fn an_empty_request_is_the_standard_start() {
    let app = spawn_app().await;
    let (status, body) = position(&app, json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({
            "start": START,
            "moves": [],
            "positions": [{ "ply": 0, "board": board_of(START), "last_move": null, "opening_name": null }],
            "side_to_move": "black",
            "legal_moves": [
                { "square": "d3", "flips": ["d4"] },
                { "square": "c4", "flips": ["d4"] },
                { "square": "f5", "flips": ["e5"] },
                { "square": "e6", "flips": ["e5"] },
            ],
            "must_pass": false,
            "counts": { "black": 2, "white": 2 },
            "empties": 60,
            "over": false,
            "result": null,
        })
    );
}

#[actix_web::test]
async fn a_line_is_replayed_with_each_move_its_flips_and_the_position_at_its_end() {
    let app = spawn_app().await;
    let (status, body) = position(&app, json!({ "moves": ["f5", "D6"] })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"], json!(["f5", "d6"]));
    assert_eq!(
        body["positions"][1]["last_move"],
        json!({
            "number": 1, "color": "black", "square": "f5", "flips": ["e5"],
        })
    );
    assert_eq!(
        body["positions"][2]["last_move"],
        json!({
            "number": 2, "color": "white", "square": "d6", "flips": ["d5"],
        })
    );
    let after =
        Game::from_moves(Board::start(), [Square::F5, Square::D6].map(Move::Place)).unwrap();
    assert_eq!(body["positions"][2]["board"], board_of(&after.board().to_string()));
    assert_eq!(body["side_to_move"], "black");
    let squares: Vec<&str> = body["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|legal| legal["square"].as_str().unwrap())
        .collect();
    assert_eq!(squares, ["c3", "c4", "c5", "c6", "c7"]);
    assert_eq!(body["counts"], json!({ "black": 3, "white": 3 }));
}

#[actix_web::test]
async fn a_pass_left_out_of_the_line_is_put_in_where_it_falls() {
    let app = spawn_app().await;
    let (status, body) = position(&app, json!({ "moves": TO_A_PASS })).await;
    assert_eq!(status, 200, "{body}");
    let mut expected = TO_A_PASS.to_vec();
    expected.push("pass");
    assert_eq!(body["moves"], json!(expected));
    assert_eq!(body["side_to_move"], "white");
    // A pass keeps the move before it as the last one placed.
    assert_eq!(body["positions"][9]["last_move"]["square"], "c1");
    assert_eq!(body["positions"].as_array().unwrap().len(), 10);
}

#[actix_web::test]
async fn a_finished_line_says_who_won() {
    let app = spawn_app().await;
    let (status, body) = position(&app, json!({ "moves": words(SHORTEST) })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["over"], true);
    assert_eq!(body["side_to_move"], Value::Null);
    assert_eq!(body["legal_moves"], json!([]));
    assert_eq!(body["result"], json!({ "black": 13, "white": 0, "winner": "black" }));
}

#[actix_web::test]
async fn a_record_or_a_ggf_game_gives_the_same_line_as_its_moves() {
    let app = spawn_app().await;
    let (_, from_moves) = position(&app, json!({ "moves": ["f5", "d6", "c3"] })).await;
    let (status, from_list) = position(&app, json!({ "record": "f5 d6 c3" })).await;
    assert_eq!(status, 200, "{from_list}");
    assert_eq!(from_list, from_moves);
    let ggf = "(;GM[Othello]PC[test]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)";
    let (status, from_ggf) = position(&app, json!({ "record": ggf })).await;
    assert_eq!(status, 200, "{from_ggf}");
    assert_eq!(from_ggf, from_moves);
}

#[actix_web::test]
async fn a_set_up_position_is_read_with_or_without_the_space_before_the_side() {
    let app = spawn_app().await;
    let after = Game::from_moves(Board::start(), [Move::Place(Square::F5)]).unwrap().board();
    let text = after.to_string();
    let (status, spaced) = position(&app, json!({ "start": text })).await;
    assert_eq!(status, 200, "{spaced}");
    assert_eq!(spaced["start"], text);
    assert_eq!(spaced["side_to_move"], "white");
    let linked = text.replace(' ', "");
    let (status, joined) = position(&app, json!({ "start": linked })).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined, spaced);
}

#[actix_web::test]
async fn a_side_without_a_move_must_pass_and_may() {
    let app = spawn_app().await;
    let moves = TO_A_PASS.map(|text| Move::Place(text.parse().unwrap()));
    let before_pass = Game::from_moves(Board::start(), moves).unwrap().board_after(8).unwrap();
    let start = before_pass.to_string();
    let (status, body) = position(&app, json!({ "start": start })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((&body["must_pass"], &body["side_to_move"]), (&json!(true), &json!("black")));
    assert_eq!(body["legal_moves"], json!([]));
    let (status, passed) = position(&app, json!({ "start": start, "moves": ["pass"] })).await;
    assert_eq!(status, 200, "{passed}");
    assert_eq!((&passed["moves"], &passed["side_to_move"]), (&json!(["pass"]), &json!("white")));
}

#[actix_web::test]
async fn an_illegal_move_is_refused_naming_its_number() {
    let app = spawn_app().await;
    let (status, body) = position(&app, json!({ "moves": ["f5", "a1"] })).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "illegal_move");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("move 2 (a1)"), "{message}");
}

#[actix_web::test]
async fn bad_requests_are_refused_with_what_is_wrong() {
    let app = spawn_app().await;
    let cases = [
        (json!({ "moves": ["f5", "z9"] }), 400, "bad_request"),
        (json!({ "moves": "f5 d6" }), 400, "bad_request"),
        (json!({ "record": "f5", "moves": ["f5"] }), 400, "bad_request"),
        (json!({ "position": "f5" }), 400, "bad_request"),
        (json!({ "moves": vec!["f5"; 121] }), 400, "bad_request"),
        (json!({ "start": "XO X" }), 400, "bad_position"),
        (json!({ "record": "f5 q7" }), 422, "bad_record"),
        (json!({ "record": "(;GM[Othello]B[F5]" }), 422, "bad_record"),
    ];
    for (request, status, code) in cases {
        for path in ["/api/analysis/position", "/api/analysis/values"] {
            let (got, body) = ask(&app, path, request.clone()).await;
            assert_eq!((got, body["error"]["code"].as_str()), (status, Some(code)), "{request}");
        }
    }
}

#[actix_web::test]
async fn the_four_opening_moves_are_worth_the_same() {
    let app = spawn_app_with(quick).await;
    let (status, body) = values(&app, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let values = &body["values"];
    let moves: Vec<&str> =
        values["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
    let first = &values["moves"][0]["value"];
    assert!(values["moves"].as_array().unwrap().iter().all(|m| &m["value"] == first), "{values}");
    assert!(values["moves"].as_array().unwrap().iter().all(|m| m["exact"] == false), "{values}");
    assert_eq!(values["best_line"][0], "d3");
    assert_eq!((&values["exact_from_empties"], &values["search"]), (&json!(12), &json!("depth 2")));
    // The rules' part is the position's, as `position` answers it.
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 4);
    assert_eq!(body["legal_moves"][0], json!({ "square": "d3", "flips": ["d4"] }));
}

#[actix_web::test]
async fn near_the_end_every_move_is_valued_exactly_as_the_solver_finds() {
    let app = spawn_app_with(quick).await;
    let line: Vec<&str> = words(FULL)[..50].to_vec();
    let (status, body) = values(&app, json!({ "moves": line })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["empties"], 10);
    let moves = body["values"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), body["legal_moves"].as_array().unwrap().len());
    assert!(moves.iter().all(|m| m["exact"] == true), "{moves:?}");
    let game = outflank_engine::ggf::parse_game_text(&line.join(" ")).unwrap();
    for valued in moves {
        let square: Square = valued["move"].as_str().unwrap().parse().unwrap();
        let after = game.board().play(Move::Place(square)).unwrap();
        let solved = outflank_engine::solve::solve(&after).score;
        let for_mover =
            if after.side_to_move() == game.board().side_to_move() { solved } else { -solved };
        assert_eq!(valued["value"], for_mover, "{square}");
    }
    let best = moves[0]["value"].as_i64().unwrap();
    assert!(moves.iter().all(|m| m["value"].as_i64().unwrap() <= best));
    assert_eq!(body["values"]["best_line"][0], moves[0]["move"]);
}

#[actix_web::test]
async fn a_side_that_must_pass_is_valued_by_its_pass_and_a_finished_game_by_nothing() {
    let app = spawn_app_with(quick).await;
    let moves = TO_A_PASS.map(|text| Move::Place(text.parse().unwrap()));
    let before_pass = Game::from_moves(Board::start(), moves).unwrap().board_after(8).unwrap();
    let (status, body) = values(&app, json!({ "start": before_pass.to_string() })).await;
    assert_eq!(status, 200, "{body}");
    let valued = body["values"]["moves"].as_array().unwrap();
    assert_eq!(valued.len(), 1, "{body}");
    assert_eq!(valued[0]["move"], "pass");
    let (status, over) = values(&app, json!({ "moves": words(SHORTEST) })).await;
    assert_eq!(status, 200, "{over}");
    assert_eq!((&over["values"]["moves"], &over["values"]["best_line"]), (&json!([]), &json!([])));
}

/// [`quick`], with the clients told apart by the address a proxy on 127.0.0.1 names, and no
/// rate limit in the way of a flood.
fn behind_a_proxy(settings: &mut Settings) {
    quick(settings);
    settings.trusted_proxies = "127.0.0.1, ::1".parse().unwrap();
    (settings.rate_burst, settings.rate_per_second) = (100_000, 100_000);
}

/// Waits (a bounded number of short sleeps) until the metric `series` is `value`.
async fn until_metric(app: &TestApp, series: &str, value: f64) {
    for _ in 0..2_000 {
        if app.metric(series).await == Some(value) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{series} never became {value}: {:?}", app.metric(series).await);
}

const STOPPED: &str = r#"outflank_board_searches_total{end="stopped"}"#;
const FINISHED: &str = r#"outflank_board_searches_total{end="finished"}"#;
const TOO_MANY: &str = r#"outflank_errors_total{kind="refused",code="too_many_board_requests"}"#;

#[actix_web::test]
async fn a_request_whose_client_leaves_stops_its_search() {
    let app = spawn_app_with(behind_a_proxy).await;
    let held = app.hold_background_work();
    let address = app.url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let body = r#"{"moves": ["f5"]}"#;
    let request = format!(
        "POST /api/analysis/values HTTP/1.1\r\nHost: {address}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // The search has started, and waits while the work is held.
    for _ in 0..2_000 {
        if app.background_work_held() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(app.background_work_held(), 1);
    drop(stream);
    // The server drops the request of the client gone, which cancels its search; released, the
    // search stops at once rather than valuing the position.
    until_metric(&app, "outflank_board_requests", 0.0).await;
    drop(held);
    until_metric(&app, STOPPED, 1.0).await;
    assert_eq!(app.metric(FINISHED).await, Some(0.0));
}

#[actix_web::test]
async fn a_flood_from_one_address_with_many_sessions_leaves_another_address_answered() {
    let app = spawn_app_with(behind_a_proxy).await;
    let held = app.hold_background_work();
    let (flooder, other) = ("203.0.113.7", "198.51.100.20");
    let ask = |client: &reqwest::Client, from: &str, line: Vec<&str>| {
        client
            .post(format!("{}/api/analysis/values", app.url))
            .header("x-forwarded-for", from)
            .json(&json!({ "moves": line }))
            .send()
    };
    // Ten guest sessions, each asking for two positions of its own at once: twenty requests,
    // more than the server's workers and queue hold.
    let mut asked = Vec::new();
    for session in 0..10 {
        let client = browser();
        let nickname = format!("Flood{}", char::from(b'a' + session));
        let response = client
            .post(format!("{}/api/session", app.url))
            .header("x-forwarded-for", flooder)
            .json(&json!({ "nickname": nickname }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        for other_line in 0..2 {
            let plies = usize::from(session) * 2 + other_line + 1;
            asked.push(tokio::spawn(ask(&client, flooder, words(FULL)[..plies].to_vec())));
        }
    }
    // All but the address's four are refused at once.
    until_metric(&app, TOO_MANY, 16.0).await;
    until_metric(&app, "outflank_board_requests", 4.0).await;
    let answered = tokio::spawn(ask(&browser(), other, vec!["f5", "d6"]));
    until_metric(&app, "outflank_board_requests", 5.0).await;
    drop(held);
    let response = answered.await.unwrap().unwrap();
    assert_eq!(response.status(), 200);
    let mut statuses = Vec::new();
    for request in asked {
        let response = request.await.unwrap().unwrap();
        let status = response.status().as_u16();
        if status == 429 {
            assert_eq!(response.headers()["retry-after"], "2");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["error"]["code"], "too_many_board_requests");
        }
        statuses.push(status);
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [[200; 4].as_slice(), &[429; 16]].concat());
}
