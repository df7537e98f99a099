//! Command-line arguments, parsed by hand.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

pub const USAGE: &str = "\
outflank-load: plays many concurrent friend games against running Outflank nodes

usage: outflank-load [options]

  --url URL             a node, e.g. http://127.0.0.1:8080 (repeat for several nodes; the two
                        players of a game use different nodes, round-robin)
  --games N             concurrent friend games, two players and two sockets each (default 100)
  --duration D          how long to play after the first game starts (default 60s)
  --think A..B          each bot thinks a random time in this range before each move
                        (default 2s..6s)
  --ramp D              start the games evenly over this time (default 15s)
  --timeout D           limit for every request, connection and move acknowledgement
                        (default 10s)
  --server-pid PID      a server process to measure (CPU, memory); repeat for several
  --idle-sockets N      instead of playing, open N sockets joined to games (not moving), hold
                        them for --duration and report the servers' memory per socket
  --clients N           the players connect from N loopback addresses, 127.0.1.1 to 127.0.1.N,
                        round-robin, so per-address limits apply to each share (default: the
                        system's choice, 127.0.0.1, for everyone)
  --attack N            N attack tasks run alongside the games for the whole run: idle sockets
                        that never join, ping floods, requests with a 120 KiB junk cookie and
                        computer games created as fast as possible (default 0)
  --attack-from ADDR    the loopback address the attack and the computer flood come from
                        (default 127.0.0.2)
  --computer-flood N    instead of friend games, each of --games guests plays the computer,
                        one game after another, thinking --think before each move, and the
                        time from its move to the computer's reply is measured; meanwhile N
                        tasks from --attack-from create computer games and play them with no
                        think time (0: the guests alone, for comparison). The server lets
                        one address have 10 computer games: spread the guests with --clients
  --level L             the computer's level in --computer-flood games: 1 to 10, or easy,
                        medium or hard (levels 1, 7 and 10) (default hard)
  --control C           the friend rooms' time control as players write it (30s, 3+2, 10+5,
                        2d...; default: the server's, 30 s a move)
  --churn               after each game its room is left and a new one set up (instead of a
                        rematch), so new games keep arriving alongside the moves
  --find-max            step the load up until moves are no longer acknowledged in time: runs
                        of --games, then × --growth each step, each with --ramp and then
                        --step at full load, until a run's p99 is above --p99-limit or it has
                        an error; reports every step and the most moves/s that passed
  --step D              full-load time of each --find-max step (default 10s)
  --p99-limit D         the p99 move acknowledgement a --find-max step must keep (default 50ms)
  --growth X            games multiply by X from one --find-max step to the next (default 1.5)
  --max-steps N         --find-max stops after N steps (default 12)
  --json                print the report as JSON
  --help                this text

Durations: 250ms, 30s, 2m, or a number of seconds (1.5).
--clients, --attack and --computer-flood bind loopback addresses, so the nodes must be on
loopback too.
Exit status: 0 when no error occurred and at least one move was acknowledged (in --idle-sockets
mode: every socket opened; in --computer-flood mode: the guests had no error and at least one
reply), 1 otherwise, 2 for bad arguments. Refusals of the attack and of the computer flood are
counted in their sections of the report and are not errors.";

/// The highest `--clients`: the sources are 127.0.1.1 to 127.0.1.254.
pub const MAX_CLIENTS: usize = 254;

#[derive(Clone, Debug)]
pub struct Args {
    pub urls: Vec<String>,
    pub games: usize,
    pub duration: Duration,
    pub think_min: Duration,
    pub think_max: Duration,
    pub ramp: Duration,
    pub timeout: Duration,
    pub server_pids: Vec<u32>,
    pub idle_sockets: Option<usize>,
    /// Loopback source addresses for the players; 0 leaves the choice to the system.
    pub clients: usize,
    /// Attack tasks run alongside the games.
    pub attack: usize,
    /// Where the attack comes from.
    pub attack_from: IpAddr,
    pub json: bool,
    /// Step the load up to find the most moves/s acknowledged in time.
    pub find_max: Option<FindMax>,
    /// A new room after each game instead of a rematch.
    pub churn: bool,
    /// The rooms' time control (`3+2`); `None` leaves the server's default.
    pub control: Option<String>,
    /// Guests play the computer while this many tasks from `attack_from` flood it with
    /// computer games; `Some(0)` measures the guests alone.
    pub computer_flood: Option<usize>,
    /// The computer's level in those games, as the server reads it: `1`–`10`, `easy`,
    /// `medium` or `hard`.
    pub level: String,
}

/// How `--find-max` steps the load.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FindMax {
    /// Full-load time of each step.
    pub step: Duration,
    /// The p99 acknowledgement a step must keep to pass.
    pub p99_limit: Duration,
    /// Games multiply by this from one step to the next (above 1).
    pub growth: f64,
    /// The most steps.
    pub max_steps: usize,
}

impl Default for FindMax {
    fn default() -> FindMax {
        FindMax {
            step: Duration::from_secs(10),
            p99_limit: Duration::from_millis(50),
            growth: 1.5,
            max_steps: 12,
        }
    }
}

impl Args {
    /// The players' source addresses, 127.0.1.1 to 127.0.1.N; empty when the system chooses.
    pub fn sources(&self) -> Vec<IpAddr> {
        (1..=self.clients.min(MAX_CLIENTS))
            .filter_map(|n| u8::try_from(n).ok())
            .map(|n| IpAddr::V4(Ipv4Addr::new(127, 0, 1, n)))
            .collect()
    }
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Parsed {
    Run(Box<Args>),
    Help,
}

/// Parses `250ms`, `30s`, `2m`, `1h` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = text.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number.trim().parse().map_err(|_| format!("{text:?} is not a duration"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("{text:?} is not a duration"));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

fn parse_think(text: &str) -> Result<(Duration, Duration), String> {
    let (low, high) = text
        .split_once("..")
        .ok_or_else(|| format!("--think {text:?}: expected a range such as 2s..6s"))?;
    let (low, high) = (parse_duration(low)?, parse_duration(high)?);
    if low > high {
        return Err(format!("--think {text:?}: the lower end is above the upper end"));
    }
    Ok((low, high))
}

/// A level the server accepts: 1 to 10 (also as `level 6`), or easy, medium or hard, in any
/// case; returned as the number or the lower-case name.
fn parse_level(text: &str) -> Result<String, String> {
    let lower = text.trim().to_ascii_lowercase();
    if matches!(lower.as_str(), "easy" | "medium" | "hard") {
        return Ok(lower);
    }
    let number = lower
        .strip_prefix("level")
        .map_or(lower.as_str(), |n| n.trim_start_matches([' ', '-', '_']));
    let plain =
        !number.is_empty() && number.len() <= 2 && number.bytes().all(|b| b.is_ascii_digit());
    match number.parse::<u8>() {
        Ok(level) if plain && !number.starts_with('0') && (1..=10).contains(&level) => {
            Ok(level.to_string())
        }
        _ => Err(format!("--level {text:?}: expected 1 to 10, easy, medium or hard")),
    }
}

fn parse_count(flag: &str, text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| format!("{flag} {text:?}: expected a whole number"))
}

/// Parses the arguments after the program name.
pub fn parse(arguments: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut args = Args {
        urls: Vec::new(),
        games: 100,
        duration: Duration::from_secs(60),
        think_min: Duration::from_secs(2),
        think_max: Duration::from_secs(6),
        ramp: Duration::from_secs(15),
        timeout: Duration::from_secs(10),
        server_pids: Vec::new(),
        idle_sockets: None,
        clients: 0,
        attack: 0,
        attack_from: IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
        json: false,
        find_max: None,
        churn: false,
        control: None,
        computer_flood: None,
        level: "hard".to_owned(),
    };
    let mut level = None;
    let mut find_max = FindMax::default();
    let mut find_max_on = false;
    let mut arguments = arguments.into_iter();
    while let Some(flag) = arguments.next() {
        // `--flag=value` and `--flag value` are both accepted.
        let (flag, inline) = match flag.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value.into())),
            _ => (flag, None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| arguments.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--help" | "-h" => return Ok(Parsed::Help),
            "--json" => args.json = true,
            "--find-max" => find_max_on = true,
            "--churn" => args.churn = true,
            "--control" => args.control = Some(value()?),
            "--step" => find_max.step = parse_duration(&value()?)?,
            "--p99-limit" => find_max.p99_limit = parse_duration(&value()?)?,
            "--max-steps" => find_max.max_steps = parse_count("--max-steps", &value()?)?,
            "--growth" => {
                let text = value()?;
                find_max.growth = text
                    .parse::<f64>()
                    .ok()
                    .filter(|growth| growth.is_finite() && *growth > 1.0)
                    .ok_or_else(|| format!("--growth {text:?}: expected a number above 1"))?;
            }
            "--url" => {
                let url = value()?.trim_end_matches('/').to_owned();
                if !url.starts_with("http://") {
                    return Err(format!("--url {url:?}: expected http://host:port"));
                }
                args.urls.push(url);
            }
            "--games" => args.games = parse_count("--games", &value()?)?,
            "--duration" => args.duration = parse_duration(&value()?)?,
            "--think" => (args.think_min, args.think_max) = parse_think(&value()?)?,
            "--ramp" => args.ramp = parse_duration(&value()?)?,
            "--timeout" => args.timeout = parse_duration(&value()?)?,
            "--server-pid" => {
                let text = value()?;
                let pid = text.parse().map_err(|_| format!("--server-pid {text:?}: not a pid"))?;
                args.server_pids.push(pid);
            }
            "--idle-sockets" => args.idle_sockets = Some(parse_count("--idle-sockets", &value()?)?),
            "--clients" => args.clients = parse_count("--clients", &value()?)?,
            "--attack" => args.attack = parse_count("--attack", &value()?)?,
            "--attack-from" => {
                let text = value()?;
                args.attack_from = text
                    .parse()
                    .map_err(|_| format!("--attack-from {text:?}: expected an address"))?;
            }
            "--computer-flood" => {
                args.computer_flood = Some(parse_count("--computer-flood", &value()?)?);
            }
            "--level" => level = Some(parse_level(&value()?)?),
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    if args.urls.is_empty() {
        args.urls.push("http://127.0.0.1:8080".to_owned());
    }
    if args.games == 0 && args.idle_sockets.is_none() {
        return Err("--games must be at least 1".to_owned());
    }
    if args.timeout.is_zero() {
        return Err("--timeout must be above zero".to_owned());
    }
    if args.clients > MAX_CLIENTS {
        return Err(format!("--clients must be at most {MAX_CLIENTS}"));
    }
    if args.attack > 0 && args.idle_sockets.is_some() {
        return Err("--attack plays alongside games, not with --idle-sockets".to_owned());
    }
    if args.computer_flood.is_some()
        && (args.idle_sockets.is_some() || args.attack > 0 || find_max_on || args.churn)
    {
        return Err("--computer-flood plays computer games alone: not with --idle-sockets, \
                    --attack, --find-max or --churn"
            .to_owned());
    }
    match level {
        Some(_) if args.computer_flood.is_none() => {
            return Err("--level is the computer's level in --computer-flood games".to_owned());
        }
        Some(level) => args.level = level,
        None => {}
    }
    if find_max_on {
        if args.idle_sockets.is_some() || args.attack > 0 {
            return Err("--find-max plays games alone: not with --idle-sockets or --attack".into());
        }
        if find_max.max_steps == 0 || find_max.step.is_zero() {
            return Err("--find-max needs --max-steps and --step above zero".to_owned());
        }
        args.find_max = Some(find_max);
    }
    if !args.attack_from.is_loopback() {
        return Err(format!("--attack-from {}: expected a loopback address", args.attack_from));
    }
    // A socket bound to a loopback address can only reach loopback.
    let flooding = args.computer_flood.is_some_and(|tasks| tasks > 0);
    if (args.clients > 0 || args.attack > 0 || flooding)
        && let Some(url) = args.urls.iter().find(|url| !is_loopback_url(url))
    {
        return Err(format!(
            "--url {url:?}: --clients, --attack and --computer-flood need nodes on loopback \
             addresses (127.x.x.x)"
        ));
    }
    Ok(Parsed::Run(Box::new(args)))
}

/// Whether `url` (`http://host:port…`) names an IPv4 loopback address.
fn is_loopback_url(url: &str) -> bool {
    let authority = url.trim_start_matches("http://").split('/').next().unwrap_or("");
    let host = authority.rsplit_once(':').map_or(authority, |(host, _)| host);
    host.parse::<Ipv4Addr>().is_ok_and(|address| address.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Result<Args, String> {
        match parse(text.split_whitespace().map(str::to_owned))? {
            Parsed::Run(args) => Ok(*args),
            Parsed::Help => Err("help".to_owned()),
        }
    }

    #[test]
    fn durations_take_units_or_seconds() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn the_full_command_line_is_read() {
        let args = run("--url http://a:1 --url=http://b:2/ --games 5 --duration 90s \
                        --think 0.2s..600ms --server-pid 7 --server-pid 8 --json")
        .unwrap();
        assert_eq!(args.urls, ["http://a:1", "http://b:2"]);
        assert_eq!(args.games, 5);
        assert_eq!(args.duration, Duration::from_secs(90));
        assert_eq!(
            (args.think_min, args.think_max),
            (Duration::from_millis(200), Duration::from_millis(600))
        );
        assert_eq!(args.server_pids, [7, 8]);
        assert!(args.json);
        assert!(!args.churn);
        assert!(run("--churn").unwrap().churn);
        assert_eq!(args.control, None);
        assert_eq!(run("--control 3+2").unwrap().control.as_deref(), Some("3+2"));
    }

    #[test]
    fn defaults_and_mistakes() {
        let args = run("").unwrap();
        assert_eq!(args.urls, ["http://127.0.0.1:8080"]);
        assert!(run("--think 6s..2s").is_err());
        assert!(run("--games").is_err());
        assert!(run("--url ws://x").is_err());
        assert!(run("--frobnicate").is_err());
        assert_eq!((args.clients, args.attack), (0, 0));
        assert_eq!(args.attack_from, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
        assert!(args.sources().is_empty());
    }

    #[test]
    fn sources_and_attack() {
        let args =
            run("--url http://127.0.0.1:9 --clients 3 --attack 8 --attack-from 127.0.0.9").unwrap();
        let sources: Vec<String> = args.sources().iter().map(ToString::to_string).collect();
        assert_eq!(sources, ["127.0.1.1", "127.0.1.2", "127.0.1.3"]);
        assert_eq!(args.attack, 8);
        assert_eq!(args.attack_from.to_string(), "127.0.0.9");
        assert!(run("--clients 255").is_err());
        assert!(run("--attack-from 10.0.0.1").is_err());
        assert!(run("--attack-from nowhere").is_err());
        assert!(run("--url http://example.com:80 --attack 1").is_err());
        assert!(run("--url http://192.0.2.1:80 --clients 2").is_err());
        assert!(run("--url http://192.0.2.1:80").is_ok());
        assert!(run("--attack 4 --idle-sockets 10").is_err());
    }

    #[test]
    fn find_max_takes_its_steps_from_the_command_line() {
        assert_eq!(run("").unwrap().find_max, None);
        assert_eq!(run("--find-max").unwrap().find_max, Some(FindMax::default()));
        let args = run("--find-max --step 5s --p99-limit 20ms --growth 2 --max-steps 3").unwrap();
        assert_eq!(
            args.find_max,
            Some(FindMax {
                step: Duration::from_secs(5),
                p99_limit: Duration::from_millis(20),
                growth: 2.0,
                max_steps: 3,
            })
        );
        assert!(run("--find-max --growth 1").is_err());
        assert!(run("--find-max --max-steps 0").is_err());
        assert!(run("--find-max --attack 2").is_err());
    }

    #[test]
    fn computer_flood_takes_its_tasks_and_level() {
        let args = run("").unwrap();
        assert_eq!((args.computer_flood, args.level.as_str()), (None, "hard"));
        let args = run("--url http://127.0.0.1:9 --computer-flood 30 --games 4 --clients 4 \
                        --level easy --attack-from 127.0.0.3")
        .unwrap();
        assert_eq!((args.computer_flood, args.level.as_str()), (Some(30), "easy"));
        assert_eq!((args.games, args.clients), (4, 4));
        assert_eq!(args.attack_from.to_string(), "127.0.0.3");
        assert_eq!(run("--computer-flood 0").unwrap().computer_flood, Some(0));
        assert_eq!(run("--computer-flood 2").unwrap().level, "hard");
    }

    #[test]
    fn levels_are_read_as_the_server_reads_them() {
        for (text, level) in [
            ("hard", "hard"),
            ("Medium", "medium"),
            ("EASY", "easy"),
            ("1", "1"),
            ("10", "10"),
            ("level 6", "6"),
            ("level-3", "3"),
        ] {
            assert_eq!(parse_level(text).as_deref(), Ok(level), "{text:?}");
        }
        for text in ["0", "11", "007", "+3", "-1", "", "level", "expert"] {
            assert!(parse_level(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn computer_flood_plays_alone() {
        assert!(run("--computer-flood 1 --attack 1").is_err());
        assert!(run("--computer-flood 1 --idle-sockets 5").is_err());
        assert!(run("--computer-flood 1 --find-max").is_err());
        assert!(run("--computer-flood 1 --churn").is_err());
        assert!(run("--level 5").is_err());
        assert!(run("--computer-flood 1 --level 11").is_err());
        assert!(run("--computer-flood").is_err());
        // The flood binds --attack-from, which reaches loopback only.
        assert!(run("--url http://192.0.2.1:80 --computer-flood 3").is_err());
        assert!(run("--url http://192.0.2.1:80 --computer-flood 0").is_ok());
    }
}
