//! The OpenAPI document describes the routes the server really has.

use serde_json::Value;

use crate::helpers::spawn_app;

#[actix_web::test]
async fn every_documented_route_exists() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 12);
    for (path, operations) in paths {
        let concrete = path.replace("{id}", "abcdefghij").replace("{code}", "abcdefgh");
        for method in operations.as_object().unwrap().keys() {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let response = app
                .client
                .request(method.clone(), format!("{}{concrete}", app.url))
                .send()
                .await
                .unwrap();
            let status = response.status();
            let body = response.text().await.unwrap();
            assert!(
                !body.contains("Page not found"),
                "{method} {path} is documented but not routed"
            );
            assert_ne!(status, 405, "{method} {path}");
        }
    }
}
