use serde_json::json;

use crate::helpers::spawn_app;

/// The value of the sample `series` (name with its labels, as rendered) in `text`.
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {series} in:\n{text}"))
        .parse()
        .unwrap()
}

#[actix_web::test]
async fn metrics_count_sockets_games_moves_and_refusals() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.play("d3").await;
    // A square that is not legal now: refused.
    socket.send(json!({ "type": "move", "square": "a1" })).await;
    socket.expect("error").await;
    // Messages are handled in order: once the pong is back, both moves were acknowledged.
    socket.send(json!({ "type": "ping" })).await;
    socket.expect("pong").await;

    let response = app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");
    let text = response.text().await.unwrap();
    assert!(sample(&text, "outflank_moves_total") >= 1.0);
    assert!(sample(&text, "outflank_move_ack_seconds_count") >= 2.0);
    assert!(sample(&text, "outflank_move_ack_seconds_bucket{le=\"+Inf\"}") >= 2.0);
    assert!(text.contains("# TYPE outflank_move_ack_seconds histogram"), "{text}");
    assert!(sample(&text, "outflank_live_games{mode=\"same_device\"}") >= 1.0);
    assert!(sample(&text, "outflank_sockets_open{kind=\"game\"}") >= 1.0);
    assert!(sample(&text, "outflank_store_seconds_count") >= 1.0);
    assert!(sample(&text, "outflank_queue_waiting") >= 0.0);
    let refused = text
        .lines()
        .filter(|line| line.starts_with("outflank_errors_total{kind=\"command_refused\""))
        .count();
    assert!(refused >= 1, "{text}");
}

#[actix_web::test]
async fn a_closed_socket_is_no_longer_counted() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (socket, _) = ann.join(&id).await;
    drop(socket);
    let mut open = f64::NAN;
    for _ in 0..50 {
        let text = app.get("/metrics").await.text().await.unwrap();
        open = sample(&text, "outflank_sockets_open{kind=\"game\"}");
        if open == 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(open, 0.0);
}
