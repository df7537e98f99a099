//! Outflank's server: configuration, HTTP routes and the pages of the web client.

pub mod accounts;
pub mod banner;
pub mod cluster;
pub mod commands;
pub mod configuration;
pub mod domain;
pub mod fair_play;
pub mod follow_notices;
pub mod http;
pub mod identity;
pub mod json;
pub mod live;
pub mod lobby_feed;
pub mod metrics;
pub mod player_feed;
pub mod routes;
pub mod secret;
pub mod service;
pub mod social;
pub mod startup;
pub mod stop_watchdog;
pub mod storage;
pub mod telemetry;
pub mod turn_notices;
pub mod web_push;
pub mod ws;
