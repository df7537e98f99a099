//! Challenges between players on different nodes: each hears of the other's doing at once.

use serde_json::{Value, json};

use crate::helpers::spawn_nodes_configured;
use crate::oidc_support::{local_provider, named_account};

#[actix_web::test]
async fn a_challenge_and_its_answer_reach_players_connected_to_other_nodes() {
    let Some(provider) = local_provider() else { return };
    let configure = |settings: &mut outflank_api::configuration::Settings| {
        settings.oidc = Some(provider.settings());
    };
    let Some(nodes) = spawn_nodes_configured(2, configure).await else { return };
    let ann = named_account(&nodes[0], "ann-sub", "Ann").await;
    let bob = named_account(&nodes[1], "bob-sub", "Bob").await;
    let mut ann_socket = ann.me_socket().await;
    ann_socket.expect("hello").await;
    let mut bob_socket = bob.me_socket().await;
    bob_socket.expect("hello").await;

    let response = ann
        .post("/api/challenges", &json!({ "to": "Bob", "control": "3+2", "colour": "black" }))
        .await;
    assert_eq!(response.status(), 201);
    let made: Value = response.json().await.unwrap();
    let told = bob_socket.expect("notification").await;
    assert_eq!(told["notification"]["kind"], "challenge_received");
    assert_eq!(bob_socket.expect("challenge").await["challenge"], made);

    let accept = format!("/api/challenges/{}/accept", made["id"].as_str().unwrap());
    assert_eq!(bob.post(&accept, &json!({})).await.status(), 200);
    ann_socket.expect("challenge").await; // its own, sent when it was made
    let told = ann_socket.expect("notification").await;
    assert_eq!(told["notification"]["kind"], "challenge_accepted");
    let accepted = ann_socket.expect("challenge").await;
    let game = accepted["challenge"]["game_id"].as_str().unwrap().to_owned();
    let (_, snapshot) = ann.join(&game).await;
    assert_eq!(snapshot["you"], "black", "{snapshot}");
}
