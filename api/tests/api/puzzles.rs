//! Puzzles from a player's own games: made when a game's analysis is done, listed for the
//! player, solved with answers judged by the engine's values.

use serde_json::{Value, json};

use crate::analysis::{SHORTEST, analysis_done, import_finished, played_on_one_device, quick_app};
use crate::helpers::User;

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// `user`'s puzzles once the game `moves`, which they play on one device (both sides theirs),
/// is analysed: (game id, list body).
async fn puzzles_of_game(user: &User, moves: &str) -> (String, Value) {
    let id = played_on_one_device(user, moves).await;
    analysis_done(user, &id).await;
    let (status, body) = json_of(user.get("/api/puzzles").await).await;
    assert_eq!(status, 200, "{body}");
    (id, body)
}

#[actix_web::test]
async fn the_worst_mistakes_of_an_analysed_game_become_its_players_puzzles() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let (game_id, body) = puzzles_of_game(&ann, SHORTEST).await;
    let puzzles = body["puzzles"].as_array().unwrap();
    assert!(!puzzles.is_empty(), "{body}");
    assert_eq!(body["counts"], json!({ "total": puzzles.len(), "solved": 0 }));
    let (_, game) = json_of(ann.get(&format!("/api/games/{game_id}")).await).await;
    for puzzle in puzzles {
        let ply = puzzle["ply"].as_u64().unwrap() as usize;
        assert_eq!(puzzle["id"], format!("{game_id}-{ply}"));
        assert_eq!(puzzle["game_id"], game_id);
        // The position before the mistake, the move played and what it lost.
        assert_eq!(puzzle["board"], game["positions"][ply - 1]["board"], "{puzzle}");
        assert_eq!(puzzle["played"], game["positions"][ply]["last_move"]["square"], "{puzzle}");
        assert!(puzzle["loss"].as_i64().unwrap() >= 6, "{puzzle}");
        assert_eq!(
            (&puzzle["mine"], &puzzle["solved"], &puzzle["attempts"]),
            (&json!(true), &json!(false), &json!(0))
        );
    }
    // The biggest loss comes first among the unsolved.
    let losses: Vec<i64> = puzzles.iter().map(|p| p["loss"].as_i64().unwrap()).collect();
    assert!(losses.windows(2).all(|pair| pair[0] >= pair[1]) || puzzles.len() == 1, "{losses:?}");
}

#[actix_web::test]
async fn a_wrong_answer_is_counted_and_the_best_move_solves_the_puzzle() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let (_, body) = puzzles_of_game(&ann, SHORTEST).await;
    let puzzle = &body["puzzles"][0];
    let id = puzzle["id"].as_str().unwrap();
    let (status, solution) = json_of(ann.get(&format!("/api/puzzles/{id}/solution")).await).await;
    assert_eq!(status, 200, "{solution}");
    let best = solution["solution"].as_str().unwrap().to_owned();
    let values = solution["values"].as_array().unwrap();
    assert_eq!(values[0]["move"], best);
    let wrong = values[1]["move"].as_str().unwrap();

    let path = format!("/api/puzzles/{id}/attempt");
    let (status, missed) = json_of(ann.post(&path, &json!({ "move": wrong })).await).await;
    assert_eq!(status, 200, "{missed}");
    assert_eq!((&missed["correct"], &missed["move"]), (&json!(false), &json!(wrong)));
    assert_eq!(
        missed["loss"],
        json!(values[0]["value"].as_i64().unwrap() - values[1]["value"].as_i64().unwrap())
    );
    assert_eq!(
        (&missed["puzzle"]["attempts"], &missed["puzzle"]["solved"]),
        (&json!(1), &json!(false))
    );
    assert_eq!(missed.get("solution"), None);

    let (status, solved) =
        json_of(ann.post(&path, &json!({ "move": best.to_uppercase() })).await).await;
    assert_eq!(status, 200, "{solved}");
    assert_eq!(
        (&solved["correct"], &solved["loss"], &solved["solution"]),
        (&json!(true), &json!(0), &json!(best))
    );
    assert_eq!(
        (&solved["puzzle"]["attempts"], &solved["puzzle"]["solved"]),
        (&json!(2), &json!(true))
    );
    let (_, list) = json_of(ann.get("/api/puzzles").await).await;
    assert_eq!(list["counts"]["solved"], 1);
    // A solved puzzle goes after the unsolved ones.
    let listed: Vec<&str> =
        list["puzzles"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(listed.last(), Some(&id));
}

#[actix_web::test]
async fn anyone_may_try_a_puzzle_but_only_its_players_answers_count() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let (_, body) = puzzles_of_game(&ann, SHORTEST).await;
    let id = body["puzzles"][0]["id"].as_str().unwrap();
    let (status, shown) = json_of(bob.get(&format!("/api/puzzles/{id}")).await).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["mine"], false);
    assert_eq!(shown.get("solution"), None);
    let (_, solution) = json_of(bob.get(&format!("/api/puzzles/{id}/solution")).await).await;
    let best = solution["solution"].as_str().unwrap();
    let path = format!("/api/puzzles/{id}/attempt");
    let (status, answer) = json_of(bob.post(&path, &json!({ "move": best })).await).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!((&answer["correct"], &answer["puzzle"]["attempts"]), (&json!(true), &json!(0)));
    let (_, bobs) = json_of(bob.get("/api/puzzles").await).await;
    assert_eq!(bobs, json!({ "puzzles": [], "counts": { "total": 0, "solved": 0 } }));
}

#[actix_web::test]
async fn bad_answers_and_unknown_puzzles_are_refused() {
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let (game_id, body) = puzzles_of_game(&ann, SHORTEST).await;
    let puzzle = &body["puzzles"][0];
    let id = puzzle["id"].as_str().unwrap();
    let path = format!("/api/puzzles/{id}/attempt");
    let legal: Vec<&str> = puzzle["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap())
        .collect();
    let illegal =
        ["a1", "h8", "a8", "h1"].into_iter().find(|square| !legal.contains(square)).unwrap();
    let cases = [
        (json!({ "move": illegal }), 422, "illegal_move"),
        (json!({ "move": "z9" }), 400, "bad_request"),
        (json!({ "square": "d3" }), 400, "bad_request"),
    ];
    for (answer, status, code) in cases {
        let (got, body) = json_of(ann.post(&path, &answer).await).await;
        assert_eq!((got, body["error"]["code"].as_str()), (status, Some(code)), "{answer}");
    }
    let (_, unchanged) = json_of(ann.get(&format!("/api/puzzles/{id}")).await).await;
    assert_eq!(unchanged["attempts"], 0);
    for unknown in [format!("{game_id}-99"), "nonsense".into(), format!("{game_id}-0")] {
        let (status, body) = json_of(ann.get(&format!("/api/puzzles/{unknown}")).await).await;
        assert_eq!((status, body["error"]["code"].as_str()), (404, Some("puzzle_not_found")));
    }
    let stranger = app.stranger();
    assert_eq!(stranger.get("/api/puzzles").await.status(), 401);
    let refused = stranger.post(&path, &json!({ "move": legal[0] })).await;
    assert_eq!(refused.status(), 401);
}

#[actix_web::test]
async fn an_imported_games_mistakes_make_no_puzzles() {
    // The importer sits in both seats, but the record's moves may be anyone's.
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let id = import_finished(&ann, SHORTEST).await;
    analysis_done(&ann, &id).await;
    let (status, body) = json_of(ann.get("/api/puzzles").await).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["puzzles"], json!([]));
    assert_eq!(body["counts"], json!({ "total": 0, "solved": 0 }));
}

#[actix_web::test]
async fn the_plies_of_a_record_continued_against_the_computer_make_no_puzzles() {
    // Ann takes Black, to move after the record's eight plies, and ends the game with its ninth:
    // only that ply is hers.
    let app = quick_app().await;
    let ann = app.user("Ann").await;
    let record = SHORTEST.rsplit_once(' ').unwrap().0;
    let response =
        ann.post("/api/games/import", &json!({ "record": record, "level": "easy" })).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let (mut socket, _) = ann.join(&id).await;
    socket.send(json!({ "type": "move", "square": "f4" })).await;
    socket.until("ended").await;
    analysis_done(&ann, &id).await;
    let (status, body) = json_of(ann.get("/api/puzzles").await).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["puzzles"], json!([]));
}
