#!/usr/bin/env bash
# Installs the local OpenID Connect provider's dependencies (node, npm, oidc-provider) when missing.
# Tests start the provider themselves with `node tests/oidc/provider.mjs`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "installing node and npm"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y nodejs npm
fi

cd "$here"
if [ ! -d node_modules/oidc-provider ]; then
  npm ci --no-audit --no-fund
fi
