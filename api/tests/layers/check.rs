//! The design's rules applied to a crate's modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use crate::design::{CLOCKED, LAYERS, NEVERS, THE_CLOCK, layer_of, within};
use crate::modules::{Modules, is_test_module};

/// A way the code departs from the design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A module no layer lists.
    Unplaced { module: String },
    /// A module uses one in a layer above its own.
    FromAbove { module: String, uses: String },
    /// A module makes an import the design forbids.
    Never { module: String, uses: String, why: &'static str },
    /// Modules that use each other, in a circle (tests left out).
    Circle { modules: Vec<String> },
    /// A module that must read the time through the injected clock reads the system's.
    SystemTime { module: String },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Unplaced { module } => write!(f, "{module} is in no layer"),
            Violation::FromAbove { module, uses } => {
                let layer = |path: &str| layer_of(path).map_or("?", |index| LAYERS[index].0);
                write!(
                    f,
                    "{module} ({}) uses {uses} ({}), a layer above",
                    layer(module),
                    layer(uses)
                )
            }
            Violation::Never { module, uses, why } => {
                write!(f, "{module} uses {uses}, which it never does: {why}")
            }
            Violation::Circle { modules } => {
                write!(f, "a circle: {} → {}", modules.join(" → "), modules[0])
            }
            Violation::SystemTime { module } => {
                write!(f, "{module} reads the system's time; read it through service::Clock")
            }
        }
    }
}

/// Every violation of the design by the crate whose sources are under `src`.
pub fn check(src: &Path) -> Vec<Violation> {
    let modules = Modules::read(src);
    let mut violations = Vec::new();
    for module in &modules.all {
        let Some(own) = layer_of(module) else {
            violations.push(Violation::Unplaced { module: module.clone() });
            continue;
        };
        for uses in &modules.names[module] {
            if layer_of(uses).is_some_and(|layer| layer > own) {
                violations
                    .push(Violation::FromAbove { module: module.clone(), uses: uses.clone() });
            }
            for never in NEVERS {
                let exempt = never.except.iter().any(|except| within(module, except));
                if within(module, never.from) && within(uses, never.to) && !exempt {
                    violations.push(Violation::Never {
                        module: module.clone(),
                        uses: uses.clone(),
                        why: never.why,
                    });
                }
            }
        }
    }
    for module in &modules.read_the_time {
        if CLOCKED.iter().any(|clocked| within(module, clocked)) && !within(module, THE_CLOCK) {
            violations.push(Violation::SystemTime { module: module.clone() });
        }
    }
    violations.extend(circles(&modules.uses));
    violations
}

/// The circles among the modules that are not tests: each group of modules that reach each
/// other, as one circle through them.
fn circles(uses: &BTreeMap<String, BTreeSet<String>>) -> Vec<Violation> {
    let graph: BTreeMap<&str, Vec<&str>> = uses
        .iter()
        .filter(|(module, _)| !is_test_module(module))
        .map(|(module, used)| {
            let used = used.iter().map(String::as_str).filter(|used| !is_test_module(used));
            (module.as_str(), used.collect())
        })
        .collect();
    strongly_connected(&graph)
        .into_iter()
        .filter(|group| group.len() > 1)
        .map(|group| Violation::Circle { modules: circle_through(&graph, &group) })
        .collect()
}

/// The strongly connected groups of `graph` (Tarjan's algorithm).
fn strongly_connected<'a>(graph: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<BTreeSet<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<BTreeSet<&'a str>>,
    }
    fn visit<'a>(node: &'a str, graph: &BTreeMap<&'a str, Vec<&'a str>>, state: &mut State<'a>) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        for &used in graph.get(node).into_iter().flatten() {
            if !graph.contains_key(used) {
                continue;
            }
            if !state.index.contains_key(used) {
                visit(used, graph, state);
                let low = state.low[node].min(state.low[used]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(used) {
                let low = state.low[node].min(state.index[used]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = BTreeSet::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.insert(member);
                if member == node {
                    break;
                }
            }
            state.groups.push(group);
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for &node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(node, graph, &mut state);
        }
    }
    state.groups
}

/// A shortest circle through the first module of `group`, staying inside the group.
fn circle_through(graph: &BTreeMap<&str, Vec<&str>>, group: &BTreeSet<&str>) -> Vec<String> {
    let start = *group.first().expect("a group has members");
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for node in frontier {
            for &used in graph.get(node).into_iter().flatten() {
                if used == start {
                    let mut circle = vec![node.to_owned()];
                    let mut at = node;
                    while at != start {
                        at = came_from[at];
                        circle.push(at.to_owned());
                    }
                    circle.reverse();
                    return circle;
                }
                if group.contains(used) && !came_from.contains_key(used) {
                    came_from.insert(used, node);
                    next.push(used);
                }
            }
        }
        frontier = next;
    }
    group.iter().map(|member| (*member).to_owned()).collect()
}
