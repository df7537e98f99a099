//! Analyses on several nodes: a finished game is analysed once, whichever node is asked.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::spawn_nodes;

#[actix_web::test]
async fn a_game_is_analysed_once_whichever_node_is_asked() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let ann = nodes[0].user("Ann").await;
    let bob = nodes[1].user("Bob").await;
    let imported =
        ann.post("/api/games/import", &json!({ "record": "d3 c3 b3 d2 e1 d6 d7 e3 f4" })).await;
    assert_eq!(imported.status(), 201);
    let id = imported.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();

    // Asking on the other node while it is queued or running queues nothing more.
    let path = format!("/api/games/{id}/analysis");
    let asked = bob.post(&path, &json!({})).await;
    assert_eq!(asked.status(), 202);
    let status = asked.json::<Value>().await.unwrap()["status"].clone();
    assert!(status == "queued" || status == "running" || status == "done", "{status}");

    let mut done = Value::Null;
    for _ in 0..1_200 {
        let body: Value = bob.get(&path).await.json().await.unwrap();
        if body["status"] == "done" {
            done = body;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(done["plies"].as_array().map(Vec::len), Some(9), "{done}");
    // Both nodes read the one stored analysis, and asking again on either runs nothing.
    let on_first: Value = ann.get(&path).await.json().await.unwrap();
    assert_eq!(on_first, done);
    for user in [&ann, &bob] {
        let again = user.post(&path, &json!({})).await;
        assert_eq!(again.status(), 202);
        assert_eq!(again.json::<Value>().await.unwrap(), done);
    }
}
