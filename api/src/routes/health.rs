//! `/healthz`: the process is up and answering.

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpResponse, Responder};

pub fn configure(config: &mut ServiceConfig) {
    config.route("/healthz", web::get().to(healthz));
}

async fn healthz() -> impl Responder {
    HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok")
}
