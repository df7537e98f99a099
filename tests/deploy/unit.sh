#!/usr/bin/env bash
# Checks deploy/outflank.service with systemd-analyze verify: every key known, every setting
# readable, the command executable (the unit's binary path is pointed at this build's server).
# Any complaint fails the check, warnings included.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${1:-${CARGO_TARGET_DIR:-target}/debug/outflank}
if ! command -v systemd-analyze >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && apt-get install -y -qq systemd >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/outflank-unit.XXXXXX")
trap 'rm -rf "$work"' EXIT
sed "s|^ExecStart=/usr/local/bin/outflank|ExecStart=$(realpath "$binary")|" \
  deploy/outflank.service >"$work/outflank.service"
complaints=$(systemd-analyze verify "$work/outflank.service" 2>&1) || true
if [ -n "$complaints" ]; then
  echo "$complaints" >&2
  exit 1
fi
echo "deploy/outflank.service: no complaint from systemd-analyze verify"
