//! Outflank's server: configuration, HTTP routes and the pages of the web client.

pub mod accounts;
pub mod cluster;
pub mod configuration;
pub mod domain;
pub mod live;
pub mod metrics;
pub mod oidc;
pub mod routes;
pub mod service;
pub mod session;
pub mod startup;
pub mod storage;
pub mod telemetry;
pub mod ws;
