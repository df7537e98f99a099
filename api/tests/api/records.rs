//! Records: export as text, import to continue against the computer.

use serde_json::{Value, json};

use crate::helpers::spawn_app;

#[actix_web::test]
async fn a_games_record_downloads_as_reversi_game_txt() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    for square in ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3"] {
        socket.play(square).await;
    }
    socket.send(json!({ "type": "move", "square": "f4" })).await;
    socket.expect("moved").await;
    socket.expect("ended").await;
    let response = ann.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"reversi-game.txt\""
    );
    assert_eq!(
        response.text().await.unwrap(),
        "Reversi game record, format 1\n\
         Coordinates: files a to h left to right, ranks 1 to 8 top to bottom\n\
         Start: White on d4 and e5, Black on d5 and e4, Black moves first\n\
         Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4\n\
         Result: Black 13, White 0\n"
    );
}

#[actix_web::test]
async fn an_imported_move_list_continues_against_the_computer_with_the_player_to_move() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let response =
        ann.post("/api/games/import", &json!({ "record": "d3c5f6", "level": "easy" })).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    let (_, snapshot) = ann.join(created["id"].as_str().unwrap()).await;
    assert_eq!(snapshot["you"], "white");
    assert_eq!(snapshot["to_move"], "white");
    assert_eq!(snapshot["moves"].as_array().unwrap().len(), 3);
}

#[actix_web::test]
async fn an_import_with_a_bad_move_names_it_and_creates_nothing() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let response =
        ann.post("/api/games/import", &json!({ "record": "d3 c5 h9", "level": "easy" })).await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_record");
    assert_eq!(body["error"]["message"], "move 3 \"h9\" is not a square");
}

#[actix_web::test]
async fn an_imported_ggf_game_continues_and_a_bad_one_names_its_move() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let ggf = "(;GM[Othello]PC[GGS/os]PB[ann]PW[bob]TY[8]RE[?]BO[8 -------- -------- -------- \
               ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[C5/-1.50/2.1]B[F6];)";
    let response = ann.post("/api/games/import", &json!({ "record": ggf, "level": "easy" })).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    let (_, snapshot) = ann.join(created["id"].as_str().unwrap()).await;
    assert_eq!(snapshot["you"], "white");
    assert_eq!(snapshot["moves"].as_array().unwrap().len(), 3);

    let bad = "(;GM[Othello]B[D3]W[H9];)";
    let response = ann.post("/api/games/import", &json!({ "record": bad, "level": "easy" })).await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_record");
    assert_eq!(body["error"]["message"], "move 2 \"H9\" is not a square");
}

#[actix_web::test]
async fn an_unknown_game_is_not_found() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/games/abcdefghij").await.status(), 404);
    assert_eq!(app.get("/api/games/../../etc").await.status(), 404);
}

#[actix_web::test]
async fn creating_a_game_needs_a_session_and_a_known_mode() {
    let app = spawn_app().await;
    let stranger = app.stranger();
    assert_eq!(stranger.post("/api/games", &json!({ "mode": "same_device" })).await.status(), 401);
    let ann = app.user("Ann").await;
    let response = ann.post("/api/games", &json!({ "mode": "chess" })).await;
    assert_eq!(response.status(), 400);
    let response = ann
        .post("/api/games", &json!({ "mode": "computer", "level": "godlike", "color": "black" }))
        .await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["error"]["message"],
        "\"godlike\" is not a level; expected 1 to 10 (or easy, medium, hard)"
    );
}

#[actix_web::test]
async fn a_game_lists_the_position_after_every_ply_for_replay() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, start) = ann.join(&id).await;
    let after_d3 = socket.play("d3").await;
    let after_c3 = socket.play("c3").await;
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    let positions = game["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(positions[0]["board"], start["board"]);
    assert_eq!(positions[0]["last_move"], Value::Null);
    assert_eq!(positions[1]["board"], after_d3["board"]);
    assert_eq!(positions[1]["last_move"], after_d3["last_move"]);
    assert_eq!(positions[2]["board"], after_c3["board"]);
    assert_eq!(positions[2]["last_move"], after_c3["last_move"]);
}

#[actix_web::test]
async fn the_record_of_a_resigned_game_says_who_resigned_and_reads_back() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.play("d3").await;
    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;
    let record = ann.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert_eq!(record.lines().nth(3), Some("Moves: 1. d3"));
    assert_eq!(record.lines().nth(4), Some("Result: Black wins, White resigned"));
    let imported =
        ann.post("/api/games/import", &json!({ "record": record, "level": "easy" })).await;
    assert_eq!(imported.status(), 201, "{:?}", imported.text().await);
}

#[actix_web::test]
async fn a_timed_games_record_and_ggf_say_its_clock_and_how_it_ended() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let body = json!({ "mode": "computer", "level": "easy", "color": "black", "control": "3+2" });
    let id = ann.create_game(body).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.play("d3").await;
    socket.expect("moved").await;
    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;

    let record = ann.get(&format!("/api/games/{id}/record")).await.text().await.unwrap();
    assert_eq!(record.lines().nth(3), Some("Clock: 3+2"));
    assert_eq!(record.lines().nth(5), Some("Result: White wins, Black resigned"));

    let response = ann.get(&format!("/api/games/{id}/ggf")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"reversi-game.ggf\""
    );
    let ggf = response.text().await.unwrap();
    assert!(ggf.starts_with("(;GM[Othello]PC[Outflank]DT["), "{ggf}");
    for part in [
        "PB[Ann]PW[Computer · level 1 (≈800)]",
        "TI[03:00/00:02/00:00]TY[8]RE[-64.000:r]",
        "*]B[D3]W[",
    ] {
        assert!(ggf.contains(part), "{part} in {ggf}");
    }
    assert!(ggf.ends_with(";)\n"), "{ggf}");
}

#[actix_web::test]
async fn an_imported_finished_game_keeps_the_clock_its_record_or_ggf_names() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let record = "Reversi game record, format 1\n\
         Coordinates: files a to h left to right, ranks 1 to 8 top to bottom\n\
         Start: White on d4 and e5, Black on d5 and e4, Black moves first\n\
         Clock: 2d\n\
         Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4\n\
         Result: Black 13, White 0\n";
    let ggf = "(;GM[Othello]PB[ann]PW[bob]TI[05:00/00:03/00:00]TY[8]\
        BO[8 ---------------------------O*------*O--------------------------- *]\
        B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4];)";
    for (text, control) in [(record, "2d"), (ggf, "5+3")] {
        let imported = ann.post("/api/games/import", &json!({ "record": text })).await;
        assert_eq!(imported.status(), 201);
        let imported: Value = imported.json().await.unwrap();
        let id = imported["id"].as_str().unwrap();
        let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
        assert_eq!(game["control"], control, "{game}");
    }
}

#[actix_web::test]
async fn a_record_whose_clock_line_is_no_control_is_refused() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let record = "Reversi game record, format 1\n\
         Coordinates: files a to h left to right, ranks 1 to 8 top to bottom\n\
         Start: White on d4 and e5, Black on d5 and e4, Black moves first\n\
         Clock: soon\n\
         Moves: 1. d3 c3 2. b3 d2 3. e1 d6 4. d7 e3 5. f4\n";
    let refused = ann.post("/api/games/import", &json!({ "record": record })).await;
    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_time_control", "{body}");
    assert!(body["error"]["message"].as_str().unwrap().starts_with("the record's Clock line says"));
}
