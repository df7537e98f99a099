//! The pages and assets of the web client: the whole `web/` directory, embedded in release
//! builds (debug builds read it from disk, so edits show on reload).
//!
//! | URL | file |
//! |---|---|
//! | `/` | `index.html` |
//! | `/game/{id}` | `game.html` |
//! | `/join/{code}` | `join.html` |
//! | `/replay/{id}` | `game.html`: a finished game shows its final position, moves and record |
//! | `/rules` | `rules.html` |
//! | `/css/…`, `/js/…`, `/img/…` | the file of that path |
//! | anything else outside `/api` | `404.html`, status 404 |

use actix_web::http::StatusCode;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use rust_embed::Embed;

use crate::http::error::error_response;

/// The files of `web/`.
#[derive(Embed)]
#[folder = "../web/"]
struct Web;

/// The page routes and the HTML file each one serves.
const PAGES: &[(&str, &str)] = &[
    ("/", "index.html"),
    ("/game/{id}", "game.html"),
    ("/join/{code}", "join.html"),
    ("/replay/{id}", "game.html"),
    ("/rules", "rules.html"),
    ("/leaderboard", "leaderboard.html"),
    ("/players/{name}", "player.html"),
    ("/welcome", "welcome.html"),
];

/// The folders of `web/` served as they are.
const ASSET_DIRS: &[&str] = &["css", "js", "img"];

pub fn configure(config: &mut ServiceConfig) {
    config.route("/api/openapi.json", web::get().to(openapi));
    for &(path, file) in PAGES {
        config.route(path, web::get().to(move || async move { file_response(file) }));
    }
    for &dir in ASSET_DIRS {
        config.route(
            &format!("/{dir}/{{tail:.*}}"),
            web::get().to(move |tail: web::Path<String>| async move {
                file_response(&format!("{dir}/{tail}"))
            }),
        );
    }
    config.default_service(web::to(not_found));
}

async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(include_str!("../../../docs/openapi.json"))
}

/// The content type of a file, from its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A file of `web/`, or the not-found page. Paths with `..` never reach the disk.
fn file_response(path: &str) -> HttpResponse {
    if path.split('/').any(|part| part == ".." || part.is_empty()) {
        return not_found_page();
    }
    match Web::get(path) {
        Some(file) => HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, content_type(path)))
            .insert_header((CACHE_CONTROL, "no-cache"))
            .body(file.data.into_owned()),
        None => not_found_page(),
    }
}

fn not_found_page() -> HttpResponse {
    let body = Web::get("404.html").map(|file| file.data.into_owned()).unwrap_or_default();
    HttpResponse::NotFound().insert_header((CONTENT_TYPE, content_type("404.html"))).body(body)
}

/// Unknown API paths answer JSON like the rest of the API; every other path gets the page.
async fn not_found(request: HttpRequest) -> HttpResponse {
    if request.path() == "/api" || request.path().starts_with("/api/") {
        error_response(StatusCode::NOT_FOUND, "not_found", "there is no such API route")
    } else {
        not_found_page()
    }
}
