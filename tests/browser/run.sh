#!/usr/bin/env bash
# Outflank's browser tests against the real server binary: Debian's chromium driven by
# playwright-core, and Debian's firefox-esr driven over WebDriver BiDi by puppeteer-core (both
# installed when missing; never a downloaded browser).
# Screenshots are saved in target/browser-artifacts/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y chromium
fi
if [ ! -x /usr/bin/firefox-esr ]; then
  echo "installing Debian's firefox-esr"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y firefox-esr
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "installing node and npm"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y nodejs npm
fi

cd "$here"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
# The local OpenID provider standing in for Google in the sign-in tests.
"$root/tests/oidc/start.sh"

(cd "$root" && cargo build --locked -p outflank-api --bin outflank)

node --test --test-concurrency=1 ./*.test.mjs
