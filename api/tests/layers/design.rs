//! The server's design as data: its layers, and the imports it never makes. `api/README.md`
//! ("Layers") says the same in words.

/// From the bottom up. A module belongs to the layer of the longest prefix of its path listed
/// here, and uses only its own layer and those beneath it.
pub const LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "domain",
            "live",
            "accounts",
            "fair_play",
            "social",
            "web_push",
            "secret",
            "metrics",
            "telemetry",
        ],
    ),
    ("storage", &["storage"]),
    ("cluster", &["cluster"]),
    ("service", &["service", "identity"]),
    (
        "edge",
        &[
            "http",
            "json",
            "lobby_feed",
            "player_feed",
            "push_sender",
            "notifier",
            "follow_notices",
            "turn_notices",
            "routes",
            "ws",
            "configuration",
            "startup",
            "stop_watchdog",
            "main",
            "lib",
            "banner",
            "commands",
        ],
    ),
];

/// An import the design forbids even where the layers allow it.
#[derive(Debug)]
pub struct Never {
    /// The modules it binds: these and everything inside them.
    pub from: &'static str,
    /// What they may not use: this module and everything inside it.
    pub to: &'static str,
    /// Modules inside `from` that may, and everything inside them.
    pub except: &'static [&'static str],
    /// Why, as the failure says it.
    pub why: &'static str,
}

/// The imports the design forbids.
pub const NEVERS: &[Never] = &[
    Never {
        from: "live",
        to: "metrics",
        except: &[],
        why: "a live game is a pure state machine: its shell counts what it does",
    },
    Never {
        from: "live",
        to: "telemetry",
        except: &[],
        why: "a live game is a pure state machine: its shell logs what it does",
    },
    Never {
        from: "service",
        to: "identity",
        except: &[],
        why: "the service takes a player's id; who a request is stays at the edge",
    },
    Never {
        from: "identity",
        to: "service",
        except: &[],
        why: "who a request is does not depend on the games",
    },
    Never {
        from: "service",
        to: "ws",
        except: &[],
        why: "the service speaks in domain values; only the socket edge renders the wire",
    },
    Never {
        from: "cluster",
        to: "ws",
        except: &[],
        why: "nodes exchange domain values; only the socket edge renders the wire",
    },
    Never {
        from: "routes",
        to: "ws",
        except: &[],
        why: "the routes and the sockets share the edge's JSON (`json`), not each other's",
    },
    Never {
        from: "ws",
        to: "routes",
        except: &[],
        why: "the routes and the sockets share the edge's JSON (`json`), not each other's",
    },
    Never {
        from: "service",
        to: "cluster",
        except: &["service::games::router"],
        why: "the router is the one seam between the games and the cluster",
    },
];

/// Whether module `path` is `prefix` or inside it.
pub fn within(path: &str, prefix: &str) -> bool {
    path == prefix || path.strip_prefix(prefix).is_some_and(|rest| rest.starts_with("::"))
}

/// The layer of module `path`, as an index into [`LAYERS`].
pub fn layer_of(path: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (index, (_, prefixes)) in LAYERS.iter().enumerate() {
        for prefix in *prefixes {
            if within(path, prefix) && best.is_none_or(|(_, len)| prefix.len() > len) {
                best = Some((index, prefix.len()));
            }
        }
    }
    best.map(|(index, _)| index)
}

/// Where the time is read through the clock the games are played by (`service::Clock`, which
/// tests move by hand), never from the system: these modules, except the clock itself.
pub const CLOCKED: &[&str] = &["service", "ws", "live"];

/// The one module that reads the system's time for the clocked modules.
pub const THE_CLOCK: &str = "service::time";
