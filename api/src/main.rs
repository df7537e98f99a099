//! `outflank`: the Outflank server.

use std::io::{IsTerminal, Write};

use anyhow::Context;
use outflank_api::domain::Timestamp;
use outflank_api::storage::Store;
use outflank_api::{
    banner::Banner, commands, configuration::Settings, startup::Application, telemetry,
};

/// Every frame in and out allocates; mimalloc keeps that cheap on every thread
/// (docs/performance-history.md, "The allocator, one writing connection").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let settings = Settings::from_env().context("invalid configuration")?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if commands::is_command(&args) {
        let store = Store::connect(settings.database_url.expose())
            .await
            .context("cannot open the database")?;
        let out = commands::run(&store, &args, Timestamp::now()).await;
        store.close().await;
        print!("{}", out?);
        return Ok(());
    }
    let app = Application::build(&settings).await.context("could not start the server")?;
    tracing::info!(address = %app.address(), "Outflank is listening");
    let no_color = std::env::var("NO_COLOR").ok();
    let colour = telemetry::colour(std::io::stdout().is_terminal(), no_color.as_deref());
    let block = Banner::new(&settings, app.address()).render(colour);
    // A closed stdout must not stop the server: the block is only a courtesy.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(block.as_bytes()).and_then(|()| stdout.flush());
    drop(stdout);
    app.run_until_stopped().await.context("server failed")
}
