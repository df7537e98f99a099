//! Every finished game reviewed by the engine: `GET`/`POST /api/games/{id}/analysis`, and the
//! import of finished records.

use std::time::Duration;

use outflank_api::configuration::Settings;
use serde_json::{Value, json};

use crate::helpers::{TestApp, User, spawn_app_with};

/// A 60-ply game (level 8 against itself after f5) that ends on a full board.
const FULL: &str = "f5 d6 c3 d3 c4 f4 f6 g5 e6 f7 h5 g6 e7 c5 b6 g4 d2 d7 h6 b5 c6 c7 a6 a4 h3 g3 b4 b3 h4 c2 f3 a3 a5 a7 b1 e3 g8 e1 b2 g2 f2 g1 h1 h2 d8 f8 e2 c1 f1 a1 a2 d1 b8 c8 a8 e8 b7 g7 h7 h8";
/// The shortest game: Black 13, White 0 after nine plies.
pub const SHORTEST: &str = "d3 c3 b3 d2 e1 d6 d7 e3 f4";

fn engine() -> String {
    format!("outflank-engine {}", env!("CARGO_PKG_VERSION"))
}

/// Analyses quick enough for a debug build: a 2-ply search, exact from 8 empties.
pub fn quick(settings: &mut Settings) {
    settings.analysis_depth = 2;
    settings.analysis_exact_empties = 8;
}

pub async fn quick_app() -> TestApp {
    spawn_app_with(quick).await
}

/// Imports `moves` (a finished game) as `user`; returns the new game's id.
pub async fn import_finished(user: &User, moves: &str) -> String {
    let response = user.post("/api/games/import", &json!({ "record": moves })).await;
    assert_eq!(response.status(), 201, "{:?}", response.text().await);
    let body: Value = response.json().await.unwrap();
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(
        body,
        json!({
            "id": id,
            "url": format!("/replay/{id}"),
            "finished": true,
            "analysis": format!("/api/games/{id}/analysis"),
        })
    );
    id
}

/// Plays `moves` (a whole game) as `user` on one device, to its end; returns the game's id.
pub async fn played_on_one_device(user: &User, moves: &str) -> String {
    let id = user.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = user.join(&id).await;
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let (last, before) = moves.split_last().expect("a move");
    for square in before {
        socket.play(square).await;
    }
    socket.send(json!({ "type": "move", "square": last })).await;
    socket.until("ended").await;
    id
}

async fn analysis(user: &User, id: &str) -> (u16, Value) {
    let response = user.get(&format!("/api/games/{id}/analysis")).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Polls the analysis of `id` until it is done (failing after 60 s). A game is queued before
/// its players hear of its end, so it is never `none` here.
pub async fn analysis_done(user: &User, id: &str) -> Value {
    for _ in 0..1_200 {
        let (status, body) = analysis(user, id).await;
        assert_eq!(status, 200, "{body}");
        match body["status"].as_str() {
            Some("done") => return body,
            Some("queued" | "running") => {}
            other => panic!("unexpected status {other:?}: {body}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the analysis of {id} never finished");
}

#[actix_web::test]
async fn an_imported_finished_record_can_be_replayed_and_is_analysed_ply_by_ply() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let id = import_finished(&ann, FULL).await;

    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["status"], "finished");
    assert_eq!(game["rated"], false);
    assert_eq!(game["players"]["black"]["name"], "Black");
    assert_eq!(game["moves"].as_array().unwrap().len(), 60);
    let positions = game["positions"].as_array().unwrap().clone();

    let body = analysis_done(&ann, &id).await;
    assert_eq!(body["game_id"], id.as_str());
    assert_eq!(body["engine"], engine());
    assert_eq!(
        (body["exact_from_empties"].clone(), body["search"].clone()),
        (json!(8), json!("depth 2"))
    );
    assert_eq!(body["progress"], json!({ "done": 60, "total": 60 }));
    assert_eq!(body["thresholds"], json!({ "inaccuracy": 3, "mistake": 6, "blunder": 10 }));
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 60);
    let classes = ["best", "good", "inaccuracy", "mistake", "blunder", "forced"];
    for (index, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], index + 1);
        assert_eq!(ply["color"], if index % 2 == 0 { "black" } else { "white" });
        assert_eq!(ply["move"], game["moves"][index]);
        let loss = ply["loss"].as_i64().unwrap();
        assert!(loss >= 0);
        assert_eq!(
            loss,
            ply["best_value"].as_i64().unwrap() - ply["played_value"].as_i64().unwrap()
        );
        assert!(classes.contains(&ply["class"].as_str().unwrap()), "{ply}");
        // Values are exact exactly in the last 8 empties (both positions solved).
        assert_eq!(ply["exact"], index + 1 > 52, "ply {}", index + 1);
        // The best line starts with the first best move and shows the board after each move;
        // when the move played was the best, its board is the game's next position.
        let line = ply["best_line"].as_array().unwrap();
        assert!(!line.is_empty() && line.len() <= 8, "{ply}");
        assert_eq!(line[0]["move"], ply["best"][0]);
        if line[0]["move"] == ply["move"] {
            assert_eq!(line[0]["board"], positions[index + 1]["board"]);
        }
        if index > 0 {
            assert_eq!(ply["value_before"], plies[index - 1]["value_after"]);
        }
    }
    // The board ends full: Black's final margin after the last ply.
    let result = &game["result"];
    let margin = result["black"].as_i64().unwrap() - result["white"].as_i64().unwrap();
    assert_eq!(plies[59]["value_after"], margin);
    let summary = &body["summary"];
    assert_eq!(
        (summary["black"]["moves"].clone(), summary["white"]["moves"].clone()),
        (json!(30), json!(30))
    );
    for side in ["black", "white"] {
        let counted = |class: &str| {
            plies.iter().filter(|p| p["color"] == side && p["class"] == class).count()
        };
        assert_eq!(summary[side]["blunders"], counted("blunder"));
        assert_eq!(summary[side]["mistakes"], counted("mistake"));
        assert_eq!(summary[side]["inaccuracies"], counted("inaccuracy"));
        let losses: i64 =
            plies.iter().filter(|p| p["color"] == side).map(|p| p["loss"].as_i64().unwrap()).sum();
        let mean = summary[side]["mean_loss"].as_f64().unwrap();
        assert!((mean - losses as f64 / 30.0).abs() < 0.006, "{mean} against {losses}/30");
    }
}

#[actix_web::test]
async fn games_played_to_the_end_or_resigned_are_analysed_when_they_end() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let played = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&played).await;
    for square in ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3"] {
        socket.play(square).await;
    }
    socket.send(json!({ "type": "move", "square": "f4" })).await;
    socket.until("ended").await;

    let resigned = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&resigned).await;
    socket.play("d3").await;
    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;
    // Queued before the end was told.
    let (_, queued) = analysis(&ann, &resigned).await;
    assert_ne!(queued["status"], "none", "{queued}");

    let body = analysis_done(&ann, &played).await;
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 9);
    // White's e3 lets Black take every white disc.
    assert_eq!(
        (plies[7]["move"].clone(), plies[7]["class"].clone()),
        (json!("e3"), json!("blunder"))
    );
    assert_eq!(plies[8]["value_after"], 13);
    assert_eq!(body["summary"]["white"]["blunders"], 1);

    let body = analysis_done(&ann, &resigned).await;
    let plies = body["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 1);
    assert_eq!(plies[0]["move"], "d3");
    assert_eq!(body["summary"]["white"]["moves"], 0);
}

#[actix_web::test]
async fn a_live_game_has_no_analysis_and_an_unknown_one_is_not_found() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let live = ann.create_game(json!({ "mode": "same_device" })).await;
    let (status, body) = analysis(&ann, &live).await;
    assert_eq!((status, body["error"]["code"].clone()), (409, json!("game_live")));
    let response = ann.post(&format!("/api/games/{live}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 409);
    let (status, body) = analysis(&ann, "abcdefghij").await;
    assert_eq!((status, body["error"]["code"].clone()), (404, json!("game_not_found")));
    let response = ann.post("/api/games/abcdefghij/analysis", &json!({})).await;
    assert_eq!(response.status(), 404);
    // Asking needs a session.
    let id = import_finished(&ann, SHORTEST).await;
    let response = app.stranger().post(&format!("/api/games/{id}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 401);
}

#[actix_web::test]
async fn an_analysis_is_stored_once_and_a_second_request_does_not_run_it_again() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let id = import_finished(&ann, SHORTEST).await;
    let done = analysis_done(&ann, &id).await;
    let response = ann.post(&format!("/api/games/{id}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 202);
    let again: Value = response.json().await.unwrap();
    assert_eq!(again, done);
    assert_eq!(analysis(&ann, &id).await.1, done);
}

/// An app whose one worker is kept busy by Bob's long analysis of a 60-ply game (the default
/// depth), so that what is asked after it stays queued.
async fn busy_app(queue: u32) -> (TestApp, User) {
    let app = spawn_app_with(|settings| settings.analysis_queue = queue).await;
    let bob = app.user("Bob").await;
    let id = import_finished(&bob, FULL).await;
    for _ in 0..400 {
        if analysis(&bob, &id).await.1["status"] == "running" {
            return (app, bob);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("Bob's analysis never started");
}

#[actix_web::test]
async fn a_player_may_have_three_analyses_waiting_and_no_more() {
    let (app, _bob) = busy_app(200).await;
    let ann = app.user("Ann").await;
    for _ in 0..3 {
        let id = import_finished(&ann, SHORTEST).await;
        assert_eq!(analysis(&ann, &id).await.1["status"], "queued");
    }
    // The fourth import stands, but its analysis waits until Ann asks again.
    let fourth = import_finished(&ann, SHORTEST).await;
    let (status, body) = analysis(&ann, &fourth).await;
    assert_eq!((status, body["status"].clone()), (200, json!("none")));
    assert_eq!(body["progress"], json!({ "done": 0, "total": 9 }));
    assert_eq!(body.get("plies"), None);
    let response = ann.post(&format!("/api/games/{fourth}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 429);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_analyses");
    // Someone else may still ask.
    let cat = app.user("Cat").await;
    let response = cat.post(&format!("/api/games/{fourth}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 202);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "queued");
}

#[actix_web::test]
async fn one_address_may_have_six_analyses_waiting_whoever_asks() {
    // Bob's running review is one; every session here comes from 127.0.0.1.
    let (app, _bob) = busy_app(200).await;
    for name in ["Ann", "Cat"] {
        let user = app.user(name).await;
        let imports = if name == "Ann" { 3 } else { 2 };
        for _ in 0..imports {
            let id = import_finished(&user, SHORTEST).await;
            assert_eq!(analysis(&user, &id).await.1["status"], "queued");
        }
    }
    let dan = app.user("Dan").await;
    let id = import_finished(&dan, SHORTEST).await;
    assert_eq!(analysis(&dan, &id).await.1["status"], "none");
    let response = dan.post(&format!("/api/games/{id}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 429);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_analyses_from_address");
    assert_eq!(analysis(&dan, &id).await.1["status"], "none");
}

#[actix_web::test]
async fn a_line_full_of_imports_refuses_no_played_games_review() {
    // Bob's import is running and Ann's fills the imports' line of one: Cat's waits.
    let (app, _bob) = busy_app(1).await;
    let ann = app.user("Ann").await;
    let queued = import_finished(&ann, SHORTEST).await;
    assert_eq!(analysis(&ann, &queued).await.1["status"], "queued");
    let cat = app.user("Cat").await;
    let refused = import_finished(&cat, SHORTEST).await;
    assert_eq!(analysis(&cat, &refused).await.1["status"], "none");

    // Cat's game on one device, left after a move: aborted, so nothing was queued at its end.
    let played = cat.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = cat.join(&played).await;
    socket.play("d3").await;
    socket.send(json!({ "type": "leave" })).await;
    assert_eq!(socket.until("ended").await["status"], "aborted");
    let response = cat.post(&format!("/api/games/{played}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 202);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "queued");
    // And a game played to its end is queued with it, whatever waits in the imports' line.
    let ended = played_on_one_device(&ann, SHORTEST).await;
    assert_eq!(analysis(&ann, &ended).await.1["status"], "queued");
}

#[actix_web::test]
async fn a_full_queue_refuses_more_analyses() {
    let (app, _bob) = busy_app(1).await;
    let ann = app.user("Ann").await;
    let first = import_finished(&ann, SHORTEST).await;
    assert_eq!(analysis(&ann, &first).await.1["status"], "queued");
    let second = import_finished(&ann, SHORTEST).await;
    assert_eq!(analysis(&ann, &second).await.1["status"], "none");
    let response = ann.post(&format!("/api/games/{second}/analysis"), &json!({})).await;
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "analysis_queue_full");
}

#[actix_web::test]
async fn a_finished_ggf_game_keeps_its_players_names_and_an_unfinished_one_needs_a_level() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let ggf = "(;GM[Othello]PB[ann]PW[bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4];)";
    let id = import_finished(&ann, ggf).await;
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["players"]["black"]["name"], "ann");
    assert_eq!(game["players"]["white"]["name"], "bob");
    assert_eq!(game["result"]["black"], 13);
    assert_eq!(game["result"]["winner"], "black");
    // A game to continue against the computer still needs the computer's level.
    let response = ann.post("/api/games/import", &json!({ "record": "d3 c5 f6" })).await;
    assert_eq!(response.status(), 400);
    let response =
        ann.post("/api/games/import", &json!({ "record": "d3 c5 f6", "level": 1 })).await;
    assert_eq!(response.status(), 201);
}

#[actix_web::test]
async fn an_imported_games_names_that_no_guest_could_choose_are_shown_as_black_and_white() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let moves = "B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4]";
    let board = "BO[8 ---------------------------O*------*O--------------------------- *]";
    for (black, white) in [
        ("<img src=x onerror=alert(1)>", "Computer"),
        ("Deleted player", "Ma\u{200b}gnus"),
        ("\u{202e}nmaC", "Ｃｏｍｐｕｔｅｒ"),
    ] {
        let ggf = format!("(;GM[Othello]PB[{black}]PW[{white}]TY[8]{board}{moves};)");
        let id = import_finished(&ann, &ggf).await;
        let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
        let names = (&game["players"]["black"]["name"], &game["players"]["white"]["name"]);
        assert_eq!(names, (&json!("Black"), &json!("White")), "{black} / {white}");
        // Its page's socket opens, as every finished game's does.
        let (_socket, snapshot) = ann.join(&id).await;
        assert_eq!(snapshot["status"], "finished");
    }
}

/// The times of the computer's first `replies` replies at Hard to `user`, who plays Black's
/// first legal move each turn (so both runs see the same game: the engine is deterministic).
async fn hard_reply_times(user: &User, replies: usize) -> Vec<Duration> {
    let id =
        user.create_game(json!({ "mode": "computer", "level": "hard", "color": "black" })).await;
    let (mut socket, mut position) = user.join(&id).await;
    let mut times = Vec::with_capacity(replies);
    while times.len() < replies {
        let Some(square) = crate::helpers::legal_squares(&position).first().cloned() else { break };
        let asked = std::time::Instant::now();
        socket.send(json!({ "type": "move", "square": square })).await;
        // Our move, then the computer's (or the end).
        loop {
            let msg = socket.next().await.expect("socket open");
            match msg["type"].as_str() {
                Some("moved") if msg["to_move"] == "black" => {
                    times.push(asked.elapsed());
                    position = msg;
                    break;
                }
                Some("moved") => {}
                Some("ended") => return times,
                other => panic!("unexpected {other:?}: {msg}"),
            }
        }
    }
    times
}

fn mean_ms(times: &[Duration]) -> f64 {
    times.iter().map(Duration::as_secs_f64).sum::<f64>() * 1000.0 / times.len() as f64
}

/// A benchmark, not part of the suite: the computer's replies at Hard take as long with 100
/// reviews queued as without (the target is ± 20 %). Run it in release:
/// `cargo test --release -p outflank-api --test api -- --ignored --nocapture hundred_reviews`
#[actix_web::test]
#[ignore = "a benchmark: run in release with --ignored"]
async fn a_computer_reply_at_hard_keeps_its_time_with_a_hundred_reviews_queued() {
    let app = spawn_app_with(|settings| {
        settings.rate_per_second = 10_000;
        settings.rate_burst = 10_000;
    })
    .await;
    const REPLIES: usize = 20;
    let quiet = hard_reply_times(&app.user("Quiet").await, REPLIES).await;
    let mut games = Vec::new();
    for n in 0..34 {
        let user = app.user(&format!("Reviewer {n}")).await;
        for _ in 0..3 {
            games.push(import_finished(&user, FULL).await);
        }
    }
    let busy = hard_reply_times(&app.user("Busy").await, REPLIES).await;
    let observer = app.user("Observer").await;
    let mut done = 0;
    for id in &games {
        let (_, body) = analysis(&observer, id).await;
        done += usize::from(body["status"] == "done");
    }
    let (quiet_ms, busy_ms) = (mean_ms(&quiet), mean_ms(&busy));
    println!(
        "{} reviews queued ({done} done by the end): Hard reply mean {quiet_ms:.0} ms quiet, \
         {busy_ms:.0} ms busy, ratio {:.2}",
        games.len(),
        busy_ms / quiet_ms
    );
    assert!(done < games.len(), "the reviews were all done before the replies were measured");
    assert!(
        (0.8..=1.2).contains(&(busy_ms / quiet_ms)),
        "{quiet_ms:.0} ms against {busy_ms:.0} ms"
    );
}
