//! Black-box tests of the server: each starts the real application on a free port with a fresh
//! database and talks to it over HTTP and WebSocket.

mod helpers;

mod computer;
mod friends;
mod health;
mod openapi;
mod pages;
mod records;
mod session;
mod socket;
