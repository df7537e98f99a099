#!/usr/bin/env bash
# Every test of Outflank: formatting, lints, and the tests of the whole workspace.
# Installs what it needs when missing, so it passes on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is required: install Rust from your package manager or rustup" >&2
  exit 1
fi
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    step "installing $component"
    rustup component add "$component"
  fi
done

step "services"
# PostgreSQL and Redis for the store and queue tests: started or installed when missing.
# shellcheck source=tests/services.sh
. tests/services.sh
# Tests that need a service skip without it under a bare `cargo test`; here they must run.
export OUTFLANK_REQUIRE_SERVICES=1

step "the local OpenID provider for the sign-in tests"
# A real oidc-provider on loopback stands in for Google; the tests start it themselves.
tests/oidc/start.sh
node --test tests/oidc/smoke.mjs

step "formatting"
cargo fmt --all -- --check

step "lints"
cargo clippy --workspace --all-targets --locked -- -D warnings
# Doc comments whose links lead nowhere, or to items the rendered docs do not show.
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "tests (the server on SQLite; the store on SQLite and PostgreSQL)"
cargo test --workspace --locked

step "the server's tests again, on PostgreSQL with the matchmaking queue on Redis"
OUTFLANK_TEST_BACKEND=postgres cargo test --workspace --locked --test api

# --- browser tests (tests/browser/run.sh does all the work) ---
step "browser tests"
tests/browser/run.sh
# --- end of browser tests ---

step "load: 200 concurrent friend games against a real server (tests/load.sh short)"
tests/load.sh short

step "deploy/nginx.conf in front of two nodes: games played through the balancer alone"
tests/load.sh balancer

step "deploy/k8s against the Kubernetes API schemas; deploy/outflank.service by systemd"
tests/deploy/manifests.sh
tests/deploy/unit.sh

step "deploy/Dockerfile's runtime stage without Docker: a node in it on a read-only root"
if [ "$(id -u)" = 0 ]; then
  tests/deploy/image.py "${CARGO_TARGET_DIR:-target}/debug/outflank" "$TEST_DATABASE_URL" "$TEST_REDIS_URL"
else
  echo "skipped: it needs root (chroot and mount); CI runs it"
fi

step "fuzzing: record parsing, position strings, WebSocket messages (a minute each)"
fuzz/run.sh 60

echo
echo "all tests passed"
