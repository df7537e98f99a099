//! The pages and assets of the web client, compiled into the binary.

use actix_web::http::header::ContentType;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpResponse, Responder};

/// A file of `web/`: its URL path, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: &[Asset] = &[
    Asset {
        path: "/api/openapi.json",
        content_type: "application/json",
        body: include_str!("../../../docs/openapi.json"),
    },
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../../../web/index.html"),
    },
    Asset {
        path: "/rules",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../../../web/rules.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../../web/style.css"),
    },
];

pub fn configure(config: &mut ServiceConfig) {
    for asset in ASSETS {
        config.route(asset.path, web::get().to(move || serve(asset)));
    }
    config.default_service(web::to(not_found));
}

async fn serve(asset: &'static Asset) -> impl Responder {
    HttpResponse::Ok().content_type(asset.content_type).body(asset.body)
}

async fn not_found() -> impl Responder {
    HttpResponse::NotFound()
        .insert_header(ContentType::html())
        .body(include_str!("../../../web/404.html"))
}
