//! Outflank's server: configuration, HTTP routes and the pages of the web client.

pub mod configuration;
pub mod routes;
pub mod startup;
pub mod telemetry;
