# Services the tests use: PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
#
# Source it (`. tests/services.sh`): it starts whichever is not answering, installing it with
# apt-get when it is missing, then exports
#   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
#   TEST_REDIS_URL=redis://127.0.0.1:6379
# A variable already set is kept, and that service is left alone. OUTFLANK_SKIP_POSTGRES=1
# skips PostgreSQL (its storage tests then skip too). Returns non-zero if a service cannot be
# made to answer. OUTFLANK_TEST_PG_PORT and OUTFLANK_TEST_REDIS_PORT change the ports, for
# trying this script against spare servers.
#
# It never stops anything. When the local postgres user cannot log in over TCP without a
# password (a fresh Debian install), it adds `trust` lines for that user on loopback only to the
# cluster's pg_hba.conf, marked so that a second run does not add them again.

_svc_say() { printf 'services: %s\n' "$*"; }

# Runs a command as root, through sudo when needed.
_svc_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    _svc_say "need root (or sudo) to run: $*" >&2
    return 1
  fi
}

_svc_apt_updated=""
_svc_apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    _svc_say "apt-get is not available: install $* yourself" >&2
    return 1
  fi
  if [ -z "$_svc_apt_updated" ]; then
    _svc_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
    _svc_apt_updated=1
  fi
  _svc_say "installing $*"
  _svc_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || return 1
}

# Waits up to $2 seconds for the command in $1 to succeed.
_svc_wait() {
  local check=$1 seconds=$2 i
  for ((i = 0; i < seconds * 2; i++)); do
    if $check; then return 0; fi
    sleep 0.5
  done
  return 1
}

# --- PostgreSQL ------------------------------------------------------------------------------

_svc_pg_port=${OUTFLANK_TEST_PG_PORT:-5432}

_svc_pg_ready() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h 127.0.0.1 -p "$_svc_pg_port"
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$_svc_pg_port") 2>/dev/null
  fi
}

_svc_pg_login() {
  psql -w -q -h 127.0.0.1 -p "$_svc_pg_port" -U postgres -d postgres -tAc 'SELECT 1' \
    >/dev/null 2>&1
}

# Prints "version name" of the local cluster configured for our port, if there is one.
_svc_pg_cluster() {
  command -v pg_lsclusters >/dev/null 2>&1 || return 0
  pg_lsclusters -h 2>/dev/null | awk -v port="$_svc_pg_port" '$3 == port { print $1, $2; exit }'
}

_svc_pg_start() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    _svc_apt_install postgresql || return 1
    # The package may have started its cluster already.
    if _svc_wait _svc_pg_ready 5; then return 0; fi
  fi
  local cluster version name
  cluster=$(_svc_pg_cluster)
  if [ -z "$cluster" ]; then
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
    [ -n "$version" ] || version=$(ls /usr/lib/postgresql | sort -V | tail -1)
    if [ -d "/etc/postgresql/$version/main" ]; then
      _svc_say "PostgreSQL $version main does not use port $_svc_pg_port; start one there" >&2
      return 1
    fi
    _svc_say "creating PostgreSQL cluster $version main on port $_svc_pg_port"
    _svc_root pg_createcluster "$version" main --port "$_svc_pg_port" >/dev/null || return 1
    cluster="$version main"
  fi
  read -r version name <<<"$cluster"
  _svc_say "starting PostgreSQL $version $name"
  # A failed start (say, it was already starting) is judged by whether the server then answers.
  _svc_root pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start ||
    _svc_say "pg_ctlcluster start failed; waiting to see whether PostgreSQL answers anyway"
  _svc_wait _svc_pg_ready 30
}

# Lets the postgres user in over loopback TCP without a password, as the test URL expects.
_svc_pg_trust_loopback() {
  local cluster version name hba marker
  cluster=$(_svc_pg_cluster)
  if [ -z "$cluster" ]; then
    _svc_say "cannot log in as postgres on 127.0.0.1:$_svc_pg_port, and the server is not a" \
      "local cluster this script can configure; set TEST_DATABASE_URL" >&2
    return 1
  fi
  read -r version name <<<"$cluster"
  hba="/etc/postgresql/$version/$name/pg_hba.conf"
  marker="# outflank tests: trust the postgres user on loopback (added by tests/services.sh)"
  if ! _svc_root grep -qF "$marker" "$hba"; then
    _svc_say "letting user postgres log in without a password on loopback ($hba)"
    # The first matching line wins, so these go before every other rule.
    _svc_root sed -i "1i $marker\\
host all postgres 127.0.0.1/32 trust\\
host all postgres ::1/128 trust" "$hba" || return 1
  fi
  _svc_root pg_ctlcluster --skip-systemctl-redirect "$version" "$name" reload || return 1
  _svc_wait _svc_pg_login 10
}

_svc_postgres() {
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    _svc_say "PostgreSQL: using TEST_DATABASE_URL from the environment"
    return 0
  fi
  if [ "${OUTFLANK_SKIP_POSTGRES:-}" = 1 ]; then
    _svc_say "PostgreSQL: skipped (OUTFLANK_SKIP_POSTGRES=1)"
    return 0
  fi
  if _svc_pg_ready; then
    _svc_say "PostgreSQL: already running on 127.0.0.1:$_svc_pg_port"
  else
    _svc_pg_start || {
      _svc_say "PostgreSQL: could not start it on 127.0.0.1:$_svc_pg_port" >&2
      return 1
    }
    _svc_say "PostgreSQL: started on 127.0.0.1:$_svc_pg_port"
  fi
  if ! command -v psql >/dev/null 2>&1; then
    _svc_apt_install postgresql-client || return 1
  fi
  if ! _svc_pg_login; then
    _svc_pg_trust_loopback || {
      _svc_say "PostgreSQL: user postgres cannot log in on 127.0.0.1:$_svc_pg_port" >&2
      return 1
    }
  fi
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$_svc_pg_port/postgres"
  _svc_say "PostgreSQL: TEST_DATABASE_URL=$TEST_DATABASE_URL"
}

# --- Redis -----------------------------------------------------------------------------------

_svc_redis_port=${OUTFLANK_TEST_REDIS_PORT:-6379}

_svc_redis_ready() {
  if command -v redis-cli >/dev/null 2>&1; then
    [ "$(redis-cli -h 127.0.0.1 -p "$_svc_redis_port" ping 2>/dev/null)" = PONG ]
  else
    # Without redis-cli, speak the protocol by hand.
    (
      exec 3<>"/dev/tcp/127.0.0.1/$_svc_redis_port" || exit 1
      printf 'PING\r\n' >&3
      IFS= read -r -t 2 reply <&3 && [ "${reply%$'\r'}" = +PONG ]
    ) 2>/dev/null
  fi
}

_svc_redis_start() {
  if ! command -v redis-server >/dev/null 2>&1; then
    _svc_apt_install redis-server || return 1
    # The package may have started its own server already.
    if _svc_wait _svc_redis_ready 5; then return 0; fi
  fi
  _svc_say "starting Redis on 127.0.0.1:$_svc_redis_port"
  local common=(--daemonize yes --port "$_svc_redis_port" --save "" --appendonly no)
  # `-::1` (bind IPv6 loopback if there is one) needs Redis 7; older ones get IPv4 only.
  redis-server "${common[@]}" --bind 127.0.0.1 -::1 >/dev/null 2>&1 ||
    redis-server "${common[@]}" --bind 127.0.0.1 >/dev/null || return 1
  _svc_wait _svc_redis_ready 10
}

_svc_redis() {
  if [ -n "${TEST_REDIS_URL:-}" ]; then
    _svc_say "Redis: using TEST_REDIS_URL from the environment"
    return 0
  fi
  if _svc_redis_ready; then
    _svc_say "Redis: already running on 127.0.0.1:$_svc_redis_port"
  else
    _svc_redis_start || {
      _svc_say "Redis: could not start it on 127.0.0.1:$_svc_redis_port" >&2
      return 1
    }
    _svc_say "Redis: started on 127.0.0.1:$_svc_redis_port"
  fi
  export TEST_REDIS_URL="redis://127.0.0.1:$_svc_redis_port"
  _svc_say "Redis: TEST_REDIS_URL=$TEST_REDIS_URL"
}

# Sourced: `return` hands the status to the caller. Run directly: the exports are lost, so say so.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  _svc_say "note: run directly, the variables below are not kept; source this file instead"
  _svc_postgres && _svc_redis
  exit
fi
_svc_postgres && _svc_redis
