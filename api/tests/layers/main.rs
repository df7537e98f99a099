//! The server's design, held: its modules in layers, the imports it never makes, and no
//! circle between modules (see "Layers" in the crate README).
//!
//! The checker reads every file under `src/`, resolves each path its code names (`crate::…`,
//! `super::…`, a child module, re-exports followed to where the item is defined) and applies
//! the rules of `design.rs`. Its own tests add one violation at a time to a scratch copy of
//! `src/` and see it reported.

mod check;
mod design;
mod modules;
mod source;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use check::{Violation, check};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_server_keeps_its_design() {
    let violations = check(&src());
    let lines: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(violations.is_empty(), "the design is broken:\n{}", lines.join("\n"));
}

/// The violations of a copy of `src/` in which `file` has `line` added at its top.
fn check_with(file: &str, line: &str) -> Vec<Violation> {
    static COPIES: AtomicUsize = AtomicUsize::new(0);
    let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "layers-{}-{}",
        std::process::id(),
        COPIES.fetch_add(1, Ordering::SeqCst)
    ));
    copy_tree(&src(), &copy);
    let target = copy.join(file);
    let text = fs::read_to_string(&target).unwrap_or_else(|_| panic!("no file src/{file}"));
    fs::write(&target, format!("{line}\n{text}")).expect("a writable copy");
    let violations = check(&copy);
    fs::remove_dir_all(&copy).expect("the copy removed");
    violations
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("a scratch directory");
    for entry in fs::read_dir(from).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).expect("a copied file");
        }
    }
}

fn never(module: &str, uses: &str) -> impl Fn(&Violation) -> bool {
    move |violation| matches!(violation, Violation::Never { module: m, uses: u, .. } if m == module && u == uses)
}

fn from_above(module: &str, uses: &str) -> impl Fn(&Violation) -> bool {
    move |violation| matches!(violation, Violation::FromAbove { module: m, uses: u } if m == module && u == uses)
}

fn circle_of(members: &[&str]) -> impl Fn(&Violation) -> bool {
    move |violation| match violation {
        Violation::Circle { modules } => {
            let mut found: Vec<&str> = modules.iter().map(String::as_str).collect();
            found.sort_unstable();
            let mut wanted = members.to_vec();
            wanted.sort_unstable();
            found == wanted
        }
        _ => false,
    }
}

fn assert_reported(violations: &[Violation], wanted: impl Fn(&Violation) -> bool) {
    let lines: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(violations.iter().any(wanted), "not reported; found:\n{}", lines.join("\n"));
}

#[test]
fn the_socket_wire_inside_the_service_is_refused() {
    let found = check_with("service/games/registry.rs", "use crate::ws::protocol::ServerMsg;");
    assert_reported(&found, never("service::games::registry", "ws::protocol"));
    assert_reported(&found, from_above("service::games::registry", "ws::protocol"));
}

#[test]
fn the_socket_wire_inside_the_cluster_is_refused() {
    let found = check_with("cluster/wire.rs", "use crate::ws::protocol::ServerMsg;");
    assert_reported(&found, never("cluster::wire", "ws::protocol"));
}

#[test]
fn the_clusters_messages_outside_the_router_are_refused() {
    let found = check_with("service/games/handle.rs", "use crate::cluster::wire::NodeMsg;");
    assert_reported(&found, never("service::games::handle", "cluster::wire"));
}

#[test]
fn the_cluster_named_inline_outside_the_router_is_refused() {
    let line = "const EVERY: std::time::Duration = crate::cluster::RENEW_EVERY;";
    let found = check_with("service/games/registry.rs", line);
    assert_reported(&found, never("service::games::registry", "cluster"));
}

#[test]
fn a_live_game_counting_its_own_metrics_is_refused() {
    let found = check_with("live/state.rs", "use crate::metrics::Metrics;");
    assert_reported(&found, never("live::state", "metrics"));
}

#[test]
fn a_live_game_reaching_telemetry_is_refused() {
    let found = check_with("live/event.rs", "use crate::telemetry;");
    assert_reported(&found, never("live::event", "telemetry"));
}

#[test]
fn the_service_asking_who_a_request_is_is_refused() {
    let found = check_with("service/matchmaking.rs", "use crate::identity::session::Session;");
    assert_reported(&found, never("service::matchmaking", "identity::session"));
}

#[test]
fn identity_reaching_the_games_is_refused() {
    let found = check_with("identity/revocations.rs", "use super::super::service::Online;");
    assert_reported(&found, never("identity::revocations", "service::online"));
}

#[test]
fn a_route_borrowing_the_sockets_wire_is_refused() {
    let found = check_with("routes/players.rs", "use crate::ws::protocol::RatingSide;");
    assert_reported(&found, never("routes::players", "ws::protocol"));
}

#[test]
fn the_store_reaching_the_service_is_refused() {
    let found = check_with("storage/games.rs", "use crate::service::GameHub;");
    assert_reported(&found, from_above("storage::games", "service::games::registry"));
}

#[test]
fn two_files_that_use_each_other_are_a_circle() {
    let found = check_with("service/games/handle.rs", "use super::registry::GameHub;");
    assert_reported(&found, circle_of(&["service::games::handle", "service::games::registry"]));
}

#[test]
fn a_circle_through_re_exports_is_seen() {
    // The registry uses the search pool; the pool naming the registry by its re-export closes
    // a circle between two jobs of the service.
    let found = check_with("service/compute/search.rs", "use crate::service::GameHub;");
    assert_reported(&found, circle_of(&["service::compute::search", "service::games::registry"]));
}

#[test]
fn a_circle_inside_the_core_is_seen() {
    let found = check_with("domain.rs", "use crate::live::Action;");
    assert_reported(&found, circle_of(&["domain", "live::command"]));
}

#[test]
fn a_socket_reading_the_systems_time_is_refused() {
    let line = "fn stamp() -> crate::domain::Timestamp { crate::domain::Timestamp::now() }";
    let found = check_with("ws/queue.rs", line);
    assert!(found.contains(&Violation::SystemTime { module: "ws::queue".into() }), "{found:?}");
}

#[test]
fn the_service_timing_its_reviews_by_the_system_is_refused() {
    let line = "fn stamp() -> std::time::SystemTime { std::time::SystemTime::now() }";
    let found = check_with("service/review/analysis.rs", line);
    let wanted = Violation::SystemTime { module: "service::review::analysis".into() };
    assert!(found.contains(&wanted), "{found:?}");
}

#[test]
fn the_clock_itself_and_tests_may_read_the_systems_time() {
    let line = "#[cfg(test)]\nmod more_tests {\n    fn t() { let _ = Timestamp::now(); }\n}";
    assert_eq!(check_with("live/state.rs", line), []);
    assert_eq!(check_with("service/time.rs", "fn t() { let _ = Timestamp::now(); }"), []);
}

#[test]
fn a_path_in_a_comment_or_a_string_is_not_a_use() {
    let line = "/// Unlike crate::service::GameHub.\nconst NAME: &str = \"crate::ws::protocol\";";
    assert_eq!(check_with("storage/games.rs", line), []);
}

#[test]
fn tests_inside_a_file_make_no_circle() {
    let line = "#[cfg(test)]\nmod more_tests {\n    use super::super::registry::GameHub;\n}";
    assert_eq!(check_with("service/games/handle.rs", line), []);
}
