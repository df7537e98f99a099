//! The server's modules in layers, and no import from a layer above (see the crate README).
//!
//! Reads every file under `src/` and checks each `crate::…` path it names against the table
//! below: a module may use its own layer and the layers beneath it, never one above.

use std::fs;
use std::path::{Path, PathBuf};

/// From the bottom up. A module is placed by the longest prefix of its path that is listed.
const LAYERS: &[(&str, &[&str])] = &[
    ("core", &["domain", "live", "accounts", "secret", "metrics", "telemetry"]),
    ("protocol", &["ws::protocol", "cluster::wire"]),
    ("storage", &["storage"]),
    ("cluster", &["cluster"]),
    ("service", &["service", "identity"]),
    (
        "edge",
        &[
            "http",
            "routes",
            "ws",
            "configuration",
            "startup",
            "stop_watchdog",
            "main",
            "lib",
            "banner",
        ],
    ),
];

/// The layer of module path `path` (e.g. `ws::protocol::tests`), as an index into [`LAYERS`].
fn layer_of(path: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (index, (_, prefixes)) in LAYERS.iter().enumerate() {
        for prefix in *prefixes {
            let matches = path == *prefix || path.starts_with(&format!("{prefix}::"));
            if matches && best.is_none_or(|(_, len)| prefix.len() > len) {
                best = Some((index, prefix.len()));
            }
        }
    }
    best.map(|(index, _)| index)
}

/// The module path of a source file, e.g. `src/ws/protocol/tests.rs` → `ws::protocol::tests`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> =
        relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_owned());
    }
    parts.join("::")
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// Every `crate::a::b` path in `text`, as `a::b` (lower-case segments only: modules).
fn crate_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for (start, _) in text.match_indices("crate::") {
        let rest = &text[start + "crate::".len()..];
        let segments: Vec<&str> = rest
            .split("::")
            .map(|segment| {
                let end = segment
                    .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
                    .unwrap_or(segment.len());
                &segment[..end]
            })
            .take_while(|segment| !segment.is_empty())
            .collect();
        if !segments.is_empty() {
            paths.push(segments.join("::"));
        }
    }
    paths
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        let own = layer_of(&module).unwrap_or_else(|| panic!("{module} is in no layer"));
        let text = fs::read_to_string(file).expect("a readable file");
        for path in crate_paths(&text) {
            let Some(used) = layer_of(&path) else { continue };
            if used > own {
                violations.push(format!(
                    "{module} ({}) uses crate::{path} ({})",
                    LAYERS[own].0, LAYERS[used].0
                ));
            }
        }
    }
    assert!(violations.is_empty(), "imports from a layer above:\n{}", violations.join("\n"));
}

#[test]
fn the_layer_check_sees_an_import_from_above() {
    assert_eq!(crate_paths("use crate::service::{GameHub, ServiceError};"), ["service"]);
    assert_eq!(crate_paths("crate::ws::protocol::ServerMsg"), ["ws::protocol"]);
    assert!(layer_of("ws::protocol") < layer_of("service"));
    assert!(layer_of("ws::game") > layer_of("service"));
    assert!(layer_of("cluster::wire") < layer_of("cluster"));
}
