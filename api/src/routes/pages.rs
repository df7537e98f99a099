//! The pages and assets of the web client: the whole `web/` directory, embedded in release
//! builds (debug builds read it from disk, so edits show on reload).
//!
//! | URL | file |
//! |---|---|
//! | `/` | `index.html` |
//! | `/game/{id}` | `game.html`; status 404 when there is no such game (the page says so) |
//! | `/join/{code}` | `join.html` |
//! | `/replay/{id}` | `game.html`, the same: a finished game shows its final position, moves and record |
//! | `/rules` | `rules.html` |
//! | `/analysis` | `analysis.html`: the analysis board |
//! | `/puzzles`, `/puzzles/{id}` | `puzzles.html`: puzzles from your games |
//! | `/mod` | `mod.html`: the moderator's desk (the API says who may use it) |
//! | `/css/…`, `/js/…`, `/img/…` | the file of that path |
//! | anything else outside `/api` | `404.html`, status 404 |
//!
//! The pages share one layout: `<!-- layout:head -->` in a page stands for `layout/head.html`
//! (charset, viewport, icon, stylesheet) and `<!-- layout:header -->` for `layout/header.html`
//! (the skip link and the site header), and `<!-- layout:footer -->` for `layout/footer.html`
//! (the colours chooser), put in as the page is served. So the pages do not
//! repeat them, and there is still no build step.

use actix_web::http::StatusCode;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use rust_embed::Embed;

use crate::domain::GameId;
use crate::http::error::error_response;
use crate::routes::auth::SignIn;
use crate::storage::Store;

/// The files of `web/`.
#[derive(Embed)]
#[folder = "../web/"]
struct Web;

/// The page routes and the HTML file each one serves.
const PAGES: &[(&str, &str)] = &[
    ("/", "index.html"),
    ("/join/{code}", "join.html"),
    ("/rules", "rules.html"),
    ("/analysis", "analysis.html"),
    ("/puzzles", "puzzles.html"),
    ("/puzzles/{id}", "puzzles.html"),
    ("/leaderboard", "leaderboard.html"),
    ("/players/{name}", "player.html"),
    ("/welcome", "welcome.html"),
    ("/mod", "mod.html"),
];

/// The routes of a game's page, served with the status of the game: 404 when there is none.
const GAME_PAGES: &[&str] = &["/game/{id}", "/replay/{id}"];

/// The folders of `web/` served as they are.
const ASSET_DIRS: &[&str] = &["css", "js", "img"];

/// The files of `web/` served as they are at the site's root: the service worker, whose
/// address is its scope's (`/`).
const ROOT_FILES: &[&str] = &["sw.js"];

pub fn configure(config: &mut ServiceConfig) {
    config.route("/api/openapi.json", web::get().to(openapi));
    for &(path, file) in PAGES {
        config.route(
            path,
            web::get().to(move |request: HttpRequest| async move { file_response(&request, file) }),
        );
    }
    for &path in GAME_PAGES {
        config.route(path, web::get().to(game_page));
    }
    for &file in ROOT_FILES {
        config.route(
            &format!("/{file}"),
            web::get().to(move |request: HttpRequest| async move { file_response(&request, file) }),
        );
    }
    for &dir in ASSET_DIRS {
        config.route(
            &format!("/{dir}/{{tail:.*}}"),
            web::get().to(move |request: HttpRequest, tail: web::Path<String>| async move {
                file_response(&request, &format!("{dir}/{tail}"))
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

/// The markers a page leaves for the shared layout, and the file each one stands for.
const LAYOUT: &[(&str, &str)] = &[
    ("<!-- layout:head -->", "layout/head.html"),
    ("<!-- layout:header -->", "layout/header.html"),
    ("<!-- layout:footer -->", "layout/footer.html"),
];

/// The game page, with status 404 for an id that names no game, so that a link to a game that
/// does not exist reads as one to crawlers and tools too; the page itself says "Game not
/// found". When the store cannot say, the page is served as usual and asks the API itself.
async fn game_page(
    request: HttpRequest,
    id: web::Path<String>,
    store: web::Data<Store>,
) -> HttpResponse {
    let exists = match id.parse::<GameId>() {
        Ok(id) => store.game_exists(&id).await.unwrap_or(true),
        Err(_) => false,
    };
    let mut response = file_response(&request, "game.html");
    if !exists && response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
}

/// A file of `web/`, or the not-found page. Paths with `..` never reach the disk.
///
/// The files' addresses carry no version (there is no build step to put one in), so a browser
/// keeps each file but asks again before using it (`no-cache`) with the tag of what it has:
/// an unchanged file costs a `304 Not Modified` and no body. Text is compressed on the way
/// out by the app's compression middleware.
fn file_response(request: &HttpRequest, path: &str) -> HttpResponse {
    if path.split('/').any(|part| part == ".." || part.is_empty()) {
        return not_found_page();
    }
    let Some(mut body) = contents(path) else { return not_found_page() };
    if path.ends_with(".html") && signs_in(request) {
        body = with_sign_in(&body);
    }
    let tag = entity_tag(&body);
    // The weak comparison If-None-Match calls for: a tag weakened on the way (`W/"…"`) matches.
    let cached =
        request.headers().get(IF_NONE_MATCH).and_then(|value| value.to_str().ok()).is_some_and(
            |tags| {
                tags.split(',')
                    .map(|seen| seen.trim().trim_start_matches("W/"))
                    .any(|seen| seen == tag || seen == "*")
            },
        );
    let mut response = if cached { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response.insert_header((CACHE_CONTROL, "no-cache")).insert_header((ETAG, tag.clone()));
    if cached {
        return response.finish();
    }
    response.insert_header((CONTENT_TYPE, content_type(path))).body(body)
}

/// Whether visitors can sign in here (Google sign-in is configured).
fn signs_in(request: &HttpRequest) -> bool {
    request.app_data::<web::Data<SignIn>>().is_some_and(|sign_in| sign_in.0.is_some())
}

/// A page whose header's account corner is marked as one that will hold a Sign in link or the
/// account: its place is kept from the first paint (on a phone, a line of its own), so that
/// nothing moves when the page's script fills it in.
fn with_sign_in(page: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(page)
        .replacen(ACCOUNT_CORNER, &format!("{ACCOUNT_CORNER} data-sign-in=\"on\""), 1)
        .into_bytes()
}

/// The account corner's opening tag's start in `layout/header.html`.
const ACCOUNT_CORNER: &str = r#"<div class="site-account" id="site-account""#;

/// A strong entity tag for `body`: a hash of its bytes, quoted. Not a security measure, only
/// a way to tell that a file the browser holds is still the one served.
fn entity_tag(body: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hasher);
    format!("\"{:016x}-{:x}\"", hasher.finish(), body.len())
}

/// The bytes of a file of `web/`; a page comes with the shared layout put in.
fn contents(path: &str) -> Option<Vec<u8>> {
    let data = Web::get(path)?.data.into_owned();
    if !path.ends_with(".html") {
        return Some(data);
    }
    let mut page = String::from_utf8_lossy(&data).into_owned();
    for &(marker, part) in LAYOUT {
        if page.contains(marker) {
            let part = Web::get(part).map(|file| file.data.into_owned()).unwrap_or_default();
            page = page.replace(marker, String::from_utf8_lossy(&part).trim_end());
        }
    }
    Some(page.into_bytes())
}

fn not_found_page() -> HttpResponse {
    let body = contents("404.html").unwrap_or_default();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn page(file: &str) -> String {
        String::from_utf8(contents(file).expect("the page exists")).expect("pages are UTF-8")
    }

    #[test]
    fn every_page_is_served_with_the_shared_head_header_and_footer_once() {
        for file in PAGES.iter().map(|&(_, file)| file).chain(["game.html", "404.html"]) {
            let page = page(file);
            assert!(!page.contains("<!-- layout:"), "{file} keeps a layout marker");
            assert_eq!(
                page.matches(r#"<link rel="stylesheet" href="/css/style.css">"#).count(),
                1,
                "{file}"
            );
            assert_eq!(page.matches(r#"<header class="site-header">"#).count(), 1, "{file}");
            assert_eq!(page.matches(r#"<footer class="site-footer">"#).count(), 1, "{file}");
            assert_eq!(page.matches(r#"class="skip-link""#).count(), 1, "{file}");
            assert_eq!(
                page.matches(r#"id="content""#).count(),
                1,
                "{file}: the skip link's target"
            );
        }
    }

    #[test]
    fn a_page_marks_its_account_corner_when_visitors_can_sign_in() {
        let page = page("index.html");
        assert_eq!(page.matches(ACCOUNT_CORNER).count(), 1);
        let marked = String::from_utf8(with_sign_in(page.as_bytes())).unwrap();
        assert!(marked.contains(r#"id="site-account" data-sign-in="on""#));
    }

    #[test]
    fn a_files_tag_changes_with_its_bytes_and_only_then() {
        assert_eq!(entity_tag(b"body { }"), entity_tag(b"body { }"));
        assert_ne!(entity_tag(b"body { }"), entity_tag(b"body {}"));
        assert!(entity_tag(b"").starts_with('"') && entity_tag(b"").ends_with('"'));
    }

    #[test]
    fn the_service_worker_is_served_at_the_root_as_javascript() {
        for &file in ROOT_FILES {
            assert!(Web::get(file).is_some(), "{file} is in web/");
            assert_eq!(content_type(file), "text/javascript; charset=utf-8");
        }
    }

    #[test]
    fn other_files_are_served_as_they_are() {
        let css = contents("css/style.css").unwrap();
        assert_eq!(css, Web::get("css/style.css").unwrap().data.into_owned());
    }
}
