//! The crate as a graph of modules: one node a source file, an edge for every path its code
//! names in another module, re-exports followed to where the item is defined.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::Path;

use crate::source::{self, UseDecl};

/// The modules of one crate and what each uses.
#[derive(Debug)]
pub struct Modules {
    /// Every module's path (`service::games::registry`; the crate root is `lib` or `main`).
    pub all: BTreeSet<String>,
    /// For each module, the modules its code uses (never itself), inline tests left out: where
    /// what it names is defined.
    pub uses: BTreeMap<String, BTreeSet<String>>,
    /// For each module, every module its code and tests name or use: the modules its paths go
    /// through (`ws::protocol` in `ws::protocol::RatingSide`) as well as where the items are
    /// defined (`json`, which `ws::protocol` re-exports it from).
    pub names: BTreeMap<String, BTreeSet<String>>,
    /// The modules whose code (tests left out) reads the system's time itself.
    pub read_the_time: BTreeSet<String>,
}

/// One file as read: its module path, its code without tests, and its tests' code.
struct File {
    module: String,
    code: String,
    tests: String,
}

impl Modules {
    /// Reads every `.rs` file under `src`.
    pub fn read(src: &Path) -> Modules {
        let mut files = Vec::new();
        read_files(src, src, &mut files);
        let all: BTreeSet<String> = files.iter().map(|file| file.module.clone()).collect();
        let decls: HashMap<String, Vec<UseDecl>> =
            files.iter().map(|file| (file.module.clone(), source::use_decls(&file.code))).collect();
        let resolver = Resolver { all: &all, decls: &decls };
        let mut uses = BTreeMap::new();
        let mut names = BTreeMap::new();
        for file in &files {
            let (used, _) = resolver.used_by(&file.module, &file.code, false);
            let (tests_use, tests_name) = resolver.used_by(&file.module, &file.tests, true);
            names.insert(file.module.clone(), &tests_use | &tests_name);
            uses.insert(file.module.clone(), used);
        }
        let read_the_time = files
            .iter()
            .filter(|file| SYSTEM_TIME.iter().any(|call| file.code.contains(call)))
            .map(|file| file.module.clone())
            .collect();
        Modules { all, uses, names, read_the_time }
    }
}

/// The calls that read the system's time.
const SYSTEM_TIME: [&str; 2] = ["Timestamp::now()", "SystemTime::now()"];

/// Whether module `path` is test code: a `tests` or `test_support` module or inside one.
pub fn is_test_module(path: &str) -> bool {
    path.split("::").any(|segment| segment == "tests" || segment == "test_support")
}

fn read_files(src: &Path, dir: &Path, files: &mut Vec<File>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("a readable directory")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_files(src, &path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = fs::read_to_string(&path).expect("a readable file");
            let code = source::code_only(&text);
            let module = module_of(src, &path);
            let without_tests = source::without_test_modules(&code);
            if is_test_module(&module) {
                files.push(File { module, code: String::new(), tests: code });
            } else {
                files.push(File { module, tests: code.clone(), code: without_tests });
            }
        }
    }
}

/// The module path of a source file: `src/ws/protocol/tests.rs` → `ws::protocol::tests`,
/// `src/service/mod.rs` → `service`.
pub fn module_of(src: &Path, file: &Path) -> String {
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

/// Resolves paths to the modules that define what they name.
struct Resolver<'a> {
    all: &'a BTreeSet<String>,
    decls: &'a HashMap<String, Vec<UseDecl>>,
}

/// How deep re-exports are followed before giving up (a re-export of a re-export …).
const MAX_REEXPORTS: usize = 8;

impl Resolver<'_> {
    /// The modules (other than `module`) where what `code`, written in `module`, names is
    /// defined, and the modules its paths go through.
    fn used_by(
        &self,
        module: &str,
        code: &str,
        tests: bool,
    ) -> (BTreeSet<String>, BTreeSet<String>) {
        let mut used = BTreeSet::new();
        let mut named = BTreeSet::new();
        let decls = if tests { source::use_decls(code) } else { Vec::new() };
        let own = if tests { &decls } else { self.decls.get(module).expect("read") };
        let from_uses = own
            .iter()
            .filter(|decl| !decl.reexport)
            .flat_map(|decl| decl.paths.iter().map(|path| path.segments.clone()));
        for segments in from_uses.chain(source::inline_paths(code)) {
            if let Some(target) = self.resolve(module, &segments, 0)
                && target != module
            {
                used.insert(target);
            }
            if let Some((base, rest)) = self.root(module, &segments) {
                let through = self.walk(base, rest).0;
                if through != module && !through.is_empty() {
                    named.insert(through);
                }
            }
        }
        (used, named)
    }

    /// The deepest module `rest` walks into from `base`, and what is left of the path.
    fn walk<'s>(&self, mut base: String, mut rest: &'s [String]) -> (String, &'s [String]) {
        while let Some(segment) = rest.first() {
            let child = join(&base, segment);
            if !self.all.contains(&child) {
                break;
            }
            base = child;
            rest = &rest[1..];
        }
        (base, rest)
    }

    /// The module that defines what `segments`, written in `module`, names: `None` for another
    /// crate's paths.
    fn resolve(&self, module: &str, segments: &[String], depth: usize) -> Option<String> {
        let (base, rest) = self.root(module, segments)?;
        let (base, rest) = self.walk(base, rest);
        match rest.first() {
            Some(name) if depth < MAX_REEXPORTS => {
                Some(self.reexported(&base, name, depth).unwrap_or(base))
            }
            _ => Some(base),
        }
    }

    /// Where a path starts (`crate`, `super`, `self`, or a child of `module`) and what follows.
    fn root<'s>(&self, module: &str, segments: &'s [String]) -> Option<(String, &'s [String])> {
        let first = segments.first()?;
        let file_module = module.to_owned();
        match first.as_str() {
            "crate" => Some((String::new(), &segments[1..])),
            "self" => Some((file_module, &segments[1..])),
            "super" => {
                let mut base = file_module;
                let mut rest = segments;
                while rest.first().is_some_and(|segment| segment == "super") {
                    base = parent(&base)?;
                    rest = &rest[1..];
                }
                Some((base, rest))
            }
            _ => {
                let at_root = module == "lib" || module == "main";
                let child = if at_root { first.clone() } else { join(module, first) };
                self.all
                    .contains(&child)
                    .then(|| (if at_root { String::new() } else { file_module }, segments))
            }
        }
    }

    /// The module where `name`, imported or re-exported by `module`, is defined (a child
    /// module sees its parent's imports too).
    fn reexported(&self, module: &str, name: &str, depth: usize) -> Option<String> {
        let decls = self.decls.get(if module.is_empty() { "lib" } else { module })?;
        decls
            .iter()
            .flat_map(|decl| &decl.paths)
            .find(|path| path.binds.as_deref() == Some(name))
            .and_then(|path| self.resolve(module, &path.segments, depth + 1))
    }
}

/// `base::segment`, or `segment` at the crate root.
fn join(base: &str, segment: &str) -> String {
    if base.is_empty() { segment.to_owned() } else { format!("{base}::{segment}") }
}

/// The module above `module`: `None` at the crate root.
fn parent(module: &str) -> Option<String> {
    if module.is_empty() {
        return None;
    }
    Some(module.rsplit_once("::").map_or(String::new(), |(parent, _)| parent.to_owned()))
}
