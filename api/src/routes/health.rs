//! `/healthz` (the process answers) and `/readyz` (the database answers too). `/healthz` is
//! always public; `/readyz` costs a database query, so it is served with the metrics
//! ([`super::Probes`]).

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpResponse, Responder};

use crate::storage::Store;

pub fn configure(config: &mut ServiceConfig) {
    config.route("/healthz", web::get().to(healthz));
}

/// `/readyz`, wherever [`super::Probes`] puts it.
pub fn configure_readiness(config: &mut ServiceConfig) {
    config.route("/readyz", web::get().to(readyz));
}

async fn healthz() -> impl Responder {
    HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok")
}

async fn readyz(store: web::Data<Store>) -> impl Responder {
    match store.ping().await {
        Ok(()) => HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ready"),
        Err(error) => {
            tracing::warn!(%error, "readiness check failed");
            HttpResponse::ServiceUnavailable()
                .content_type("text/plain; charset=utf-8")
                .body("database unavailable")
        }
    }
}
