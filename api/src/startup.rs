//! Building and running the HTTP server.

use std::net::{SocketAddr, TcpListener};

use actix_web::dev::Server;
use actix_web::{App, HttpServer, middleware};

use crate::configuration::Settings;
use crate::routes;

/// A bound, not yet running server. Binding first lets port 0 work and report the real port.
pub struct Application {
    address: SocketAddr,
    server: Server,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application").field("address", &self.address).finish_non_exhaustive()
    }
}

impl Application {
    /// Binds the listener and prepares the server.
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn build(settings: &Settings) -> std::io::Result<Application> {
        let listener = TcpListener::bind(settings.address)?;
        let address = listener.local_addr()?;
        let server = HttpServer::new(|| {
            App::new().wrap(middleware::Logger::new("%r %s %Dms")).configure(routes::configure)
        })
        .listen(listener)?
        .run();
        Ok(Application { address, server })
    }

    /// The address actually bound.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Serves until SIGINT/SIGTERM, then stops accepting and finishes open requests.
    ///
    /// # Errors
    /// The server fails while running.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
