//! `GET /metrics`: this node's metrics in the Prometheus text format (see [`crate::metrics`]).

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpResponse, Responder};

use crate::metrics::Metrics;
use crate::service::Matchmaking;

pub fn configure(config: &mut ServiceConfig) {
    config.route("/metrics", web::get().to(metrics));
}

async fn metrics(
    metrics: web::Data<Metrics>,
    matchmaking: web::Data<Matchmaking>,
) -> impl Responder {
    let waiting = match matchmaking.waiting().await {
        Ok(waiting) => Some(waiting),
        Err(error) => {
            tracing::warn!(%error, "queue size not read for /metrics");
            None
        }
    };
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(metrics.render(waiting))
}
