#!/usr/bin/env bash
# Outflank's Lighthouse check: Google Lighthouse on its default mobile settings, with Debian's
# chromium (installed when missing; never a downloaded browser), against the real server's debug
# build. Prints one line of scores per page, writes the reports to target/lighthouse/, and fails
# when a score is below LIGHTHOUSE_MIN (95 unless set). See README.md beside this file.
# OUTFLANK_BIN=path/to/outflank uses that binary and skips the build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

install_debian() {
  echo "installing Debian's $*"
  local sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y "$@"
}
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then install_debian chromium; fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then install_debian nodejs npm; fi

cd "$here"
if [ ! -d node_modules/lighthouse ] || [ ! -d node_modules/chrome-launcher ]; then
  npm ci --no-audit --no-fund
fi
# run.mjs shares the browser tests' helpers (the server, the sign-in), which use playwright-core.
if [ ! -d "$root/tests/browser/node_modules/playwright-core" ]; then
  (cd "$root/tests/browser" && npm ci --no-audit --no-fund)
fi
# The local OpenID provider standing in for Google, for an account whose profile is audited.
"$root/tests/oidc/start.sh"

if [ -z "${OUTFLANK_BIN:-}" ]; then
  (cd "$root" && cargo build --locked -p outflank-api --bin outflank)
fi

exec node run.mjs
