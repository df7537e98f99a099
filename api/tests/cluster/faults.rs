//! Redis going away during play: players get clear errors meanwhile, and once it is back the
//! game goes on with every acknowledged move intact.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::spawn_nodes_on;
use crate::play::friend_game;
use crate::storage_support::{Service, admin_url, available, redis_url_if_set};

/// A Redis server of this test's own, which keeps nothing on disk.
struct Redis {
    port: u16,
    child: Option<Child>,
}

impl Redis {
    fn start(port: u16) -> Redis {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", ""])
            .args(["--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts (tests/services.sh installs it)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Redis { port, child: Some(child) }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

#[actix_web::test]
async fn a_game_survives_redis_restarting_during_play() {
    // A Redis of its own, but only where Redis is installed (as wherever TEST_REDIS_URL is).
    let Some(_) = admin_url() else { return };
    let Some(_) = available(Service::Redis, redis_url_if_set()) else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut redis = Redis::start(port);
    let Some(nodes) = spawn_nodes_on(2, &redis.url()).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    let mut played = vec![table.play_one().await, table.play_one().await];
    // Ann, on the node that does not run the game, is to move next.
    let remote_is_black = table.black.0.base() != table.joiner_base;
    if (table.position["to_move"] == "black") != remote_is_black {
        played.push(table.play_one().await);
    }

    redis.kill();
    // Meanwhile her move gets a clear error instead of hanging, and changes nothing.
    let remote = if remote_is_black { &mut table.black.1 } else { &mut table.white.1 };
    let square = crate::helpers::legal_squares(&table.position)[0].clone();
    remote.send(json!({ "type": "move", "square": square })).await;
    let answer = remote.until("error").await;
    assert_eq!(answer["code"], "unavailable");

    let _redis = Redis::start(port);
    let deadline = Instant::now() + Duration::from_secs(30);
    let view = loop {
        if let Some(view) = table.rejoin().await {
            break view;
        }
        assert!(Instant::now() < deadline, "the game did not come back after Redis did");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let moves: Vec<&str> =
        view["moves"].as_array().unwrap().iter().map(|ply| ply["move"].as_str().unwrap()).collect();
    assert_eq!(moves, played);
    played.push(table.play_one().await);
    played.push(table.play_one().await);
    assert_eq!(table.stored_moves(&nodes[0]).await, played);
}

/// A PostgreSQL server of this test's own, run as the `postgres` system user.
struct Postgres {
    dir: std::path::PathBuf,
    port: u16,
}

impl Postgres {
    fn run(args: &[&str]) {
        let status = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("runuser runs PostgreSQL's tools as the postgres user");
        assert!(status.success(), "{args:?} failed");
    }

    fn init(port: u16) -> Postgres {
        let dir = std::env::temp_dir().join(format!("outflank-pg-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Command::new("chown").args(["postgres:postgres", dir.to_str().unwrap()]).status().unwrap();
        let data = dir.join("data");
        Postgres::run(&["initdb", "-D", data.to_str().unwrap(), "-U", "postgres", "-A", "trust"]);
        let postgres = Postgres { dir, port };
        postgres.start();
        postgres
    }

    fn start(&self) {
        let options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1", self.port, self.dir.display());
        let data = self.dir.join("data");
        Postgres::run(&["pg_ctl", "-D", data.to_str().unwrap(), "-o", &options, "-w", "start"]);
    }

    fn stop(&self) {
        let data = self.dir.join("data");
        Postgres::run(&["pg_ctl", "-D", data.to_str().unwrap(), "-m", "fast", "-w", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = Command::new("runuser")
            .args([
                "-u",
                "postgres",
                "--",
                "pg_ctl",
                "-D",
                data.to_str().unwrap(),
                "-m",
                "immediate",
            ])
            .args(["stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[actix_web::test]
async fn a_game_survives_postgres_restarting_during_play() {
    // A PostgreSQL of its own, but only where PostgreSQL is installed (as wherever
    // TEST_DATABASE_URL is).
    let Some(_) = admin_url() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let postgres = Postgres::init(port);
    let url = postgres.url();
    let app = crate::helpers::spawn_app_with(|settings| {
        settings.database_url = outflank_api::configuration::Secret::new(url);
    })
    .await;
    let mut table = friend_game(&app, &app).await;
    let mut played = vec![table.play_one().await, table.play_one().await];

    postgres.stop();
    // A move meanwhile is refused with a clear error, and nothing changes.
    let square = crate::helpers::legal_squares(&table.position)[0].clone();
    let mover =
        if table.position["to_move"] == "black" { &mut table.black.1 } else { &mut table.white.1 };
    mover.send(json!({ "type": "move", "square": square })).await;
    assert_eq!(mover.until("error").await["code"], "unavailable");

    postgres.start();
    // The player tries again until the store takes it.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        mover.send(json!({ "type": "move", "square": square })).await;
        let answer = mover.next().await.expect("socket open");
        if answer["type"] == "moved" {
            assert_eq!(answer["last_move"]["square"], square.as_str());
            table.position = answer;
            break;
        }
        assert_eq!(answer["code"], "unavailable", "{answer}");
        assert!(Instant::now() < deadline, "the store never came back");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    played.push(square);
    // The other player's socket sees the move once, then play goes on.
    let watcher =
        if table.position["to_move"] == "black" { &mut table.black.1 } else { &mut table.white.1 };
    watcher.until("moved").await;
    played.push(table.play_one().await);
    assert_eq!(table.stored_moves(&app).await, played);
}
