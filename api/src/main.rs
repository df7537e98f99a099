//! `outflank`: the Outflank server.

use anyhow::Context;
use outflank_api::{configuration::Settings, startup::Application, telemetry};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let settings = Settings::from_env().context("invalid configuration")?;
    let app = Application::build(&settings).await.context("could not start the server")?;
    tracing::info!(address = %app.address(), "Outflank is listening");
    app.run_until_stopped().await.context("server failed")
}
