//! Games against the computer: whole games, undo, the reply delay.

use std::time::Instant;

use serde_json::{Value, json};

use crate::helpers::{Socket, TestApp, User, legal_squares, spawn_app, spawn_app_with_clock};

/// Ann, and a new game of hers against the computer at Easy, Ann playing Black.
async fn easy_game_as_black(app: &TestApp) -> (User, String) {
    let ann = app.user("Ann").await;
    let id =
        ann.create_game(json!({ "mode": "computer", "level": "easy", "color": "black" })).await;
    (ann, id)
}

/// Plays the first legal move whenever it is `side`'s turn, until the game ends.
async fn play_to_the_end(socket: &mut Socket, side: &str, mut position: Value) -> Value {
    loop {
        if position["to_move"] == side {
            let square = legal_squares(&position)[0].clone();
            socket.send(json!({ "type": "move", "square": square })).await;
        }
        let msg = socket.next().await.expect("socket open");
        match msg["type"].as_str() {
            Some("moved") => position = msg,
            Some("ended") => return msg,
            other => panic!("unexpected {other:?}: {msg}"),
        }
    }
}

#[actix_web::test]
async fn a_whole_game_against_the_computer_ends_with_a_stored_result() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    assert_eq!(snapshot["you"], "black");
    assert_eq!(snapshot["players"]["white"]["computer"], true);
    assert_eq!(snapshot["players"]["white"]["level"], 1);
    assert_eq!(snapshot["players"]["white"]["name"], "Computer · level 1 (≈800)");
    assert_eq!(snapshot["stand_in"], false);
    let ended = play_to_the_end(&mut socket, "black", snapshot).await;

    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"]["reason"], "normal");
    assert_eq!(game["result"]["winner"], ended["result"]["winner"]);
    assert_eq!(game["players"]["white"]["computer"], true);
    // A guest has no rating, and the computer's is in its name.
    assert_eq!(game["ratings"], json!({ "pool": "30s", "black": null, "white": null }));
}

#[actix_web::test]
async fn the_computer_moves_first_when_the_player_takes_white() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id =
        ann.create_game(json!({ "mode": "computer", "level": "medium", "color": "white" })).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    assert_eq!(snapshot["you"], "white");
    let moved = if snapshot["moves"].as_array().unwrap().is_empty() {
        socket.expect("moved").await
    } else {
        snapshot
    };
    assert_eq!(moved["to_move"], "white");
}

#[actix_web::test]
async fn the_computer_replies_no_sooner_than_300_ms() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, _) = ann.join(&id).await;
    let started = Instant::now();
    socket.play("d3").await;
    let reply = socket.expect("moved").await;
    assert!(started.elapsed().as_millis() >= 300, "{:?}", started.elapsed());
    assert_eq!(reply["plies"][0]["color"], "white");
}

#[actix_web::test]
async fn undo_takes_back_the_players_move_and_the_computers_reply() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, start) = ann.join(&id).await;
    socket.play("d3").await;
    socket.expect("moved").await;
    socket.send(json!({ "type": "undo" })).await;
    let undone = socket.expect("undone").await;
    assert_eq!(undone["ply_count"], 0);
    assert_eq!(undone["board"], start["board"]);
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["moves"], json!([]));
}

#[actix_web::test]
async fn undo_while_the_computer_thinks_cancels_its_reply() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, start) = ann.join(&id).await;
    socket.play("d3").await;
    // Within the 300 ms before the reply may appear.
    socket.send(json!({ "type": "undo" })).await;
    let undone = socket.expect("undone").await;
    assert_eq!(undone["board"], start["board"]);
    // The cancelled search never moves: the next message is the reply to the next move.
    socket.play("c4").await;
    let reply = socket.expect("moved").await;
    assert_eq!(reply["plies"][0]["number"], 2);
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    assert_eq!(game["moves"][0], "c4");
}

#[actix_web::test]
async fn the_computers_side_is_always_present() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let mut socket = ann.connect(&id).await;
    socket.send(json!({ "type": "join", "game_id": id })).await;
    assert_eq!(socket.next_any().await.unwrap()["type"], "snapshot");
    let presence = socket.next_any().await.unwrap();
    assert_eq!(presence, json!({ "type": "presence", "black": true, "white": true }));
}

#[actix_web::test]
async fn a_player_may_have_three_computer_games_in_progress_and_no_more() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let new_game = json!({ "mode": "computer", "level": "hard", "color": "white" });
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(ann.create_game(new_game.clone()).await);
    }
    let refused = ann.post("/api/games", &new_game).await;
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_games");
    // Leaving one (it resigns) frees its place.
    let (mut socket, _) = ann.join(&games[0]).await;
    socket.send(json!({ "type": "leave" })).await;
    socket.until("ended").await;
    assert_eq!(ann.post("/api/games", &new_game).await.status(), 201);
}

#[actix_web::test]
async fn many_sessions_of_one_address_share_its_computer_games() {
    let app = spawn_app().await;
    let new_game = json!({ "mode": "computer", "level": "hard", "color": "white" });
    for n in 0..10 {
        let guest = app.user(&format!("Guest {n}")).await;
        guest.create_game(new_game.clone()).await;
    }
    let one_more = app.user("Guest 10").await;
    let refused = one_more.post("/api/games", &new_game).await;
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_games");
}

/// The refusal a new game against the computer gets from `app` when the address is full.
async fn refused_as_the_address_is_full(app: &TestApp, nickname: &str) {
    let new_game = json!({ "mode": "computer", "level": "easy", "color": "black" });
    let refused = app.user(nickname).await.post("/api/games", &new_game).await;
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_games");
    assert_eq!(
        body["error"]["message"],
        "your network already has 10 games against the computer in progress: finish or leave one first"
    );
}

#[actix_web::test]
async fn games_in_progress_count_after_a_restart_and_again_when_opened_after_a_long_pause() {
    let mut app = spawn_app_with_clock().await;
    let new_game = json!({ "mode": "computer", "level": "easy", "color": "black" });
    let mut first_wave = Vec::new();
    for n in 0..10 {
        let guest = app.user(&format!("Guest {n}")).await;
        let id = guest.create_game(new_game.clone()).await;
        first_wave.push((guest, id));
    }
    // Nothing runs after the restart, but the games are in progress: they count.
    app.restart().await;
    refused_as_the_address_is_full(&app, "Eager").await;
    // Left for eleven minutes they no longer count, so a new game is let in; opened again,
    // they count under the address that started them, and the address is full again.
    app.advance(11 * 60_000);
    app.user("Late").await.create_game(new_game.clone()).await;
    let mut sockets = Vec::new();
    for (guest, id) in &mut first_wave {
        guest.reconnect_to(&app);
        sockets.push(guest.join(id).await.0);
    }
    refused_as_the_address_is_full(&app, "One more").await;
}

#[actix_web::test]
async fn a_player_may_have_three_games_on_one_device_in_progress_and_no_more() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let same_device = json!({ "mode": "same_device" });
    for _ in 0..3 {
        ann.create_game(same_device.clone()).await;
    }
    let refused = ann.post("/api/games", &same_device).await;
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_games");
    assert_eq!(
        body["error"]["message"],
        "you already have 3 games on one device in progress: finish or leave one first"
    );
    // Games against the computer have a budget of their own.
    ann.create_game(json!({ "mode": "computer", "level": "easy", "color": "black" })).await;
}

#[actix_web::test]
async fn the_computer_thinks_only_while_someone_is_there() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id =
        ann.create_game(json!({ "mode": "computer", "level": "easy", "color": "white" })).await;
    // Well past the computer's 300-ms delay, with nobody connected: no search, no move.
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["moves"].as_array().unwrap().len(), 0, "{game}");
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("outflank_searches_queued 0\n"), "{metrics}");
    // Ann opens the game: the computer plays its first move.
    let (mut socket, snapshot) = ann.join(&id).await;
    if snapshot["moves"].as_array().unwrap().is_empty() {
        let moved = socket.expect("moved").await;
        assert_eq!(moved["last_move"]["color"], "black");
    }
}

#[actix_web::test]
async fn the_level_list_names_every_level_with_its_rating() {
    let app = spawn_app().await;
    let levels: Value = app.get("/api/computer/levels").await.json().await.unwrap();
    let list = levels["levels"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    for (number, level) in (1..=10).zip(list) {
        let elo = level["elo"].as_i64().unwrap();
        assert_eq!(level["level"], number);
        let shown = if elo >= 1_000 {
            format!("{},{:03}", elo / 1_000, elo % 1_000)
        } else {
            elo.to_string()
        };
        assert_eq!(level["name"], format!("Computer · level {number} (≈{shown})"));
    }
    // A visitor without a session is offered the level rated nearest the guests' rating.
    assert_eq!(
        (&levels["rating"], &levels["own_rating"]),
        (&serde_json::json!(1_200), &serde_json::json!(false))
    );
    assert_eq!(levels["suggested"], outflank_engine::ai::Level::for_rating(1_200).number());
}

#[actix_web::test]
async fn a_level_is_given_as_a_number_or_as_text() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    for level in [json!(4), json!("4"), json!("level 4")] {
        let id =
            ann.create_game(json!({ "mode": "computer", "level": level, "color": "black" })).await;
        let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
        assert_eq!(game["level"], 4, "{level}");
    }
    for level in [json!(0), json!(11), json!("expert"), json!(-3), json!(4.5)] {
        let body = json!({ "mode": "computer", "level": level, "color": "black" });
        let response = ann.post("/api/games", &body).await;
        assert_eq!(response.status(), 400, "{level}");
    }
}

#[actix_web::test]
async fn a_game_against_the_computer_may_start_from_an_xot_opening_in_its_record_too() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let body = json!({ "mode": "computer", "level": "easy", "color": "black", "xot": true });
    let id = ann.create_game(body).await;
    let (mut socket, view) = ann.join(&id).await;
    let opening = view["opening"].as_str().expect("an XOT opening").to_owned();
    let moves: Vec<&str> =
        view["moves"].as_array().unwrap().iter().map(|ply| ply["move"].as_str().unwrap()).collect();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves.join(" "), opening);
    assert_eq!(view["to_move"], "black");

    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;
    let record = ann.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    let numbered: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(n, pair)| format!("{}. {}", n + 1, pair.join(" ")))
        .collect();
    assert_eq!(record.lines().nth(3), Some(format!("Moves: {}", numbered.join(" ")).as_str()));
}

#[actix_web::test]
async fn the_rematch_of_an_xot_game_starts_from_the_same_opening() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let body = json!({ "mode": "computer", "level": "easy", "color": "black", "xot": true });
    let id = ann.create_game(body).await;
    let (mut socket, view) = ann.join(&id).await;
    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;
    socket.send(json!({ "type": "rematch" })).await;
    let started = socket.until("rematch_started").await;
    let (_, next) = ann.join(started["game_id"].as_str().unwrap()).await;
    assert_eq!(next["opening"], view["opening"]);
    assert_eq!(next["moves"], view["moves"]);
    assert_eq!(next["you"], view["you"], "against the computer, a rematch keeps the colours");
}

#[actix_web::test]
async fn a_game_from_the_standard_start_has_no_opening_and_xot_must_be_true_or_false() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (_, view) = ann.join(&id).await;
    assert_eq!(view["opening"], Value::Null);
    let body = json!({ "mode": "computer", "level": "easy", "color": "black", "xot": "yes" });
    assert_eq!(ann.post("/api/games", &body).await.status(), 400);
}

#[actix_web::test]
async fn a_game_against_the_computer_may_be_timed_and_then_has_clocks_and_no_takebacks() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let body = json!({ "mode": "computer", "level": "easy", "color": "black", "control": "3+2" });
    let id = ann.create_game(body).await;
    let (mut socket, view) = ann.join(&id).await;
    assert_eq!(view["control"], "3+2");
    assert_eq!(view["clocks"]["running"], "black");
    assert!(view["clocks"]["white_ms"] == 180_000, "{view}");
    socket.play("d3").await;
    let reply = socket.expect("moved").await;
    assert_eq!(reply["plies"][0]["color"], "white");
    // The computer's reply is timed too: it kept its 180 s less its thinking, plus 2 s.
    let white_ms = reply["clocks"]["white_ms"].as_i64().unwrap();
    assert!((180_000..=182_000).contains(&white_ms), "{reply}");
    socket.send(json!({ "type": "undo" })).await;
    let refused = socket.expect("error").await;
    assert_eq!(refused["code"], "undo_not_allowed", "{refused}");
    let mine: Value = ann.get("/api/me/games").await.json().await.unwrap();
    assert_eq!(
        (&mine["games"][0]["mode"], &mine["games"][0]["control"]),
        (&json!("computer"), &json!("3+2"))
    );
    assert_eq!(mine["games"][0]["opponent"], "Computer · level 1 (≈800)");
}

#[actix_web::test]
async fn a_timed_computer_plays_on_while_nobody_is_connected() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let body = json!({ "mode": "computer", "level": "easy", "color": "white", "control": "1+0" });
    let id = ann.create_game(body).await;
    let deadline = Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
        if game["moves"].as_array().unwrap().len() == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "the computer never moved: {game}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn a_control_not_offered_is_refused_with_the_choices_and_creates_nothing() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    for control in ["4+2", "soon", "0s"] {
        let body =
            json!({ "mode": "computer", "level": "easy", "color": "black", "control": control });
        let response = ann.post("/api/games", &body).await;
        assert_eq!(response.status(), 422, "{control}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "bad_time_control");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.ends_with(
                "choose one of 30s, 1+0, 1+1, 3+0, 3+2, 5+3, 10+5, 15+10, 30+0, 1d, 2d, 3d, 7d"
            ),
            "{message}"
        );
    }
    let games: Value = ann.get("/api/me/games").await.json().await.unwrap();
    assert_eq!(games["games"], json!([]), "{games}");
}
