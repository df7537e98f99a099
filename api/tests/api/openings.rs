//! Named openings as the API tells them: on the live game's messages, on the stored game and
//! its positions, and on the analysis board.

use serde_json::{Value, json};

use crate::helpers::spawn_app;

#[actix_web::test]
async fn a_game_is_named_by_its_opening_as_it_is_played_and_once_stored() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    assert_eq!(snapshot["opening_name"], Value::Null);
    // The Tiger, begun on d3 instead of f5: the same opening seen from another side.
    let mut names = Vec::new();
    for square in ["d3", "c5", "f6", "f5", "e6"] {
        names.push(socket.play(square).await["opening_name"].clone());
    }
    assert_eq!(
        names,
        [
            Value::Null,
            json!("Perpendicular"),
            json!("Perpendicular"),
            json!("Perpendicular"),
            json!("Tiger")
        ]
    );

    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["opening_name"], "Tiger");
    let by_position: Vec<&Value> = game["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|position| &position["opening_name"])
        .collect();
    assert_eq!(by_position[0], &Value::Null);
    assert_eq!(by_position[2], "Perpendicular");
    assert_eq!(by_position[5], "Tiger");
}

#[actix_web::test]
async fn the_analysis_board_names_the_opening_of_each_position_of_its_line() {
    let app = spawn_app().await;
    let line = json!({ "moves": ["f5", "d6", "c3", "d3", "c4"] });
    let answer: Value = app.post_json("/api/analysis/position", &line).await.json().await.unwrap();
    let names: Vec<&Value> = answer["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|position| &position["opening_name"])
        .collect();
    assert_eq!(names.last().copied(), Some(&json!("Tiger")));
    assert_eq!(names[2], "Perpendicular");
}
